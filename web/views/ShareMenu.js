// Taking work out of the chat: the download menu (notebook, script, inputs) of a conversation or a turn, and the
// owner's sharing (read-only links for a user or anyone signed in, revocable). Menus are <details>: no script to open.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, conv, downloadExport, errorText } from '../lib/api.js';
/** @import { ExportFormat } from '../../analysis/export' */
/** @import { ShareView } from '../../server/sharing/access' */
/** @import { ShareListReply, ShareReply } from '../../server/routes/shares' */
/** @import { TargetedEvent } from 'preact' */

const baseOf = (/** @type {string} */ idOrBase) => (idOrBase.startsWith('/api/') ? idOrBase : conv(idOrBase));
/** The share's link in full, or undefined when it has none (revoked, expired). */
const linkOf = (/** @type {ShareView} */ share) => (share.url ? new URL(share.url, location.href).href : undefined);

/**
 * Download ▾: .ipynb, .py and (for a whole conversation) the inputs' zip; a refusal shows its reason.
 * @param {object} props
 * @param {string} props.base a conversation id, or a share's API base
 * @param {string} [props.turnId]
 * @param {string} [props.label]
 */
export function ExportMenu({ base, turnId, label = 'Download' }) {
  const [message, setMessage] = useState(/** @type {{ ok: boolean; text: string } | undefined} */ (undefined));
  const get = (/** @type {ExportFormat} */ format) =>
    downloadExport(baseOf(base), format, turnId).then(
      (name) => setMessage({ ok: true, text: `downloaded ${name}` }),
      (err) => setMessage({ ok: false, text: errorText(err) }),
    );
  return html`<details class="menu export-menu">
    <summary>${label}</summary>
    <div class="menu-body">
      <button onClick=${() => get('ipynb')}>Notebook (.ipynb)</button>
      <button onClick=${() => get('py')}>Python script (.py)</button>
      ${turnId ? null : html`<button onClick=${() => get('inputs')}>Inputs (.zip)</button>`}
      ${message ? html`<p class=${message.ok ? 'muted' : 'error'} role=${message.ok ? 'status' : 'alert'}>${message.text}</p>` : null}
    </div>
  </details>`;
}

/**
 * Under an ended turn: download it, and (its owner) make a read-only link to it.
 * @param {object} props
 * @param {string} props.conversationId
 * @param {string | undefined} props.turnId
 * @param {boolean} props.canShare
 */
export function TurnActions({ conversationId, turnId, canShare }) {
  const [link, setLink] = useState(/** @type {string | undefined} */ (undefined));
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  const share = () =>
    /** @type {Promise<ShareReply>} */ (api('POST', `${conv(conversationId)}/shares`, { turn: turnId })).then(
      (d) => (setLink(linkOf(d.share)), setError(undefined)),
      (err) => setError(errorText(err)),
    );
  return html`<div class="turn-actions">
    <${ExportMenu} base=${conversationId} turnId=${turnId} label="Download turn" />
    ${canShare ? html`<button class="link" onClick=${share}>Share this turn</button>` : null}
    ${link ? html`<${CopyLink} url=${link} />` : null}
    ${error ? html`<span class="error" role="alert">${error}</span>` : null}
  </div>`;
}

/** @param {{ url: string }} props */
function CopyLink({ url }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard?.writeText(url).then(
      () => setCopied(true),
      () => undefined,
    );
  return html`<span class="share-link"><input readonly value=${url} aria-label="Share link" onFocus=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => e.currentTarget.select()} />
    <button onClick=${copy}>${copied ? 'copied' : 'copy'}</button></span>`;
}

/**
 * The owner's Share ▾: with a user, or a link that expires; the grants so far, with their links and a revoke.
 * @param {{ id: string }} props
 */
export function SharePanel({ id }) {
  const [shares, setShares] = useState(/** @type {ShareView[] | undefined} */ (undefined));
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  const load = () =>
    /** @type {Promise<ShareListReply>} */ (api('GET', `${conv(id)}/shares`)).then(
      (d) => setShares(d.shares),
      (err) => setError(errorText(err)),
    );
  const act = (/** @type {() => Promise<unknown>} */ fn) => fn().then(load, (err) => setError(errorText(err)));
  const submit = (/** @type {TargetedEvent<HTMLFormElement>} */ e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const user = field(form, 'user');
    const body = {
      debug: field(form, 'debug').checked,
      ...(user.value.trim() ? { user: user.value.trim() } : { expiresInHours: Number(field(form, 'hours').value) }),
    };
    void act(() => api('POST', `${conv(id)}/shares`, body).then(() => ((user.value = ''), setError(undefined))));
  };
  return html`<details class="menu share-menu" onToggle=${(/** @type {TargetedEvent<HTMLDetailsElement>} */ e) => e.currentTarget.open && load()}>
    <summary>Share</summary>
    <div class="menu-body">
      <form class="share-form" onSubmit=${submit}>
        <label>With user <input name="user" placeholder="name (empty: a link)" /></label>
        <label>Link expires in <input name="hours" type="number" min="1" max="720" value="168" /> hours</label>
        <label><input name="debug" type="checkbox" /> include the debug view</label>
        <button type="submit" class="primary">Share read-only</button>
      </form>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <ul class="share-list">
        ${(shares ?? []).map(
          (s) => html`<li data-share-id=${s.id} class=${`share-${s.status}`}>
            <span>${'user' in s.to ? `user ${s.to.user}` : 'link'}${s.turnId ? ` · turn ${s.turnId}` : ''}${s.debug ? ' · debug' : ''} · ${s.status}${s.expires ? ` until ${s.expires.slice(0, 16).replace('T', ' ')}` : ''}</span>
            ${s.url ? html`<${CopyLink} url=${linkOf(s) ?? ''} /> <button class="danger" onClick=${() => act(() => api('DELETE', `${conv(id)}/shares/${encodeURIComponent(s.id)}`))}>Revoke</button>` : null}
          </li>`,
        )}
      </ul>
    </div>
  </details>`;
}

/**
 * The form's input named `name` (the form below has each).
 * @param {HTMLFormElement} form
 * @param {'user' | 'hours' | 'debug'} name
 */
function field(form, name) {
  const input = form.elements.namedItem(name);
  if (!(input instanceof HTMLInputElement)) throw new Error(`the share form has no input ${name}`);
  return input;
}
