import { z } from 'zod';
import { stageRecordSchema, taskResultSchema } from '../../../contracts/taskResultSchema';
import { runManifestSchema, type RunManifest } from '../../../lib/runStore/manifest';
import { sheetTaskSchema } from '../dataset';

/**
 * zod schemas for the files of a run folder (lib/runStore/runLayout.ts). Records written by other parts of sheetbench
 * may grow fields; `passthrough`/loose objects keep the report working when they do.
 */

/** The run manifest has one home: lib/runStore/manifest.ts; a task's result and stage records: contracts/. */
export { runManifestSchema, stageRecordSchema, taskResultSchema };
export type { RunManifest };

export const taskListSchema = z.array(sheetTaskSchema);

/** Transcripts are written by several agents; only what the report shows is checked. */
export const transcriptSchema = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })).default([]),
  executions: z
    .array(
      z.looseObject({
        code: z.string().default(''),
        stdout: z.string().nullish(),
        stderr: z.string().nullish(),
        error: z.unknown().optional(),
      }),
    )
    .default([]),
  stages: z.array(z.unknown()).default([]),
});
export type Transcript = z.infer<typeof transcriptSchema>;
export type TranscriptMessage = Transcript['messages'][number];
export type TranscriptExecution = Transcript['executions'][number];
