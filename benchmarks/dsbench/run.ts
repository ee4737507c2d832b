import { runContextReader, type RunContext } from '../../lib/runStore/runContext';
import { dsbenchQuestionSchema, type DsbenchQuestion } from './dataset';

/** A DSBench run as its activities and scorer see it: one task per question. */
export type DsbenchRun = RunContext<DsbenchQuestion>;

export const dsbenchRun = runContextReader(dsbenchQuestionSchema);
