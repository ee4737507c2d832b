import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { withFileMutex } from '../../lib/llm/fileMutex';
import type { ConversationEvent, NewEvent } from './events';
import type { ConversationLayout } from './layout';

/**
 * Appends events under a file lock (parallel activities of one conversation share the log), numbering them after the
 * last one. An event whose key is already in the log is skipped: a retried activity never duplicates what it wrote.
 */
export async function appendEvents(layout: ConversationLayout, events: NewEvent[]): Promise<ConversationEvent[]> {
  if (!events.length) return [];
  await mkdir(path.dirname(layout.events), { recursive: true });
  return withFileMutex(layout.eventsLock, async () => {
    const existing = await readEvents(layout);
    const keys = new Set(existing.map((e) => e.key));
    let seq = existing.at(-1)?.seq ?? 0;
    const at = new Date().toISOString();
    const added = events
      .filter((e) => !keys.has(e.key))
      .map(
        (e) =>
          ({
            seq: ++seq,
            at,
            ...(e.turnId ? { turnId: e.turnId } : {}),
            type: e.type,
            data: e.data,
            key: e.key,
          }) as ConversationEvent,
      );
    if (added.length) await appendFile(layout.events, added.map((e) => `${JSON.stringify(e)}\n`).join(''));
    return added;
  });
}

/** Events with seq > `after`; a torn last line (writer killed mid-write) is ignored. */
export async function readEvents(layout: ConversationLayout, after = 0): Promise<ConversationEvent[]> {
  const text = await readFile(layout.events, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  const events: ConversationEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const event = JSON.parse(line) as ConversationEvent;
      if (event.seq > after) events.push(event);
    } catch {
      /* torn line */
    }
  }
  return events;
}
