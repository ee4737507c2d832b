// Numbers of the run, task and comparison pages: percentages with their 95% intervals, signed differences, dollars.

export const pct = (x) => (x === undefined || x === null ? '–' : `${(x * 100).toFixed(1)}%`);

/** "62.5% [40.0–85.0]": a mean and its 95% interval. */
export const withInterval = (i) =>
  i ? `${pct(i.mean)} [${(i.ci95[0] * 100).toFixed(1)}–${(i.ci95[1] * 100).toFixed(1)}]` : '–';

const signed = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

/** "+4.2 pp [−1.0, +9.5]": a difference and its 95% interval. */
export const diffInterval = (i) => (i ? `${signed(i.mean)} pp [${signed(i.ci95[0])}, ${signed(i.ci95[1])}]` : '–');

export const usd = (x) => (x === undefined || x === null ? '–' : `${x < 0 ? '−' : ''}$${Math.abs(x).toFixed(4)}`);

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

export const runHref = (id) => `#/runs/${encodeURIComponent(id)}`;
export const taskHref = (runId, taskId, epoch) =>
  `${runHref(runId)}/t/${encodeURIComponent(taskId)}${epoch && epoch > 1 ? `/${epoch}` : ''}`;
export const compareHref = (ids) => `#/compare/${ids.map(encodeURIComponent).join(',')}`;
export const runApi = (id) => `/api/runs/${encodeURIComponent(id)}`;
export const taskApi = (runId, taskId) => `${runApi(runId)}/tasks/${encodeURIComponent(taskId)}`;
