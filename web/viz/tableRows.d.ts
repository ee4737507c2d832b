import type { VisualizationOutput } from '../api-types';
export const DEFAULT_MAX_ROWS: number;
export function tableRows(
  rows: Record<string, unknown>[],
  config?: VisualizationOutput['config'],
): { columns: string[]; rows: unknown[][]; total: number; truncated: boolean };
