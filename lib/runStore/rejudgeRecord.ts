/**
 * What one `sheetbench rejudge` of a run (any judged benchmark) records beside its task list (`<tag>.judge.json` next
 * to `<tag>.json`), in two steps:
 * - `started`, written before the rejudge's workflow starts, so before any of its verdicts: the tasks it judges, when
 *   it started and what it was asked to judge with (`requested`, as the benchmark describes its judge; `judgeModel`,
 *   rejudge's `--judge-model`). A rejudge killed mid-way leaves this record: a listed task whose judgment is newer than
 *   `startedAt` was judged by it, the others still hold the run's earlier verdicts; `sheetbench rejudge RUN` resumes
 *   it (unfinishedRejudge) under the same tag;
 * - `finished`, rewritten once its workflow ended: the distinct judge settings its tasks' judgments record (each
 *   written by the worker that judged it; a worker's config may differ from the starting one) with the tasks judged
 *   so, and the tasks judged without a model call.
 */
import path from 'node:path';
import { z } from 'zod';
import { readJsonIfPresent, readRequiredJson } from '../json';
import { namesInFolder, writeJsonAtomic } from './files';

const recordSchema = z.looseObject({
  tag: z.string(),
  /** Absent in records written before the started step existed: those were written when their rejudge finished. */
  state: z.enum(['started', 'finished']).default('finished'),
  startedAt: z.string().optional(),
  /** What the rejudge was asked to judge with; the judgments say what their workers judged with (`settings`). */
  requested: z.unknown().optional(),
  /** rejudge --judge-model, so that a resume judges with the same model. */
  judgeModel: z.string().optional(),
  tasks: z.array(z.string()).optional(),
  /** When the settings below were gathered from the judgments (the rejudge's end). */
  recordedAt: z.string().optional(),
  settings: z.array(z.object({ judge: z.unknown(), tasks: z.array(z.string()) })),
  /** Tasks whose judgment records no settings (no call was made: nothing to judge, or no judge configured). */
  withoutCall: z.array(z.string()),
});
export type RejudgeRecord = z.output<typeof recordSchema>;

/** A rejudge that started and never recorded its end. */
export interface UnfinishedRejudge {
  tag: string;
  judgeModel?: string;
  /** The tasks it judges (its started record's). */
  tasks: string[];
}

const RECORD_SUFFIX = '.judge.json';
export const rejudgeRecordPath = (runDir: string, tag: string) => path.join(runDir, `${tag}${RECORD_SUFFIX}`);
/** The rejudge's task list, the ids its workflow judges. */
export const rejudgeTaskListPath = (runDir: string, tag: string) => path.join(runDir, `${tag}.json`);

const readRecord = (runDir: string, tag: string) => readJsonIfPresent(rejudgeRecordPath(runDir, tag), recordSchema);
/** The rejudge's task list (a missing or corrupt one throws naming its file). */
export const readRejudgeTaskList = (runDir: string, tag: string) =>
  readRequiredJson(rejudgeTaskListPath(runDir, tag), z.array(z.string()));

/** Before the rejudge `tag` starts (its task list written): the `started` record. */
export async function recordRejudgeStart(
  runDir: string,
  tag: string,
  request: { requested: unknown; judgeModel?: string },
): Promise<RejudgeRecord> {
  const record: RejudgeRecord = {
    tag,
    state: 'started',
    startedAt: new Date().toISOString(),
    requested: request.requested,
    ...(request.judgeModel === undefined ? {} : { judgeModel: request.judgeModel }),
    tasks: await readRejudgeTaskList(runDir, tag),
    settings: [],
    withoutCall: [],
  };
  await writeJsonAtomic(rejudgeRecordPath(runDir, tag), record);
  return record;
}

/** The rejudge of the run that started and never finished (killed mid-way), the first by tag; undefined when none. */
export async function unfinishedRejudge(runDir: string): Promise<UnfinishedRejudge | undefined> {
  const tags = (await namesInFolder(runDir))
    .filter((name) => name.endsWith(RECORD_SUFFIX))
    .map((name) => name.slice(0, -RECORD_SUFFIX.length))
    .sort();
  for (const tag of tags) {
    const record = await readRecord(runDir, tag);
    if (record?.state === 'started') return { tag, judgeModel: record.judgeModel, tasks: record.tasks ?? [] };
  }
  return undefined;
}

/**
 * After the rejudge `tag` ended: the `finished` record, from its task list and the settings each task's judgment
 * records (`judgedWith`: undefined where the task was judged without a model call).
 */
export async function recordRejudgeEnd(
  runDir: string,
  tag: string,
  judgedWith: (taskId: string) => Promise<unknown>,
): Promise<RejudgeRecord> {
  const ids = await readRejudgeTaskList(runDir, tag);
  const started = await readRecord(runDir, tag);
  const byKey = new Map<string, { judge: unknown; tasks: string[] }>();
  const withoutCall: string[] = [];
  for (const id of ids) {
    const judge = await judgedWith(id);
    if (judge === undefined) {
      withoutCall.push(id);
      continue;
    }
    const key = JSON.stringify(judge);
    const entry = byKey.get(key) ?? { judge, tasks: [] };
    entry.tasks.push(id);
    byKey.set(key, entry);
  }
  const record: RejudgeRecord = {
    ...started,
    tag,
    state: 'finished',
    tasks: ids,
    recordedAt: new Date().toISOString(),
    settings: [...byKey.values()],
    withoutCall,
  };
  await writeJsonAtomic(rejudgeRecordPath(runDir, tag), record);
  return record;
}
