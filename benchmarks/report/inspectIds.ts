import { createHash } from 'node:crypto';

/** shortuuid's alphabet (no 0, 1, I, O, l): Inspect writes 22-character ids in it. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A 22-character id derived from `seed`, so re-writing a run's log keeps its ids and file name. */
export function stableShortId(seed: string): string {
  let n = BigInt(`0x${createHash('sha256').update(seed).digest('hex')}`);
  const base = BigInt(ALPHABET.length);
  let out = '';
  for (let i = 0; i < 22; i++) {
    out += ALPHABET[Number(n % base)];
    n /= base;
  }
  return out;
}

/** ISO-8601 in UTC with an explicit `+00:00` offset, as Inspect writes it. */
export function utcIso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** `YYYY-MM-DDTHH-MM-SS+00-00_<task>_<taskId>.json` (what `inspect view` lists). */
export function evalLogFileName(created: Date, task: string, taskId: string): string {
  const stamp = utcIso(created).replace(/:/g, '-');
  return `${stamp}_${task.replace(/[^A-Za-z0-9-]+/g, '-')}_${taskId}.json`;
}

/** Parses an ISO-8601 time; one without an offset is taken as UTC (as Inspect does), not as local time. */
export function parseIsoAsUtc(iso: string): Date {
  return new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(iso) ? iso : `${iso}Z`);
}

/** The identity fields that open an Inspect `eval` spec, derived from the run id (stable across re-writes). */
export function evalIdentity(runId: string, task: string, created: string) {
  return {
    eval_id: stableShortId(`${runId}:eval`),
    run_id: stableShortId(`${runId}:run`),
    created,
    task,
    task_id: stableShortId(`${runId}:task`),
    task_version: 0,
    task_display_name: task,
    task_attribs: {},
  };
}

/** The closing `stats` block and the top-level fields Inspect writes after it (key order matters: samples come last). */
export function evalStats(created: string, completedAt: string, modelUsage: Record<string, unknown>) {
  return {
    stats: {
      started_at: created,
      completed_at: completedAt,
      model_usage: modelUsage,
      role_usage: {},
      connection_limit_history: [],
    },
    invalidated: false,
    tags: [],
    metadata: {},
  };
}
