import { FailureTypes } from '../failureTypes';
/** A task as it stands in a run's tasks.json: each benchmark keeps its own record shape, keyed by `id`. */
export interface TaskRecord {
  id: number | string;
}

/** Which tasks a run takes: these ids (in dataset order), and/or the first `limit`. */
export interface SelectOptions {
  ids?: string[];
  limit?: number;
}

/** A dataset, a task record or a task's files that cannot be used: the message names the task and the cause. */
export class DatasetError extends Error {
  constructor(
    message: string,
    readonly taskId?: string | number,
  ) {
    super(taskId === undefined ? message : `task ${taskId}: ${message}`);
    this.name = FailureTypes.DatasetError;
  }
}

/** A task id as it names files, workflows and results (ids keep their int or string type in the records). */
export function taskKey(id: number | string): string {
  return String(id);
}

/** The selected tasks; ids the dataset does not have are refused together, in the words `unknown` gives. */
export function selectTasks<T extends TaskRecord>(
  tasks: T[],
  select: SelectOptions,
  unknown: (missing: string[]) => string,
): T[] {
  let selected = tasks;
  if (select.ids?.length) {
    const known = new Set(tasks.map((t) => taskKey(t.id)));
    const missing = select.ids.filter((id) => !known.has(id));
    if (missing.length) throw new DatasetError(unknown(missing));
    const wanted = new Set(select.ids);
    selected = tasks.filter((t) => wanted.has(taskKey(t.id)));
  }
  return select.limit !== undefined ? selected.slice(0, select.limit) : selected;
}

/**
 * A run with repeats (`run --epochs K`) samples every task K times as independent attempts. An attempt is named by its
 * key: epoch 1 is the task key itself (so a run without repeats, and every run recorded before repeats, is unchanged),
 * epoch e ≥ 2 is `<task key>@<e>`. The key names the attempt's task workflow, files and LLM call keys, so attempts share
 * nothing but their prompts.
 */
export function attemptKey(key: string, epoch: number): string {
  return epoch <= 1 ? key : `${key}@${epoch}`;
}

const ATTEMPT = /^(.+)@([1-9]\d*)$/;

/** The task key and epoch of an attempt key (a key without `@<e>` is epoch 1). */
export function parseAttemptKey(key: string): { taskKey: string; epoch: number } {
  const m = ATTEMPT.exec(key);
  return m ? { taskKey: m[1], epoch: Number(m[2]) } : { taskKey: key, epoch: 1 };
}

/** Every attempt of a run, epoch by epoch (all tasks' first attempts, then all second attempts, ...). */
export function attemptKeys(tasks: readonly TaskRecord[], epochs: number): string[] {
  const keys = tasks.map((t) => taskKey(t.id));
  return Array.from({ length: epochs }, (_, e) => keys.map((k) => attemptKey(k, e + 1))).flat();
}

/** Task ids an attempt key could not tell apart from an attempt (`x@2`): a run with repeats refuses them. */
export function ambiguousWithAttempts(tasks: readonly TaskRecord[]): string[] {
  return tasks.map((t) => taskKey(t.id)).filter((k) => ATTEMPT.test(k));
}
