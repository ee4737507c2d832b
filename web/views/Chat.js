// A conversation: its turns rebuilt from the event log (replayed from the start, then live), the message box,
// and a drop zone for files. Survives reloads and server restarts: the stream resumes from the last event seen.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, conv } from '../lib/api.js';
import { followEvents } from '../lib/events.js';
import { applyEvent, batched, emptyTurns, runningTurn } from '../lib/turns.js';
import { Composer } from './Composer.js';
import { ConversationHeader } from './ConversationHeader.js';
import { ExportMenu, SharePanel } from './ShareMenu.js';
import { Turn } from './Turn.js';

export function Chat({ id, patterns, onChanged, user }) {
  const [view, setView] = useState(undefined);
  const [loadError, setLoadError] = useState(undefined);
  const [state, setState] = useState(emptyTurns);
  const [stream, setStream] = useState('connecting');
  const [dropped, setDropped] = useState(undefined);
  const [dragging, setDragging] = useState(false);
  const bottom = useRef(null);

  const refresh = () =>
    api('GET', conv(id)).then(
      (v) => (setView(v), setLoadError(undefined)),
      (err) => setLoadError(err),
    );
  useEffect(() => {
    setView(undefined);
    setLoadError(undefined);
    setState(emptyTurns());
    refresh();
    let timer;
    const [applySoon, cancelBatch] = batched((events) => setState((s) => events.reduce(applyEvent, s)));
    const stop = followEvents(
      `${conv(id)}/events`,
      0,
      (ev) => {
        applySoon(ev);
        // totals and the list change when a turn starts or ends; one refresh for a burst of replayed events
        if (ev.type === 'turn_ended' || ev.type === 'turn_started') {
          clearTimeout(timer);
          timer = setTimeout(() => refresh().then(onChanged), 300);
        }
      },
      setStream,
    );
    return () => (clearTimeout(timer), cancelBatch(), stop());
  }, [id]);
  useEffect(() => bottom.current?.scrollIntoView({ block: 'end' }), [state.lastSeq]);

  if (loadError?.status === 404)
    return html`<section class="chat empty"><p class="error" role="alert">${loadError.message}</p><p><a href="#/">Back to the conversations</a></p></section>`;
  const running = Boolean(runningTurn(state)) || view?.status === 'running';
  // Its owner shares it (an admin may share any); a conversation from before owners has none: admins only.
  const canShare = Boolean(view && user && (user.role === 'admin' || view.owner === user.name));
  const actions = html`<${ExportMenu} base=${id} />${canShare ? html`<${SharePanel} id=${id} />` : null}`;
  const onDrop = (e) => {
    e.preventDefault();
    setDragging(false);
    setDropped({ files: e.dataTransfer.files });
  };
  return html`<section class=${`chat${dragging ? ' dragging' : ''}`} aria-label="Conversation"
      onDragOver=${(e) => (e.preventDefault(), setDragging(true))} onDragLeave=${() => setDragging(false)} onDrop=${onDrop}>
    <${ConversationHeader} id=${id} view=${view} tab="chat" actions=${actions} />
    ${
      stream === 'reconnecting' || (loadError && loadError.status !== 404)
        ? html`<p class="banner" role="status">${bannerText(stream, loadError)}</p>`
        : null
    }
    <div class="turns" aria-live="polite">
      ${state.turns.length === 0 && view ? html`<p class="muted hint">Attach a CSV or Excel file and ask a question about it. Drop files anywhere here.</p>` : null}
      ${state.turns.map((t) => html`<${Turn} key=${t.turnId} conversationId=${id} turn=${t} canShare=${canShare} />`)}
      <div ref=${bottom}></div>
    </div>
    <${Composer} key=${id} conversationId=${id} patterns=${patterns} running=${running} dropped=${dropped} />
  </section>`;
}

/** What the banner says while the server is away: the cause when a request failed, and that the page keeps trying. */
function bannerText(stream, loadError) {
  const retrying = 'reconnecting; nothing is lost.';
  if (!loadError) return `Connection to the server lost — ${retrying}`;
  return stream === 'reconnecting' ? `${loadError.message} — ${retrying}` : loadError.message;
}
