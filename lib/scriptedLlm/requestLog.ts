import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

export const requestLogEntrySchema = z.object({
  seq: z.number().int(),
  time: z.string(),
  callKey: z.string().optional(),
  /** sha256 of the raw request body. */
  bodyHash: z.string(),
  model: z.string().optional(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  /** Images the request carried (vision requests): which message, media type, size and sha256 of the decoded bytes. */
  images: z
    .array(z.object({ message: z.number().int(), mediaType: z.string(), bytes: z.number().int(), sha256: z.string() }))
    .optional(),
  /** HTTP status sent; 0 for a reset connection, 499 when the client had gone before the reply. */
  status: z.number().int(),
  /** True only when a well-formed completion was delivered with 200 to a still-connected client (i.e. a paid call). */
  answered: z.boolean(),
  rule: z.string().optional(),
  fault: z.string().optional(),
  durationMs: z.number(),
  /** A files or batches API request (`POST /v1/batches`, …); absent for chat completions and batch lines. */
  route: z.string().optional(),
  /** A batch line's batch (its `callKey` is the line's custom_id). */
  batchId: z.string().optional(),
});

export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

/** The in-memory log, optionally mirrored line by line to a JSONL file (synchronously, so a kill loses nothing sent). */
export class RequestLog {
  readonly entries: RequestLogEntry[] = [];

  constructor(private readonly file?: string) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }
}

/**
 * How far from a kill -9 an answered reply may have left the server and still be lost with the worker: the time the
 * worker takes to read the reply and write its cache entry, plus the time the server takes to see a killed client's
 * socket closed. Measured (bench/reply-to-cache.ts, 100 replies, a 2-core host at load average 22): from the reply
 * leaving the server to its cache file's mtime p50 −1 ms, p99 40 ms since the entry is written in the reply's own
 * event-loop turn and scoring runs off the loop (before: p50 2 ms, p99 423 ms). A repeat is forgiven only when the
 * earlier reply left within this window of a kill; one that left earlier was lost by a worker that had it (a bug).
 */
const KILL_WINDOW_MS = 250;

/** When an entry's reply left the server: its entry is written as the reply is sent. */
function sentAt(entry: RequestLogEntry): number {
  return Date.parse(entry.time) + entry.durationMs;
}

/**
 * Call keys paid twice for a reason other than a kill: answered again after an earlier answer that left the server
 * more than `windowMs` from every kill time. A kill -9 that lands between a reply leaving the server and the worker
 * caching it loses a delivered reply, and no client can avoid paying for that one again; any other re-paid reply means
 * the worker lost a reply it had (a bug).
 */
export function duplicatesAnsweredApartFromKills(
  log: readonly RequestLogEntry[],
  killTimesMs: readonly number[],
  windowMs = KILL_WINDOW_MS,
): string[] {
  const answers = new Map<string, RequestLogEntry[]>();
  for (const entry of log) {
    if (entry.answered && entry.callKey) answers.set(entry.callKey, [...(answers.get(entry.callKey) ?? []), entry]);
  }
  const atAKill = (entry: RequestLogEntry) => killTimesMs.some((kill) => Math.abs(sentAt(entry) - kill) <= windowMs);
  return [...answers].filter(([, list]) => list.slice(0, -1).some((earlier) => !atAKill(earlier))).map(([key]) => key);
}

/** Call keys answered 200 more than once: each one is an LLM request paid twice. */
export function duplicatesAnswered(log: readonly RequestLogEntry[]): string[] {
  return duplicatesAnsweredApartFromKills(log, []);
}

/** Reads a log persisted by another process; a torn last line (writer killed mid-write) is skipped. */
export async function readRequestLog(file: string): Promise<RequestLogEntry[]> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const entries: RequestLogEntry[] = [];
  lines.forEach((line, i) => {
    const parsed = requestLogEntrySchema.safeParse(parseLine(line));
    if (parsed.success) entries.push(parsed.data);
    else if (i < lines.length - 1) throw new Error(`request log ${file}: line ${i + 1} is not a log entry`);
  });
  return entries;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
