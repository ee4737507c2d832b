import path from 'node:path';
import { RunLayout } from './runLayout';
import { readJson } from './files';
import { readManifest, type RunManifest } from './manifest';
import { DatasetError, taskKey, type SheetTask } from '../../benchmarks/spreadsheetbench/dataset';

/** What an activity needs to know about the run it works for, read from the run folder (cached per process). */
export interface RunContext {
  manifest: RunManifest;
  layout: RunLayout;
  tasks: SheetTask[];
  task(taskId: string): SheetTask;
}

const contexts = new Map<string, Promise<RunContext>>();

export function runContext(runDir: string): Promise<RunContext> {
  const key = path.resolve(runDir);
  let ctx = contexts.get(key);
  if (!ctx) {
    ctx = loadRunContext(key);
    contexts.set(key, ctx);
    ctx.catch(() => contexts.delete(key));
  }
  return ctx;
}

async function loadRunContext(runDir: string): Promise<RunContext> {
  const manifest = await readManifest(runDir);
  const tasks = await readJson<SheetTask[]>(path.join(runDir, 'tasks.json'));
  const byId = new Map(tasks.map((t) => [taskKey(t.id), t]));
  return {
    manifest,
    layout: new RunLayout(runDir, manifest.setting, manifest.llm.model),
    tasks,
    task(taskId) {
      const t = byId.get(taskId);
      if (!t) throw new DatasetError('not in this run', taskId);
      return t;
    },
  };
}
