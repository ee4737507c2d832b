/**
 * The real server's event stream (server/routes/replies.ts `streamEvents`, behind /api/conversations/:id/events and
 * /api/shared/:token/events) resumes where the page asks: the web app reopens a failed stream itself with
 * `?after=<last seq>` (web/lib/events.js), a browser's own retry sends `Last-Event-ID`.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '../../analysis/conversation/events';
import { streamEvents } from '../../server/routes/replies';

/** A log of `n` step events numbered 1..n, with the idempotency key the stream must not send. */
function eventLog(n: number): ConversationEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    at: new Date(0).toISOString(),
    turnId: 't1',
    type: 'step',
    data: { stepId: `s${i + 1}`, kind: 'think', text: `step ${i + 1}` },
    key: `k${i + 1}`,
  }));
}

/** The stream route over `log` (read at each poll, so events appended later are followed). */
function app(log: ConversationEvent[]): Hono {
  const server = new Hono();
  server.get('/events', (c) =>
    streamEvents(c, (after) => Promise.resolve(log.filter((e) => e.seq > after)), { pollMs: 10 }),
  );
  return server;
}

/** Reads the stream until it has sent `lastSeq`, then cuts it; the ids and parsed data of what it sent. */
async function readUntil(res: Response, lastSeq: number): Promise<{ ids: number[]; data: ConversationEvent[] }> {
  const reader = res.body!.getReader();
  let text = '';
  while (!new RegExp(`^id: ${lastSeq}$`, 'm').test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before event ${lastSeq}; it sent:\n${text}`);
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  const data = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]) as ConversationEvent);
  return { ids, data };
}

describe('the conversation event stream (SSE) resumes where it is asked to', () => {
  it('?after=<seq> (the page reopening a failed stream): the events after it, in order, without their keys', async () => {
    const res = await app(eventLog(5)).request('/events?after=2');
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const { ids, data } = await readUntil(res, 5);
    expect(ids).toEqual([3, 4, 5]);
    expect(data.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(data.every((e) => !('key' in e))).toBe(true);
  });

  it('Last-Event-ID (a browser retrying by itself) wins over ?after=, which names where the stream first began', async () => {
    const { ids } = await readUntil(
      await app(eventLog(5)).request('/events?after=0', { headers: { 'Last-Event-ID': '3' } }),
      5,
    );
    expect(ids).toEqual([4, 5]);
  });

  it('follows the log: an event appended after the stream opened is sent', async () => {
    const log = eventLog(2);
    const res = await app(log).request('/events?after=2');
    setTimeout(() => log.push(...eventLog(3).slice(2)), 30);
    expect((await readUntil(res, 3)).ids).toEqual([3]);
  });
});
