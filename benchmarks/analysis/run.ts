import { runContextReader, type RunContext } from '../../lib/runStore/runContext';
import { analysisTaskSchema, type AnalysisTask } from './dataset';

/** An analysis-suite run as its activities and scorer see it: one task per request. */
export type AnalysisRun = RunContext<AnalysisTask>;

export const analysisRun = runContextReader(analysisTaskSchema);
