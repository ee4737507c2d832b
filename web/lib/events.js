// Follows a conversation's event stream (SSE). EventSource resends Last-Event-ID on its own reconnects; when the
// server refuses the stream (it went away and came back, or a proxy cut it) we reopen with ?after=<last seq>.
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
  let delay = 500;
  const open = () => {
    const opened = new EventSource(`${url}?after=${last}`);
    source = opened;
    opened.onopen = () => {
      delay = 500;
      onStatus('live');
    };
    for (const type of TYPES) opened.addEventListener(type, (msg) => handle(msg));
    opened.onmessage = (msg) => handle(msg);
    opened.onerror = () => {
      onStatus('reconnecting');
      if (opened.readyState === EventSource.CLOSED && !stopped) {
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, 5000);
      }
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
