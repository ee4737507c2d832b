import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseJsonLines, readTextIfPresent, warnCorruptFile } from '../../lib/json';
import { withFileMutex } from '../../lib/llm/fileMutex';
import { EVENT_TYPES, type ConversationEvent, type NewEvent } from './events';
import type { ConversationLayout } from './layout';

/**
 * Appends events under a file lock (parallel activities of one conversation share the log), numbering them after the
 * last one. An event whose key is already in the log is skipped: a retried activity never duplicates what it wrote.
 */
export async function appendEvents(layout: ConversationLayout, events: NewEvent[]): Promise<ConversationEvent[]> {
  if (!events.length) return [];
  await mkdir(path.dirname(layout.events), { recursive: true });
  return withFileMutex(layout.eventsLock, async () => {
    const text = (await readTextIfPresent(layout.events)) ?? '';
    const existing = eventsIn(text, layout.events);
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
    // After a torn last line (a writer killed mid-write) the new events start on a line of their own.
    const start = text && !text.endsWith('\n') ? '\n' : '';
    if (added.length) await appendFile(layout.events, start + added.map((e) => `${JSON.stringify(e)}\n`).join(''));
    return added;
  });
}

/**
 * One line of events.jsonl as checked on reading: the envelope every event has, its type one of EVENT_TYPES (the
 * list has only grown, so older logs match). `data` is checked to be an object; what each type carries in it is the
 * writer's (appendEvents, typed by NewEvent) and the pages read it field by field.
 */
const eventLineSchema = z.looseObject({
  seq: z.number().int().positive(),
  at: z.string(),
  turnId: z.string().optional(),
  type: z.enum(EVENT_TYPES),
  data: z.custom<ConversationEvent['data']>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
  key: z.string().optional(),
}) satisfies z.ZodType<ConversationEvent>;

/**
 * Events with seq > `after`. A last line without its newline is a write under way (or cut off by a killed writer) and
 * is not read; a complete line that is not an event is reported on stderr with its line number and left out, so one
 * bad line does not make the whole conversation unreadable.
 */
export async function readEvents(layout: ConversationLayout, after = 0): Promise<ConversationEvent[]> {
  return eventsIn((await readTextIfPresent(layout.events)) ?? '', layout.events).filter((e) => e.seq > after);
}

function eventsIn(text: string, file: string): ConversationEvent[] {
  const { values, corrupt } = parseJsonLines(text, eventLineSchema, file);
  for (const err of corrupt) warnCorruptFile(err, 'this event is left out of the conversation');
  return values;
}
