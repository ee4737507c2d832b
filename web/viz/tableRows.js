// The rows and columns a manifest `table` output shows: the configured columns (all when none), at most maxRows rows.
/** @import { VisualizationOutput } from '../../analysis/conversation/types' */
/** @import { Row } from './toVegaLite.js' */

export const DEFAULT_MAX_ROWS = 100;

/**
 * @param {Row[]} rows
 * @param {VisualizationOutput['config']} [config]
 * @returns {{ columns: string[]; rows: unknown[][]; total: number; truncated: boolean }}
 */
export function tableRows(rows, config = {}) {
  const all = rows.length ? Object.keys(rows[0]) : [];
  const columns = config.columns?.length ? config.columns : all;
  const missing = columns.filter((c) => rows.length && !all.includes(c));
  if (missing.length)
    throw new Error(`table columns not in the data: ${missing.join(', ')} (columns: ${all.join(', ')})`);
  const limit = config.maxRows ?? DEFAULT_MAX_ROWS;
  return {
    columns,
    rows: rows.slice(0, limit).map((r) => columns.map((c) => r[c] ?? '')),
    total: rows.length,
    truncated: rows.length > limit,
  };
}
