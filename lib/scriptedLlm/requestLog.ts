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
  /** HTTP status sent; 0 for a reset connection, 499 when the client had gone before the reply. */
  status: z.number().int(),
  /** True only when a well-formed completion was delivered with 200 to a still-connected client (i.e. a paid call). */
  answered: z.boolean(),
  rule: z.string().optional(),
  fault: z.string().optional(),
  durationMs: z.number(),
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

/** Call keys answered 200 more than once: each one is an LLM request paid twice. */
export function duplicatesAnswered(log: readonly RequestLogEntry[]): string[] {
  const counts = new Map<string, number>();
  for (const entry of log) {
    if (entry.answered && entry.callKey) counts.set(entry.callKey, (counts.get(entry.callKey) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n > 1).map(([key]) => key);
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
