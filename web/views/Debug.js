// The debug view of a conversation: per step the full prompt and reply, code with a diff to the previous version,
// stdout/stderr, tool calls, tokens, cost, timings and the sandbox environment. Refreshes as events arrive.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, conv, errorText } from '../lib/api.js';
import { followEvents } from '../lib/events.js';
import { lineDiff } from '../lib/lineDiff.js';
import { ConversationHeader } from './ConversationHeader.js';
import { CodeBlock } from './Turn.js';
/** @import { DebugStep } from '../../analysis/conversation/debug' */
/** @import { Grounding } from '../../analysis/grounding/types' */
/** @import { ConversationView } from '../../analysis/conversation/view' */
/** @import { DebugReply } from '../../server/routes/conversations' */
/** @import { SharedConversationReply } from '../../server/routes/shared' */
/** @import { VNode } from 'preact' */

/**
 * The conversation a header shows: the owner's view, or a share's (without the Temporal UI link).
 * @typedef {SharedConversationReply['conversation']} HeaderView
 */

/**
 * `base`: the API path of the conversation, or of a share (which answers {share, conversation}); `header`: a share's own.
 * @param {object} props
 * @param {string} props.id
 * @param {string} [props.base]
 * @param {(view: HeaderView | undefined) => VNode} [props.header]
 */
export function Debug({ id, base = conv(id), header }) {
  const [view, setView] = useState(/** @type {HeaderView | undefined} */ (undefined));
  const [steps, setSteps] = useState(/** @type {DebugStep[] | undefined} */ (undefined));
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  useEffect(() => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    // Shows its reply or its error: nothing to await.
    const load = () =>
      void Promise.all([
        /** @type {Promise<ConversationView | SharedConversationReply>} */ (api('GET', base)),
        /** @type {Promise<DebugReply>} */ (api('GET', `${base}/debug`)),
      ]).then(
        ([v, d]) => (setView('conversation' in v ? v.conversation : v), setSteps(d.steps), setError(undefined)),
        (err) => setError(errorText(err)),
      );
    load();
    const live = followEvents(
      `${base}/events`,
      0,
      () => (clearTimeout(timer), (timer = setTimeout(load, 300))),
      () => undefined,
    );
    return () => (clearTimeout(timer), live());
  }, [base]);
  const codeBefore = previousCode(steps ?? []);
  return html`<section class="debug" aria-label="Debug view">
    ${header ? header(view) : html`<${ConversationHeader} id=${id} view=${view} tab="debug" />`}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${steps && !steps.length ? html`<p class="muted">No steps yet.</p>` : null}
    ${(steps ?? []).map((s) => html`<${Step} key=${s.stepId} step=${s} before=${codeBefore.get(s.stepId)} />`)}
  </section>`;
}

/**
 * stepId → the code of the previous step that had code (in the same turn), for the diff.
 * @param {DebugStep[]} steps
 */
function previousCode(steps) {
  /** @type {Map<string, string>} */
  const out = new Map();
  /** @type {Map<string, string>} */
  const last = new Map();
  for (const s of steps) {
    if (!s.code) continue;
    const before = last.get(s.turnId);
    if (before !== undefined) out.set(s.stepId, before);
    last.set(s.turnId, s.code);
  }
  return out;
}

/**
 * @param {object} props
 * @param {DebugStep} props.step
 * @param {string} [props.before] the code of the turn's previous step with code
 */
function Step({ step, before }) {
  /** @type {Partial<DebugStep['timing']>} records written before timings have none */
  const t = step.timing ?? {};
  return html`<article class="debug-step" data-step-id=${step.stepId}>
    <h3>Step ${step.index + 1} · ${step.kind}${step.model ? html` <span class="muted">· ${step.model}</span>` : null}</h3>
    <p class="muted">turn ${step.turnId} · ${step.inputTokens} in / ${step.outputTokens} out tokens · $${(step.costUsd ?? 0).toFixed(4)}</p>
    <dl class="timing" aria-label="Timing">
      ${/** @type {const} */ (['modelMs', 'executionMs', 'toolsMs', 'waitingMs']).map((k) => html`<div><dt>${k.replace('Ms', '')}</dt><dd>${t[k] ?? 0} ms</dd></div>`)}
    </dl>
    ${
      step.prompt
        ? html`<details class="prompt"><summary>Prompt (${step.prompt.length} messages)</summary>
      ${step.prompt.map(
        (
          m,
        ) => html`<div class="prompt-msg role-${m.role}"><div class="who">${m.role}${m.toolCallId ? ` · ${m.toolCallId}` : ''}</div><pre>${m.content}</pre>
        ${m.toolCalls ? html`<pre class="json">${json(m.toolCalls)}</pre>` : null}</div>`,
      )}
    </details>`
        : null
    }
    ${
      step.reply
        ? html`<details class="reply" open><summary>Reply</summary><pre>${step.reply.content}</pre>
      ${step.reply.toolCalls ? html`<pre class="json">${json(step.reply.toolCalls)}</pre>` : null}</details>`
        : null
    }
    ${step.code ? html`<${CodeBlock} code=${step.code} language="python" open=${true} />` : null}
    ${
      step.code && before !== undefined
        ? html`<details class="diff"><summary>Diff to the previous code</summary>
      <pre>${lineDiff(before, step.code).map((d) => html`<span class=${d.op === '+' ? 'add' : d.op === '-' ? 'del' : 'same'}>${d.op} ${d.line}</span>`)}</pre></details>`
        : null
    }
    ${step.stdout ? html`<h4>stdout</h4><pre class="stdout">${step.stdout}</pre>` : null}
    ${step.stderr ? html`<h4>stderr</h4><pre class="stderr">${step.stderr}</pre>` : null}
    ${
      step.toolCalls?.length
        ? html`<h4>Tool calls</h4>${step.toolCalls.map(
            (
              c,
            ) => html`<details class="tool-call"><summary>${c.tool} · ${c.ok ? 'ok' : 'failed'} · ${c.durationMs} ms</summary>
      <h5>parameters</h5><pre class="json">${json(c.args)}</pre><h5>result</h5><pre class="json">${json(c.result)}</pre></details>`,
          )}`
        : null
    }
    ${step.grounding ? html`<${GroundingRecord} g=${step.grounding} />` : null}
    ${
      step.sandbox
        ? html`<details class="sandbox"><summary>Sandbox: Python ${step.sandbox.python ?? '?'}</summary>
      <pre>${Object.entries(step.sandbox.packages ?? {})
        .map(([k, v]) => `${k}==${v}`)
        .join('\n')}</pre></details>`
        : null
    }
  </article>`;
}

/**
 * A turn's grounding record: each number of the answer, found (where) or not.
 * @param {{ g: Grounding }} props
 */
function GroundingRecord({ g }) {
  return html`<div class="grounding-record">
    <p>${g.total ? `${g.grounded} of ${g.total} numbers found among ${g.produced} values the turn's tools produced` : ''}${g.inCode ? ` · ${g.inCode} in code, not checked` : ''}${g.note ? ` · ${g.note}` : ''}</p>
    ${
      g.numbers.length
        ? html`<table><thead><tr><th>number</th><th>found</th><th>source</th></tr></thead><tbody>
      ${g.numbers.map(
        (
          n,
        ) => html`<tr class=${n.grounded ? 'grounded' : 'ungrounded'}><td>${n.text}</td><td>${n.grounded ? 'yes' : 'no'}</td>
        <td>${n.source ? `${n.source.kind}${n.source.file ? ` ${n.source.file}` : ''}${n.source.tool ? ` (${n.source.tool}, ${n.source.stepId ?? ''}${n.source.line ? `, line ${n.source.line}` : ''})` : ''}: ${n.source.excerpt}` : ''}</td></tr>`,
      )}
    </tbody></table>`
        : null
    }
  </div>`;
}

const json = (/** @type {unknown} */ v) => JSON.stringify(v, null, 2);
