// The list of conversations: open, new, rename, delete. Errors show above the list.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, conv, errorText } from '../lib/api.js';
/** @import { ConversationInfo } from '../../analysis/conversation/view' */
/** @import { SharedListReply } from '../../server/routes/shared' */
/** @import { PublicUser } from '../../server/auth/sessionRoutes' */
/** @import { TargetedEvent } from 'preact' */

/**
 * @param {object} props
 * @param {ConversationInfo[]} props.conversations
 * @param {SharedListReply['shared']} [props.shared]
 * @param {string} [props.currentId]
 * @param {string} [props.listError]
 * @param {() => Promise<unknown>} props.onChanged
 * @param {PublicUser} [props.user]
 * @param {boolean} [props.authRequired]
 * @param {() => void} [props.onSignOut]
 */
export function Sidebar({
  conversations,
  shared = [],
  currentId,
  listError,
  onChanged,
  user,
  authRequired,
  onSignOut,
}) {
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  const [renaming, setRenaming] = useState(/** @type {string | undefined} */ (undefined));
  const act = async (/** @type {() => Promise<void>} */ fn) => {
    try {
      setError(undefined);
      await fn();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const create = () =>
    act(async () => {
      const info = /** @type {ConversationInfo} */ (await api('POST', '/api/conversations', {}));
      await onChanged();
      // What was being typed on the first screen meanwhile goes along to the new conversation's message box.
      const draft = sessionStorage.getItem('draft:new');
      if (draft) {
        sessionStorage.setItem(`draft:${info.id}`, draft);
        sessionStorage.removeItem('draft:new');
      }
      location.hash = `#/c/${info.id}`;
    });
  const rename = (/** @type {string} */ id, /** @type {string} */ title) =>
    act(async () => {
      await api('PATCH', conv(id), { title });
      setRenaming(undefined);
      await onChanged();
    });
  const remove = (/** @type {ConversationInfo} */ c) =>
    act(async () => {
      if (!confirm(`Delete “${c.title}”? Its workflow is cancelled.`)) return;
      await api('DELETE', conv(c.id));
      if (c.id === currentId) location.hash = '#/';
      await onChanged();
    });
  return html`<nav class="sidebar" aria-label="Conversations">
    <div class="sidebar-head">
      <button class="primary" onClick=${create}>+ New conversation</button>
      <a class="runs-link" href="#/runs">Benchmark runs</a>
    </div>
    ${
      user
        ? html`<p class="signed-in">
          <span class="user-name" title=${`signed in as ${user.name} (${user.role})`}>${user.name}</span> <span class="muted">${user.role}</span>
          ${authRequired ? html` <button class="link" onClick=${onSignOut}>Sign out</button>` : html` <span class="muted">(sign-in off)</span>`}
        </p>`
        : null
    }
    ${error || listError ? html`<p class="error" role="alert">${error ?? listError}</p>` : null}
    <ul class="conv-list">
      ${conversations.map((c) =>
        renaming === c.id
          ? html`<li><form class="rename" onSubmit=${(/** @type {TargetedEvent<HTMLFormElement>} */ e) => (e.preventDefault(), rename(c.id, titleOf(e.currentTarget)))}>
              <label class="sr-only" for="rename-${c.id}">New title</label>
              <input id="rename-${c.id}" name="title" value=${c.title} autofocus onKeyDown=${(/** @type {KeyboardEvent} */ e) => e.key === 'Escape' && setRenaming(undefined)} />
              <button type="submit">Save</button></form></li>`
          : html`<li class=${c.id === currentId ? 'current' : ''}>
              <a href="#/c/${c.id}" aria-current=${c.id === currentId ? 'page' : undefined}>
                <span class="conv-title">${c.title || 'Untitled'}</span>
                <span class="conv-meta">${c.status === 'running' ? '● running' : `${c.turns} turn${c.turns === 1 ? '' : 's'}`}</span>
              </a>
              <span class="conv-actions">
                <button class="icon" aria-label="Rename ${c.title}" title="Rename" onClick=${() => setRenaming(c.id)}>✎</button>
                <button class="icon" aria-label="Delete ${c.title}" title="Delete" onClick=${() => remove(c)}>✕</button>
              </span>
            </li>`,
      )}
    </ul>
    ${
      shared.length
        ? html`<h3 class="shared-head">Shared with me</h3>
          <ul class="conv-list shared-list" aria-label="Shared with me">
            ${shared.map((s) => html`<li><a href=${`#/s/${s.token}`}><span class="conv-title">${s.title}</span><span class="conv-meta">from ${s.owner ?? '?'}${s.turnId ? ` · turn ${s.turnId}` : ''} · read-only</span></a></li>`)}
          </ul>`
        : null
    }
  </nav>`;
}

/**
 * The rename form's new title: its input named "title" (which `form.title` is too in a browser, where a form's named
 * inputs hide its own properties, but which the DOM's types know as the form's title attribute).
 * @param {HTMLFormElement} form
 */
function titleOf(form) {
  const input = form.elements.namedItem('title');
  if (!(input instanceof HTMLInputElement)) throw new Error('the rename form has no title input');
  return input.value;
}
