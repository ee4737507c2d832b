// Title, totals and the chat/debug tabs of a conversation, with its workflow in the Temporal Web UI.
import { html } from 'htm/preact';

export function ConversationHeader({ id, view, tab }) {
  return html`<header class="conv-head">
    <h2>${view?.title || 'Conversation'}</h2>
    <div class="tabs" role="tablist" aria-label="View">
      <a role="tab" aria-selected=${tab === 'chat'} class=${tab === 'chat' ? 'tab active' : 'tab'} href="#/c/${id}">Chat</a>
      <a role="tab" aria-selected=${tab === 'debug'} class=${tab === 'debug' ? 'tab active' : 'tab'} href="#/c/${id}/debug">Debug</a>
    </div>
    ${view
      ? html`<p class="totals muted">${view.turns} turns · ${view.inputTokens + view.outputTokens} tokens · $${view.costUsd.toFixed(4)}
          ${view.temporalUiUrl ? html` · <a href=${view.temporalUiUrl} target="_blank" rel="noopener">workflow in Temporal UI</a>` : null}</p>`
      : null}
  </header>`;
}
