import { pathExists } from '../../../lib/runStore/files';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { SheetTask } from '../dataset';
import { attemptKey, parseAttemptKey, taskKey } from '../../../lib/runStore/taskRecord';
import { RunLayout } from '../../../lib/runStore/runLayout';
import type { TaskResult } from '../../../contracts/taskResult';
import { runManifestSchema, taskListSchema, taskResultSchema, transcriptSchema } from './schemas';
import type { RunManifest, Transcript } from './schemas';

/** A run folder could not be read; the message names the file and the cause. */
export class RunFolderError extends Error {
  constructor(
    readonly file: string,
    cause: string,
  ) {
    super(`${file}: ${cause}`);
    this.name = 'RunFolderError';
  }
}

export interface LoadedTask {
  task: SheetTask;
  key: string;
  /** Absent while the task is pending. */
  result?: TaskResult;
  /** A run with repeats: the task's further attempts recorded so far (epoch 2, 3, …), keyed `<key>@<epoch>`. */
  attempts: { key: string; epoch: number; result: TaskResult }[];
  /** Output workbooks relative to the run folder (any `outputs/<setting>_<model>/`). */
  outputFiles: string[];
  hasTranscript: boolean;
}

export interface LoadedRun {
  dir: string;
  manifest: RunManifest;
  tasks: LoadedTask[];
  /** Result files whose task is not in tasks.json (reported, not scored). */
  strayResults: string[];
  /** When the newest result file was written (undefined without results). */
  lastResultAt?: Date;
}

export async function loadRun(dir: string): Promise<LoadedRun> {
  const layout = new RunLayout(dir);
  const manifest = await readJsonFile(layout.runManifestPath, runManifestSchema);
  const taskList = await readJsonFile(layout.taskListPath, taskListSchema);
  const { results, lastResultAt } = await loadResults(layout);
  const outputs = await listOutputFiles(dir);
  const tasks = await Promise.all(
    taskList.map(async (task): Promise<LoadedTask> => {
      const key = taskKey(task.id);
      const hasTranscript = await pathExists(layout.transcriptPath(key));
      return {
        task,
        key,
        result: results.get(key),
        attempts: furtherAttempts(key, manifest.epochs ?? 1, results),
        outputFiles: outputs.get(key) ?? [],
        hasTranscript,
      };
    }),
  );
  const known = new Set(tasks.map((t) => t.key));
  // A run with repeats records its further attempts as <key>@<epoch>: they are the run's own (the report's intervals count them).
  const attemptOfKnown = (k: string) => (manifest.epochs ?? 1) > 1 && known.has(parseAttemptKey(k).taskKey);
  const strayResults = [...results.keys()].filter((k) => !known.has(k) && !attemptOfKnown(k));
  return { dir, manifest, tasks, strayResults, lastResultAt };
}

function furtherAttempts(key: string, epochs: number, results: Map<string, TaskResult>): LoadedTask['attempts'] {
  const out: LoadedTask['attempts'] = [];
  for (let epoch = 2; epoch <= epochs; epoch++) {
    const result = results.get(attemptKey(key, epoch));
    if (result) out.push({ key: attemptKey(key, epoch), epoch, result });
  }
  return out;
}

/** The transcript of one task, or null when the task has none. */
export async function loadTranscript(dir: string, key: string): Promise<Transcript | null> {
  const file = new RunLayout(dir).transcriptPath(key);
  if (!(await pathExists(file))) return null;
  return readJsonFile(file, transcriptSchema);
}

/** The transcripts of all tasks (and further attempts) that have one, keyed by task (or attempt) key. */
export async function loadTranscripts(run: LoadedRun): Promise<Map<string, Transcript>> {
  const found = new Map<string, Transcript>();
  for (const t of run.tasks) {
    const transcript = t.hasTranscript ? await loadTranscript(run.dir, t.key) : null;
    if (transcript) found.set(t.key, transcript);
    for (const a of t.attempts) {
      const attempt = await loadTranscript(run.dir, a.key);
      if (attempt) found.set(a.key, attempt);
    }
  }
  return found;
}

export async function readJsonFile<S extends z.ZodType>(file: string, schema: S): Promise<z.infer<S>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new RunFolderError(file, code === 'ENOENT' ? 'file is missing' : `cannot be read (${code ?? String(err)})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new RunFolderError(file, `not valid JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new RunFolderError(file, `unexpected content: ${issues.slice(0, 5).join('; ')}`);
  }
  return parsed.data;
}

async function loadResults(layout: RunLayout): Promise<{ results: Map<string, TaskResult>; lastResultAt?: Date }> {
  const names = (await listNames(layout.resultsDir)).filter((n) => n.endsWith('.json'));
  const results = new Map<string, TaskResult>();
  let lastResultAt: Date | undefined;
  for (const name of names) {
    const file = path.join(layout.resultsDir, name);
    const result: TaskResult = await readJsonFile(file, taskResultSchema);
    const key = name.slice(0, -'.json'.length);
    if (result.taskId !== key) throw new RunFolderError(file, `holds the result of task ${result.taskId}, not ${key}`);
    results.set(key, result);
    const { mtime } = await stat(file);
    if (!lastResultAt || mtime > lastResultAt) lastResultAt = mtime;
  }
  return { results, lastResultAt };
}

const OUTPUT_FILE = /^(\d+)_(.+)_output\.xlsx$/;

async function listOutputFiles(dir: string): Promise<Map<string, string[]>> {
  const byTask = new Map<string, string[]>();
  for (const setting of await listNames(path.join(dir, 'outputs'))) {
    for (const name of (await listNames(path.join(dir, 'outputs', setting))).sort()) {
      const m = OUTPUT_FILE.exec(name);
      if (!m) continue;
      const list = byTask.get(m[2]) ?? [];
      list.push(path.posix.join('outputs', setting, name));
      byTask.set(m[2], list);
    }
  }
  return byTask;
}

async function listNames(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new RunFolderError(dir, `cannot be listed (${(err as NodeJS.ErrnoException).code})`);
  }
}
