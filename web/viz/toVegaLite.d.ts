import type { VisualizationOutput } from '../api-types';
export type Row = Record<string, unknown>;
export function toVegaLite(output: VisualizationOutput, rows: Row[] | undefined): Record<string, any>;
export function fieldType(rows: Row[], field: string): 'quantitative' | 'temporal' | 'nominal';
