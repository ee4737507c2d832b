// Follows a conversation's event stream (SSE). EventSource resends Last-Event-ID on its own reconnects; when the
// server refuses the stream (it went away and came back, or a proxy cut it) we reopen with ?after=<last seq>.

const TYPES = [
  'turn_started',
  'step',
  'code',
  'tool_call',
  'tool_result',
  'visualization',
  'file',
  'answer',
  'grounding',
  'usage',
  'error',
  'turn_ended',
];

/** Calls onEvent(ev) in order and onStatus('live'|'reconnecting'); returns a function that stops following. */
export function followEvents(url, afterSeq, onEvent, onStatus) {
  let last = afterSeq;
  let source;
  let retry;
  let stopped = false;
  let delay = 500;
  const open = () => {
    source = new EventSource(`${url}?after=${last}`);
    source.onopen = () => {
      delay = 500;
      onStatus('live');
    };
    for (const type of TYPES) source.addEventListener(type, (msg) => handle(msg));
    source.onmessage = (msg) => handle(msg);
    source.onerror = () => {
      onStatus('reconnecting');
      if (source.readyState === EventSource.CLOSED && !stopped) {
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, 5000);
      }
    };
  };
  const handle = (msg) => {
    let ev;
    try {
      ev = JSON.parse(msg.data);
    } catch {
      return;
    }
    if (typeof ev.seq !== 'number' || ev.seq <= last) return;
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
