import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * For each reply in a run's LLM cache: its cache file's mtime less the time the reply left the scripted server
 * (ms). The entry carries the reply's x-request-id (`req_scripted_<seq>`), which names its log entry; the log entry's
 * start + duration is when it was sent (logged as the reply is written, so a fast cache write can read ~1 ms early).
 */
export function replyToCacheMs(runDir: string, log: { seq: number; time: string; durationMs: number }[]): number[] {
  const sentAt = new Map(log.map((e) => [`req_scripted_${e.seq}`, Date.parse(e.time) + e.durationMs]));
  const cacheDir = path.join(runDir, 'llm-cache');
  if (!existsSync(cacheDir)) return [];
  const out: number[] = [];
  for (const shard of readdirSync(cacheDir)) {
    for (const name of readdirSync(path.join(cacheDir, shard)).filter((n) => n.endsWith('.json'))) {
      const file = path.join(cacheDir, shard, name);
      const entry = JSON.parse(readFileSync(file, 'utf8')) as { response?: { requestId?: string } };
      const sent = entry.response?.requestId ? sentAt.get(entry.response.requestId) : undefined;
      if (sent !== undefined) out.push(statSync(file).mtimeMs - sent);
    }
  }
  return out;
}
