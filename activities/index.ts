import { analysisActivities, type AnalysisActivities } from './analysis';
import { batchActivities, type BatchActivities } from './llm/batchActivities';
import type { WorkerDeps } from './deps';
import { dsbenchActivities, type DsbenchActivities } from './dsbench';
import { recalcActivities, type RecalcActivities } from './recalc';
import { runActivities, type RunActivities } from './run';
import { spreadsheetActivities, type SpreadsheetActivities } from './spreadsheetbench';
import { spreadsheetBench2Activities, type SpreadsheetBench2Activities } from './spreadsheetbench2';
import { v2RecalcActivities, type V2RecalcActivities } from './spreadsheetbench2/recalculatedCopies';
import type { Recalculator } from '../lib/recalc/types';

/**
 * Every activity of the main task queue, for the worker (the recalc queue's are `recalcQueueActivities`). Each workflow
 * proxies only its own group, by type: runs, SpreadsheetBench tasks, DSBench questions, the analysis agent.
 */
export function createActivities(deps: WorkerDeps) {
  return {
    ...spreadsheetActivities(deps),
    ...dsbenchActivities(deps),
    ...spreadsheetBench2Activities(deps),
    ...analysisActivities(deps),
    ...runActivities,
    ...batchActivities(deps),
  };
}

/**
 * Every activity of the recalc task queue (its worker holds the engine): the outputs recalculated in place, and
 * SpreadsheetBench 2's inputs and answers recalculated once per content (cached in the user's cache folder).
 */
export function recalcQueueActivities(recalculator: () => Promise<Recalculator>) {
  return { ...recalcActivities(recalculator), ...v2RecalcActivities(recalculator) };
}

export { recalcActivities };
export type {
  AnalysisActivities,
  BatchActivities,
  DsbenchActivities,
  RecalcActivities,
  RunActivities,
  SpreadsheetActivities,
  SpreadsheetBench2Activities,
  V2RecalcActivities,
  WorkerDeps,
};
