import { z } from 'zod';
import { runSummarySchema } from '../report/runSummarySchema';

/** A share that was NaN when written (no questions) is stored by JSON as null: read back as NaN. */
const share = z.union([z.number(), z.null().transform(() => Number.NaN)]);

/**
 * A DSBench summary.json as `run`, `rejudge` and the run pages read it back, maybe from a run made by another version:
 * the shared RunSummary fields plus the `dsbench` metrics the summary lines show. Loose, so fields added later (or
 * dropped) elsewhere in the metrics do not make an older summary unreadable.
 */
export const dsbenchSummarySchema = runSummarySchema.extend({
  dsbench: z.looseObject({
    accuracy: share,
    competitionAccuracy: share,
    correct: z.number(),
    unparseableJudgments: z.number(),
    byAnswerType: z.record(z.string(), z.looseObject({ questions: z.number(), correct: z.number(), accuracy: share })),
  }),
});

export type DsbenchSummaryRead = z.output<typeof dsbenchSummarySchema>;
