import path from 'node:path';
import { RunLayout } from './runLayout';
import { z } from 'zod';
import { readRequiredJson } from '../json';
import { readManifest, type RunManifest } from './manifest';
import { DatasetError, parseAttemptKey, taskKey, type TaskRecord } from './taskRecord';

/** What an activity needs to know about the run it works for, read from the run folder. */
export interface RunContext<T extends TaskRecord = TaskRecord> {
  manifest: RunManifest;
  layout: RunLayout;
  tasks: T[];
  /** The task of a task key, or of an attempt key in a run with repeats (`<key>@<epoch>`). */
  task(taskId: string): T;
}

/**
 * Makes a reader of run contexts whose tasks are checked by `recordSchema` (tasks.json is read back by every activity
 * process, maybe of another version), each run folder read once per process. A benchmark makes one for its own
 * records (tasks.json of its runs holds nothing else); `runContext` below sees any run's tasks only as records with
 * an id.
 */
export function runContextReader<T extends TaskRecord>(
  recordSchema: z.ZodType<T>,
): (runDir: string) => Promise<RunContext<T>> {
  const contexts = new Map<string, Promise<RunContext<T>>>();
  return (runDir) => {
    const key = path.resolve(runDir);
    let ctx = contexts.get(key);
    if (!ctx) {
      ctx = loadRunContext(key, recordSchema);
      contexts.set(key, ctx);
      ctx.catch(() => contexts.delete(key));
    }
    return ctx;
  };
}

/** Any run, its tasks as plain records (the run's own bookkeeping: task ids, the manifest, the folder layout). */
export const runContext = runContextReader<TaskRecord>(z.looseObject({ id: z.union([z.number(), z.string()]) }));

async function loadRunContext<T extends TaskRecord>(
  runDir: string,
  recordSchema: z.ZodType<T>,
): Promise<RunContext<T>> {
  const manifest = await readManifest(runDir);
  const tasks = await readRequiredJson(path.join(runDir, 'tasks.json'), z.array(recordSchema));
  const byId = new Map(tasks.map((t) => [taskKey(t.id), t]));
  return {
    manifest,
    layout: new RunLayout(runDir),
    tasks,
    task(taskId) {
      const t =
        byId.get(taskId) ?? ((manifest.epochs ?? 1) > 1 ? byId.get(parseAttemptKey(taskId).taskKey) : undefined);
      if (!t) throw new DatasetError('not in this run', taskId);
      return t;
    },
  };
}
