/** What the analysis agent shows: patterns described, files, visualizations (pure: safe in the workflow bundle). */
import type { Pattern } from '../../contracts/conversation';

export const PATTERN_DESCRIPTIONS: Record<Pattern, string> = {
  auto: 'JIT: classifies the request, picks one of the patterns below and records why',
  direct: 'One code run, then the answer',
  react: 'Reason and act: the model calls tools step by step until it can answer',
  plan_execute: 'Writes a plan first (recorded and shown), then carries it out with tools',
  reflection:
    'Answers, critiques the answer against a checklist (question, title, axis labels, legend, readable), then refines',
  iterative: 'Bounded fix loop: runs code, and on failure fixes it, up to a fixed number of attempts',
  tree_of_thoughts: 'Proposes several approaches in parallel, evaluates them, carries out the best',
  ensemble: 'Several agents solve the request in parallel; their results are compared and one is recommended',
};

export interface FileInfo {
  filename: string;
  /** Workspace-relative. */
  path: string;
  /** MIME type. */
  type: string;
  size: number;
}

export interface VisualizationOutput {
  id: string;
  type: 'table' | 'line_chart' | 'bar_chart' | 'scatter' | 'pie_chart' | 'image' | 'vega_lite';
  title?: string;
  dataFile?: string;
  config?: {
    columns?: string[];
    maxRows?: number;
    xColumn?: string;
    yColumn?: string | string[];
    xLabel?: string;
    yLabel?: string;
    groupBy?: string;
    labelColumn?: string;
    valueColumn?: string;
  };
  spec?: unknown;
}
