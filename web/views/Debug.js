// The debug view of a conversation: per step the full prompt and reply, code with a diff to the previous version,
// stdout/stderr, tool calls, tokens, cost, timings and the sandbox environment. Refreshes as events arrive.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, conv } from '../lib/api.js';
import { followEvents } from '../lib/events.js';
import { lineDiff } from '../lib/lineDiff.js';
import { ConversationHeader } from './ConversationHeader.js';
import { CodeBlock } from './Turn.js';

/** `base`: the API path of the conversation, or of a share (which answers {share, conversation}); `header`: a share's own. */
export function Debug({ id, base = conv(id), header }) {
  const [view, setView] = useState(undefined);
  const [steps, setSteps] = useState(undefined);
  const [error, setError] = useState(undefined);
  useEffect(() => {
    let timer;
    const load = () =>
      Promise.all([api('GET', base), api('GET', `${base}/debug`)]).then(
        ([v, d]) => (setView(v.conversation ?? v), setSteps(d.steps), setError(undefined)),
        (err) => setError(err.message),
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

/** stepId → the code of the previous step that had code (in the same turn), for the diff. */
function previousCode(steps) {
  const out = new Map();
  const last = new Map();
  for (const s of steps) {
    if (!s.code) continue;
    if (last.has(s.turnId)) out.set(s.stepId, last.get(s.turnId));
    last.set(s.turnId, s.code);
  }
  return out;
}

function Step({ step, before }) {
  const t = step.timing ?? {};
  return html`<article class="debug-step" data-step-id=${step.stepId}>
    <h3>Step ${step.index + 1} · ${step.kind}${step.model ? html` <span class="muted">· ${step.model}</span>` : null}</h3>
    <p class="muted">turn ${step.turnId} · ${step.inputTokens} in / ${step.outputTokens} out tokens · $${(step.costUsd ?? 0).toFixed(4)}</p>
    <dl class="timing" aria-label="Timing">
      ${['modelMs', 'executionMs', 'toolsMs', 'waitingMs'].map((k) => html`<div><dt>${k.replace('Ms', '')}</dt><dd>${t[k] ?? 0} ms</dd></div>`)}
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

/** A turn's grounding record: each number of the answer, found (where) or not. */
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

const json = (v) => JSON.stringify(v, null, 2);
