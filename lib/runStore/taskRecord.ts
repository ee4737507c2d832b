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
  constructor(message: string, readonly taskId?: string | number) {
    super(taskId === undefined ? message : `task ${taskId}: ${message}`);
    this.name = 'DatasetError';
  }
}

/** A task id as it names files, workflows and results (ids keep their int or string type in the records). */
export function taskKey(id: number | string): string {
  return String(id);
}

/** The selected tasks; ids the dataset does not have are refused together, in the words `unknown` gives. */
export function selectTasks<T extends TaskRecord>(tasks: T[], select: SelectOptions, unknown: (missing: string[]) => string): T[] {
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
