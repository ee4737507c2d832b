import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * For each reply in a run's LLM cache: its cache file's mtime less the time the reply left the scripted server
 * (ms). The entry carries the reply's x-request-id (`req_scripted_<seq>`), which names its log entry; the log entry's
 * start + duration is when it was sent (logged as the reply is written, so a fast cache write can read ~1 ms early).
 */
export function replyToCacheMs(runDir: string, log: { seq: number; time: string; durationMs: number }[]): number[] {
  const sentAt = new Map(log.map((e) => [`req_scripted_${e.seq}`, Date.parse(e.time) + e.durationMs]));
  return cachedReplies(runDir).flatMap(({ file, requestId }) => {
    const sent = sentAt.get(requestId);
    return sent === undefined ? [] : [statSync(file).mtimeMs - sent];
  });
}

/**
 * Whether every reply the scripted server has delivered so far is in the run's LLM cache (by its x-request-id). A kill
 * test checks this and kills in the same synchronous step: the in-process scripted server cannot deliver another reply
 * in between, so no reply is lost in the moment between its arrival and its cache entry (issue 33 §8's window, which
 * the chaos test measures; a test about something else must not depend on where its kill lands in it).
 */
export function everyReplyCached(runDir: string, log: readonly { seq: number; answered?: boolean }[]): boolean {
  const cached = new Set(cachedReplies(runDir).map((r) => r.requestId));
  return log.every((e) => !e.answered || cached.has(`req_scripted_${e.seq}`));
}

/** Each cache entry of the run that carries a reply's x-request-id, with its file. */
function cachedReplies(runDir: string): { file: string; requestId: string }[] {
  return cacheDirsUnder(runDir).flatMap((cacheDir) =>
    readdirSync(cacheDir).flatMap((shard) =>
      readdirSync(path.join(cacheDir, shard))
        .filter((n) => n.endsWith('.json'))
        .flatMap((name) => {
          const file = path.join(cacheDir, shard, name);
          const entry = JSON.parse(readFileSync(file, 'utf8')) as { response?: { requestId?: string } };
          return entry.response?.requestId ? [{ file, requestId: entry.response.requestId }] : [];
        }),
    ),
  );
}

/** The run's `llm-cache/` folders: its own, and its tasks' where an adapter gives each task a run of its own (v2). */
function cacheDirsUnder(dir: string, depth = 3): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) =>
      e.name === 'llm-cache'
        ? [path.join(dir, e.name)]
        : depth > 0
          ? cacheDirsUnder(path.join(dir, e.name), depth - 1)
          : [],
    );
}
