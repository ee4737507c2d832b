// What someone shared with me, read-only: the chat rebuilt from its events (live), its files and downloads, the debug
// tab when the share includes it, and a fork into my own conversations. No message box: the original cannot change.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, shared } from '../lib/api.js';
import { followEvents } from '../lib/events.js';
import { applyEvent, batched, emptyTurns } from '../lib/turns.js';
import { ConversationHeader } from './ConversationHeader.js';
import { Debug } from './Debug.js';
import { ExportMenu } from './ShareMenu.js';
import { Turn } from './Turn.js';
/** @import { ConversationInfo } from '../../analysis/conversation/view' */
/** @import { SharedConversationReply } from '../../server/routes/shared' */
/** @import { HeaderView } from './Debug.js' */

/**
 * The header of a shared conversation: who shared it, read-only, downloads and the fork.
 * @param {object} props
 * @param {string} props.token
 * @param {SharedConversationReply | undefined} props.data
 * @param {HeaderView | undefined} props.view
 * @param {'chat' | 'debug'} props.tab
 * @param {(id: string) => void} props.onForked
 */
function SharedHeader({ token, data, view, tab, onForked }) {
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  const base = shared(token);
  const fork = () =>
    /** @type {Promise<ConversationInfo>} */ (api('POST', `${base}/fork`)).then(
      (info) => onForked(info.id),
      (err) => setError(errorText(err)),
    );
  const by = data
    ? ` · shared by ${data.share.owner ?? 'an admin'}${data.share.turnId ? ` · turn ${data.share.turnId}` : ''}`
    : '';
  const actions = html`<span class="badge read-only">read-only${by}</span>
    <${ExportMenu} base=${base} />
    <button class="primary" onClick=${fork}>Fork into my conversations</button>
    ${error ? html`<span class="error" role="alert">${error}</span>` : null}`;
  return html`<${ConversationHeader} id=${token} view=${view} tab=${tab} route=${`#/s/${token}`} debugTab=${Boolean(data?.share.debug)} actions=${actions} />`;
}

/**
 * @param {object} props
 * @param {string} props.token
 * @param {'chat' | 'debug'} props.tab
 * @param {(id: string) => void} props.onForked
 */
export function SharedChat({ token, tab, onForked }) {
  const [data, setData] = useState(/** @type {SharedConversationReply | undefined} */ (undefined));
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  const [state, setState] = useState(emptyTurns);
  const base = shared(token);
  useEffect(() => {
    setState(emptyTurns());
    /** @type {Promise<SharedConversationReply>} */ (api('GET', base)).then(setData, (err) => setError(errorText(err)));
    if (tab === 'debug') return undefined;
    const [push, cancelBatch] = batched((events) => setState((s) => events.reduce(applyEvent, s)));
    const stop = followEvents(`${base}/events`, 0, push, () => undefined);
    return () => (cancelBatch(), stop());
  }, [token, tab]);
  if (error)
    return html`<section class="chat empty shared"><p class="error" role="alert">${error}</p><p><a href="#/">Back to my conversations</a></p></section>`;
  const header = (/** @type {HeaderView | undefined} */ view) =>
    html`<${SharedHeader} token=${token} data=${data} view=${view ?? data?.conversation} tab=${tab} onForked=${onForked} />`;
  if (tab === 'debug') return html`<${Debug} id=${token} base=${base} header=${header} />`;
  return html`<section class="chat shared" aria-label="Shared conversation">
    ${header(data?.conversation)}
    <div class="turns" aria-live="polite">
      ${state.turns.map((t) => html`<${Turn} key=${t.turnId} conversationId=${base} turn=${t} canShare=${false} />`)}
    </div>
  </section>`;
}
