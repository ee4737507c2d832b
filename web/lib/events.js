// Follows a conversation's event stream (SSE). The page, not the browser, decides when to reconnect: on any error the
// stream is closed and reopened with ?after=<last seq> on the page's own schedule (RETRY_FIRST_MS, doubling up to
// RETRY_MAX_MS, back to the first once a stream opens). Left to itself, Chromium keeps a cut stream in CONNECTING and
// retries every 3 s (its fixed default; measured on Chromium 156: it does not grow, and readyState never becomes CLOSED
// while the server refuses connections), so a server that came back within a few milliseconds was picked up only 3 s
// later, from the URL the stream was first opened with.
/** @import { ConversationEvent, ConversationEventType } from '../../analysis/conversation/events' */

/**
 * An event of the log with its data typed by its type (the server's `ConversationEvent<T>`, one member per type, so a
 * `switch` on `type` narrows `data`).
 * @typedef {{ [T in ConversationEventType]: ConversationEvent<T> }[ConversationEventType]} LogEvent
 */

/**
 * The event types the server sends (analysis/conversation/events.ts `EVENT_TYPES`; the type checks each name, and that
 * none is missing).
 * @type {{ [T in ConversationEventType]: T }}
 */
const TYPE_NAMES = {
  turn_started: 'turn_started',
  step: 'step',
  code: 'code',
  tool_call: 'tool_call',
  tool_result: 'tool_result',
  visualization: 'visualization',
  file: 'file',
  answer: 'answer',
  grounding: 'grounding',
  usage: 'usage',
  error: 'error',
  turn_ended: 'turn_ended',
};
const TYPES = Object.values(TYPE_NAMES);
/** The first reconnect's delay after a stream failed (the server may be back already: a restart, a cut connection). */
const RETRY_FIRST_MS = 250;
/** The longest delay between two reconnects while the server stays away: once it is back, the page follows within it. */
const RETRY_MAX_MS = 2000;

/**
 * Calls onEvent(ev) in order and onStatus('live'|'reconnecting'); returns a function that stops following.
 * @param {string} url
 * @param {number} afterSeq
 * @param {(ev: LogEvent) => void} onEvent
 * @param {(status: 'live' | 'reconnecting') => void} onStatus
 */
export function followEvents(url, afterSeq, onEvent, onStatus) {
  let last = afterSeq;
  /** @type {EventSource | undefined} */
  let source;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry;
  let stopped = false;
  let delay = RETRY_FIRST_MS;
  const open = () => {
    const opened = new EventSource(`${url}?after=${last}`);
    source = opened;
    opened.onopen = () => {
      delay = RETRY_FIRST_MS;
      onStatus('live');
    };
    for (const type of TYPES) opened.addEventListener(type, (msg) => handle(msg));
    opened.onmessage = (msg) => handle(msg);
    opened.onerror = () => {
      // CONNECTING (the browser would retry on its own schedule) or CLOSED (refused): either way ours
      opened.close();
      if (stopped) return;
      onStatus('reconnecting');
      retry = setTimeout(open, delay);
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    };
  };
  /** @param {MessageEvent<string>} msg */
  const handle = (msg) => {
    /** @type {unknown} */
    let ev;
    try {
      ev = JSON.parse(msg.data);
    } catch {
      return;
    }
    if (!isEvent(ev) || ev.seq <= last) return;
    last = ev.seq;
    onEvent(ev);
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
  };
}

/**
 * An event of the log as the server writes it: numbered, of a type, with its data. The fields of its data are taken to be
 * the server's for that type (the stream serves the log's own objects, written through the same types); an unknown type
 * is let through (the reducer shows nothing for it).
 * @param {unknown} ev
 * @returns {ev is LogEvent}
 */
function isEvent(ev) {
  return (
    typeof ev === 'object' &&
    ev !== null &&
    'seq' in ev &&
    typeof ev.seq === 'number' &&
    'type' in ev &&
    typeof ev.type === 'string' &&
    'data' in ev &&
    typeof ev.data === 'object' &&
    ev.data !== null
  );
}
