// A conversation: its turns rebuilt from the event log (replayed from the start, then live), the message box,
// and a drop zone for files. Survives reloads and server restarts: the stream resumes from the last event seen.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, conv } from '../lib/api.js';
import { followEvents } from '../lib/events.js';
import { applyEvent, batched, emptyTurns, runningTurn } from '../lib/turns.js';
import { Composer } from './Composer.js';
import { ConversationHeader } from './ConversationHeader.js';
import { ExportMenu, SharePanel } from './ShareMenu.js';
import { Turn } from './Turn.js';
/** @import { ConversationView } from '../../analysis/conversation/view' */
/** @import { PatternsReply } from '../../server/routes/conversations' */
/** @import { PublicUser } from '../../server/auth/sessionRoutes' */
/** @import { Dropped } from './Composer.js' */

/** @typedef {'connecting' | 'live' | 'reconnecting'} StreamState */

/**
 * @param {object} props
 * @param {string} props.id
 * @param {PatternsReply['patterns']} props.patterns
 * @param {() => unknown} props.onChanged
 * @param {PublicUser} props.user
 */
export function Chat({ id, patterns, onChanged, user }) {
  const [view, setView] = useState(/** @type {ConversationView | undefined} */ (undefined));
  const [loadError, setLoadError] = useState(/** @type {Error | undefined} */ (undefined));
  const [state, setState] = useState(emptyTurns);
  const [stream, setStream] = useState(/** @type {StreamState} */ ('connecting'));
  const [dropped, setDropped] = useState(/** @type {Dropped | undefined} */ (undefined));
  const [dragging, setDragging] = useState(false);
  const bottom = useRef(/** @type {HTMLDivElement | null} */ (null));

  const refresh = () =>
    /** @type {Promise<ConversationView>} */ (api('GET', conv(id))).then(
      (v) => (setView(v), setLoadError(undefined)),
      (err) => setLoadError(err instanceof Error ? err : new Error(String(err))),
    );
  useEffect(() => {
    setView(undefined);
    setLoadError(undefined);
    setState(emptyTurns());
    void refresh();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
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
          timer = setTimeout(() => void refresh().then(onChanged), 300);
        }
      },
      setStream,
    );
    return () => (clearTimeout(timer), cancelBatch(), stop());
  }, [id]);
  useEffect(() => bottom.current?.scrollIntoView({ block: 'end' }), [state.lastSeq]);

  const notFound = loadError instanceof ApiError && loadError.status === 404;
  if (notFound)
    return html`<section class="chat empty"><p class="error" role="alert">${loadError.message}</p><p><a href="#/">Back to the conversations</a></p></section>`;
  const running = Boolean(runningTurn(state)) || view?.status === 'running';
  // Its owner shares it (an admin may share any); a conversation from before owners has none: admins only.
  const canShare = Boolean(view && user && (user.role === 'admin' || view.owner === user.name));
  const actions = html`<${ExportMenu} base=${id} />${canShare ? html`<${SharePanel} id=${id} />` : null}`;
  const onDrop = (/** @type {DragEvent} */ e) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer) setDropped({ files: e.dataTransfer.files });
  };
  return html`<section class=${`chat${dragging ? ' dragging' : ''}`} aria-label="Conversation"
      onDragOver=${(/** @type {DragEvent} */ e) => (e.preventDefault(), setDragging(true))} onDragLeave=${() => setDragging(false)} onDrop=${onDrop}>
    <${ConversationHeader} id=${id} view=${view} tab="chat" actions=${actions} />
    ${
      stream === 'reconnecting' || (loadError && !notFound)
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

/**
 * What the banner says while the server is away: the cause when a request failed, and that the page keeps trying.
 * @param {StreamState} stream
 * @param {Error | undefined} loadError
 */
function bannerText(stream, loadError) {
  const retrying = 'reconnecting; nothing is lost.';
  if (!loadError) return `Connection to the server lost — ${retrying}`;
  return stream === 'reconnecting' ? `${loadError.message} — ${retrying}` : loadError.message;
}
