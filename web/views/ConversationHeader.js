// Title, totals and the chat/debug tabs of a conversation, with its workflow in the Temporal Web UI; `actions` (the
// download and share menus) beside the tabs. A share's header passes its own `route` (#/s/<token>) and hides Debug.
import { html } from 'htm/preact';
/** @import { ConversationView } from '../../analysis/conversation/view' */
/** @import { ComponentChildren } from 'preact' */

/**
 * @param {object} props
 * @param {string} props.id
 * @param {Pick<ConversationView, 'title' | 'turns' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'temporalUiUrl'>} [props.view]
 * @param {'chat' | 'debug'} props.tab
 * @param {ComponentChildren} [props.actions]
 * @param {string} [props.route]
 * @param {boolean} [props.debugTab]
 */
export function ConversationHeader({ id, view, tab, actions, route = `#/c/${id}`, debugTab = true }) {
  return html`<header class="conv-head">
    <h2>${view?.title || 'Conversation'}</h2>
    <div class="tabs" role="tablist" aria-label="View">
      <a role="tab" aria-selected=${tab === 'chat'} class=${tab === 'chat' ? 'tab active' : 'tab'} href=${route}>Chat</a>
      ${debugTab ? html`<a role="tab" aria-selected=${tab === 'debug'} class=${tab === 'debug' ? 'tab active' : 'tab'} href=${`${route}/debug`}>Debug</a>` : null}
    </div>
    ${actions ? html`<div class="head-actions">${actions}</div>` : null}
    ${
      view
        ? html`<p class="totals muted">${view.turns} turns · ${view.inputTokens + view.outputTokens} tokens · $${view.costUsd.toFixed(4)}
          ${view.temporalUiUrl ? html` · <a href=${view.temporalUiUrl} target="_blank" rel="noopener">workflow in Temporal UI</a>` : null}</p>`
        : null
    }
  </header>`;
}
