// Numbers of the run, task and comparison pages: percentages with their 95% intervals, signed differences, dollars.
/** @import { Interval } from '../../benchmarks/report/statistics' */

export const pct = (/** @type {number | undefined | null} */ x) =>
  x === undefined || x === null ? '–' : `${(x * 100).toFixed(1)}%`;

/** "62.5% [40.0–85.0]": a mean and its 95% interval. */
export const withInterval = (/** @type {Interval | undefined} */ i) =>
  i ? `${pct(i.mean)} [${(i.ci95[0] * 100).toFixed(1)}–${(i.ci95[1] * 100).toFixed(1)}]` : '–';

const signed = (/** @type {number} */ x) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

/** "+4.2 pp [−1.0, +9.5]": a difference and its 95% interval. */
export const diffInterval = (/** @type {Interval | undefined} */ i) =>
  i ? `${signed(i.mean)} pp [${signed(i.ci95[0])}, ${signed(i.ci95[1])}]` : '–';

export const usd = (/** @type {number | undefined | null} */ x) =>
  x === undefined || x === null ? '–' : `${x < 0 ? '−' : ''}$${Math.abs(x).toFixed(4)}`;

export const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;

export const runHref = (/** @type {string} */ id) => `#/runs/${encodeURIComponent(id)}`;
/**
 * @param {string} runId
 * @param {string} taskId
 * @param {number} [epoch]
 */
export const taskHref = (runId, taskId, epoch) =>
  `${runHref(runId)}/t/${encodeURIComponent(taskId)}${epoch && epoch > 1 ? `/${epoch}` : ''}`;
export const compareHref = (/** @type {string[]} */ ids) => `#/compare/${ids.map(encodeURIComponent).join(',')}`;
export const runApi = (/** @type {string} */ id) => `/api/runs/${encodeURIComponent(id)}`;
export const taskApi = (/** @type {string} */ runId, /** @type {string} */ taskId) =>
  `${runApi(runId)}/tasks/${encodeURIComponent(taskId)}`;
