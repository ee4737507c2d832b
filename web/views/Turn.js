// One turn as it streams in: the question, reasoning steps, code (collapsed, copyable), execution results,
// visualizations, files, the answer, then tokens and cost.
import { html, Component } from 'htm/preact';
import { useMemo, useState } from 'preact/hooks';
import { fileUrl } from '../lib/api.js';
import { groundingSummary, markGrounding } from '../lib/grounding.js';
import { codeHtml, markdownHtml } from '../lib/markdown.js';
import { TurnActions } from './ShareMenu.js';
import { Visualization } from '../viz/Visualization.js';
/** @import { Grounding } from '../../analysis/grounding/types' */
/** @import { Turn as TurnState, TurnItem, ToolItem } from '../lib/turns.js' */

/**
 * @typedef {object} TurnProps
 * @property {string} conversationId the conversation's id, or a share's API base (read-only)
 * @property {TurnState} turn
 * @property {boolean} canShare the owner's actions
 */

/**
 * Re-renders only when its turn changed (the event reducer keeps unchanged turns as the same objects).
 * @extends {Component<TurnProps>}
 */
export class Turn extends Component {
  /**
   * @override
   * @param {TurnProps} next
   */
  shouldComponentUpdate(next) {
    return (
      next.turn !== this.props.turn ||
      next.conversationId !== this.props.conversationId ||
      next.canShare !== this.props.canShare
    );
  }
  /**
   * @override
   * @param {TurnProps} props
   */
  render({ conversationId, turn, canShare }) {
    return html`<${TurnView} conversationId=${conversationId} turn=${turn} canShare=${canShare} />`;
  }
}

/** @param {TurnProps} props */
function TurnView({ conversationId, turn, canShare }) {
  const running = turn.status === 'running';
  return html`<article class="turn turn-${turn.status}" data-turn-id=${turn.turnId} aria-busy=${running}>
    <div class="msg user"><div class="who">You</div><div class="text">${turn.text}</div>
      ${turn.pattern ? html`<span class="badge" title="pattern">${turn.pattern}</span>` : null}</div>
    <div class="msg assistant">
      <div class="who">Agent</div>
      <ol class="work" aria-label="Steps">${turn.items.map((it, i) => html`<${Item} key=${i} item=${it} running=${running} />`)}</ol>
      ${running ? html`<p class="working" role="status"><span class="spinner" aria-hidden="true"></span> working…</p>` : null}
      ${turn.visualizations.length ? html`<div class="vizzes">${turn.visualizations.map((v) => html`<${Visualization} key=${v.id} conversationId=${conversationId} output=${v} />`)}</div>` : null}
      ${
        turn.files.length
          ? html`<ul class="files" aria-label="Files">${turn.files.map(
              (f) =>
                html`<li><a class="file-link" href=${fileUrl(conversationId, f.path)} download=${f.filename}>⬇ ${f.filename}</a> <span class="muted">${size(f.size)}</span></li>`,
            )}</ul>`
          : null
      }
      ${turn.answer ? html`<${Answer} text=${turn.answer} grounding=${turn.grounding} />` : null}
      <${TurnFooter} turn=${turn} />
      ${turn.status === 'completed' ? html`<${TurnActions} conversationId=${conversationId} turnId=${turn.turnId} canShare=${canShare} />` : null}
    </div>
  </article>`;
}

/**
 * The answer; its numbers marked by grounding (the model's text only: a note the system put before it is not checked).
 * @param {{ text: string; grounding: Grounding | undefined }} props
 */
function Answer({ text, grounding }) {
  const __html = useMemo(() => {
    const offset = grounding?.answerOffset ?? 0;
    return `${offset ? markdownHtml(text.slice(0, offset)) : ''}${markGrounding(markdownHtml(text.slice(offset)), grounding)}`;
  }, [text, grounding]);
  const summary = groundingSummary(grounding);
  return html`<div class="answer" dangerouslySetInnerHTML=${{ __html }}></div>
    ${summary ? html`<p class=${`grounding-summary muted${grounding && grounding.total > grounding.grounded ? ' has-ungrounded' : ''}`}>${summary}</p>` : null}`;
}

/** @param {{ turn: TurnState }} props */
function TurnFooter({ turn }) {
  const status = turn.status === 'running' ? null : turn.status;
  return html`<footer class="turn-foot">
    ${status ? html`<span class="status status-${turn.status}" role=${turn.status === 'failed' ? 'alert' : undefined}>${status}${turn.error ? `: ${turn.error}` : ''}</span>` : null}
    ${turn.usage ? html`<span class="usage">${turn.usage.inputTokens + turn.usage.outputTokens} tokens (${turn.usage.inputTokens} in, ${turn.usage.outputTokens} out) · $${turn.usage.costUsd.toFixed(4)}</span>` : null}
  </footer>`;
}

/** @param {{ item: TurnItem; running: boolean }} props */
function Item({ item, running }) {
  if (item.type === 'step')
    return html`<li class="step step-${item.kind}"><span class="kind">${item.kind}</span> ${item.text}</li>`;
  if (item.type === 'code')
    return html`<li class="code-item"><${CodeBlock} code=${item.code} language=${item.language} /></li>`;
  if (item.type === 'error')
    return html`<li class="error" role="alert"><span class="kind">${item.where} error</span> ${item.message}</li>`;
  return html`<li class="tool">${item.code ? html`<${CodeBlock} code=${item.code.code} language=${item.code.language} />` : null}<${ToolResult} item=${item} running=${running} /></li>`;
}

/**
 * @param {object} props
 * @param {string} props.code
 * @param {string} props.language
 * @param {boolean} [props.open]
 */
export function CodeBlock({ code, language, open = false }) {
  const [copied, setCopied] = useState(false);
  const highlighted = useMemo(() => codeHtml(code, language), [code, language]);
  const copy = async () => {
    await navigator.clipboard?.writeText(code).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return html`<details class="code" open=${open}>
    <summary>${language} code · ${code.split('\n').length} lines</summary>
    <button class="copy" onClick=${copy} aria-label="Copy code">${copied ? 'copied' : 'copy'}</button>
    <pre><code class="hljs language-${language}" dangerouslySetInnerHTML=${{ __html: highlighted }}></code></pre>
  </details>`;
}

/** @param {{ item: ToolItem; running: boolean }} props */
function ToolResult({ item, running }) {
  const r = item.result;
  const head = html`<span class="kind">${item.tool}</span>`;
  if (!r) return html`${head} <span class="muted">${running ? 'running…' : 'no result (the turn ended first)'}</span>`;
  const ok = r.ok !== false && !r.error && (r.returnCode === undefined || r.returnCode === 0);
  return html`<div class=${ok ? 'result ok' : 'result failed'}>
    ${head} <span class="muted">${ok ? 'ok' : 'failed'}${r.returnCode !== undefined ? ` (exit ${r.returnCode})` : ''} · ${r.durationMs ?? '?'} ms</span>
    ${r.stdout ? html`<pre class="stdout" aria-label="stdout">${r.stdout}</pre>` : null}
    ${r.stderr ? html`<pre class="stderr" aria-label="stderr">${r.stderr}</pre>` : null}
    ${r.error ? html`<p class="error">${r.error}</p>` : null}
    ${r.notice ? html`<p class=${r.stateReset ? 'notice reset' : 'notice restored'} role="status">${r.notice}</p>` : null}
  </div>`;
}

/** @param {number} n bytes */
function size(n) {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
}
