// One task of a run: the instruction, each test case as grids of the answer range (input, expected and got side by
// side, mismatched cells highlighted with the reason, values as Excel shows them), the output workbook to download,
// the Temporal UI link, and the agent's trajectory step by step. Polls while the task has no result yet.
import { html } from 'htm/preact';
import { usePolling } from '../lib/usePolling.js';
import { runHref, seconds, taskApi, taskHref, usd } from '../lib/runFormat.js';
import { CodeBlock } from './Turn.js';
/** @import { GridReply, TaskPageReply } from '../../server/routes/runPages' */
/** @import { DiffValue, QuestionView, TestCaseView, TrajectoryStep } from '../../benchmarks/report/taskView' */
/** @import { GridPiece, GridRows } from '../../benchmarks/report/taskView' */

const epochQuery = (/** @type {number | undefined} */ epoch) => (epoch ? `?epoch=${epoch}` : '');

/**
 * @param {object} props
 * @param {string} props.runId
 * @param {string} props.taskId
 * @param {number} [props.epoch]
 */
export function TaskPage({ runId, taskId, epoch }) {
  const { data: view, error } = usePolling(
    `${taskApi(runId, taskId)}${epochQuery(epoch)}`,
    (/** @type {TaskPageReply} */ v) => v.status === 'pending',
  );
  if (error && !view)
    return html`<section class="task-page"><h2>Task ${taskId}</h2><p class="error" role="alert">${error}</p><a href=${runHref(runId)}>Run ${runId}</a></section>`;
  if (!view) return html`<section class="task-page"><p class="muted">Loading task ${taskId}…</p></section>`;
  return html`<section class="task-page" aria-label="Task ${taskId}">
    <${TaskHeader} runId=${runId} view=${view} />
    <h3>Instruction</h3>
    <pre class="instruction">${view.instruction}</pre>
    ${view.answerPosition !== undefined ? html`<p>Answer position <code class="answer-position">${view.answerPosition}</code>${view.instructionType ? html` <span class="muted">· ${view.instructionType}</span>` : null}</p>` : null}
    ${view.question ? html`<${Question} q=${view.question} />` : null}
    ${view.testCases.map((c) => html`<${TestCase} key=${c.index} runId=${runId} view=${view} c=${c} />`)}
    <h3>Trajectory</h3>
    <${Trajectory} steps=${view.trajectory} />
  </section>`;
}

/**
 * @param {object} props
 * @param {string} props.runId
 * @param {TaskPageReply} props.view
 * @param {boolean} [props.compact]
 */
export function TaskHeader({ runId, view, compact = false }) {
  return html`<header class="conv-head">
    <h2>Task ${view.taskId}</h2>
    <p class="muted">run <a href=${runHref(runId)}>${runId}</a> · <span class=${`task-status status-${view.status}`}>${view.status}</span>
      ${view.soft !== undefined ? ` · soft ${view.soft.toFixed(2)} · hard ${view.hard}` : ''} · ${view.totals.llmCalls} LLM calls · ${view.totals.inputTokens} in / ${view.totals.outputTokens} out · ${usd(view.totals.costUsd)} · ${seconds(view.totals.wallMs)}</p>
    ${view.epochs.length > 1 || view.epoch > 1 ? html`<nav class="epochs" aria-label="Attempts">attempt: ${view.epochs.map((e) => (e === view.epoch ? html`<strong>${e}</strong> ` : html`<a href=${taskHref(runId, view.taskId, e)}>${e}</a> `))}</nav>` : null}
    ${!compact && view.temporalUiUrl ? html`<p><a class="temporal-link" href=${view.temporalUiUrl} target="_blank" rel="noopener">Temporal UI</a></p>` : null}
    ${view.failure ? html`<p class="error">failure: ${view.failure.class}: ${view.failure.message}</p>` : null}
    ${view.notes.map((n) => html`<p class="banner note">${n}</p>`)}
  </header>`;
}

/** @param {{ q: QuestionView }} props */
function Question({ q }) {
  return html`<dl class="question">
    <dt>Question</dt><dd><pre>${q.question}</pre></dd>
    <dt>Expected</dt><dd class="expected-answer">${q.expected}</dd>
    <dt>Reply</dt><dd><pre>${q.reply ?? '(none)'}</pre></dd>
    <dt>Judge${q.judgeModel ? ` (${q.judgeModel})` : ''}</dt><dd><span class="verdict">${q.verdict ?? 'not judged'}</span>${q.judgeReply !== undefined ? html`<pre>${q.judgeReply}</pre>` : null}</dd>
  </dl>`;
}

const valueText = (/** @type {DiffValue} */ v) =>
  `${v.value === null ? '(empty)' : JSON.stringify(v.value)} (${v.type}${v.uncachedFormula ? ', formula without cached value' : ''})`;

/**
 * `runId` is the run as the address names it (its folder), which the API takes.
 * @param {{ runId: string; view: TaskPageReply; c: TestCaseView }} props
 */
function TestCase({ runId, view, c }) {
  const download = `${taskApi(runId, view.taskId)}/cases/${c.index}/output${epochQuery(view.epoch)}`;
  return html`<article class=${`test-case ${c.pass ? 'pass' : 'fail'}`} data-case=${c.index}>
    <h3>Test case ${c.index}: <span class="verdict">${c.pass ? 'pass' : 'fail'}</span></h3>
    ${c.reason ? html`<p class="reason">${c.reason}</p>` : null}
    <ul class="case-facts muted">
      ${c.cells ? html`<li class="cell-tallies">regression cells (to keep): ${c.cells.regression.correct} of ${c.cells.regression.total} right; modification cells (to change): ${c.cells.modification.correct} of ${c.cells.modification.total} right</li>` : null}
      ${c.fill ? html`<li>the expected answer fills ${c.fill.filled} of ${c.fill.cells} checked cells</li>` : null}
      ${c.inputPasses !== undefined ? html`<li class="floor">the unchanged input ${c.inputPasses ? 'already passes' : 'does not pass'}</li>` : null}
      ${c.unreachable ? html`<li class="unreachable">unreachable: ${c.unreachable}</li>` : null}
      ${!c.diffRecorded ? html`<li class="no-diff">no cell diff recorded</li>` : null}
    </ul>
    ${
      c.mismatches.length
        ? html`<ul class="mismatches" aria-label="Cells that differ">${c.mismatches.map((m) => html`<li data-cell=${m.cell}><code>${m.cell}</code> expected ${valueText(m.expected)}, got ${valueText(m.got)} <span class="kind">${m.kind ? `${m.kind} ` : ''}${m.check}</span></li>`)}
      ${c.omitted ? html`<li class="muted">… and ${c.omitted} more</li>` : null}</ul>`
        : null
    }
    ${c.output ? html`<p><a class="download" href=${download} download>Download the output workbook</a></p>` : null}
    ${view.grids && view.status !== 'pending' ? html`<${Grid} runId=${runId} view=${view} index=${c.index} />` : null}
  </article>`;
}

/** @param {{ runId: string; view: TaskPageReply; index: number }} props */
function Grid({ runId, view, index }) {
  const { data, error } = usePolling(
    `${taskApi(runId, view.taskId)}/cases/${index}/grid${epochQuery(view.epoch)}`,
    (/** @type {GridReply} */ _grid) => false,
  );
  if (error) return html`<p class="error">${error}</p>`;
  if (!data) return html`<p class="muted">Loading the grid…</p>`;
  return html`<div class="grids">
    ${data.problems.map((p) => html`<p class="banner grid-problem">${p}</p>`)}
    ${data.pieces.map(
      (piece) => html`<figure class="grid-piece" data-sheet=${piece.sheet}>
      <figcaption>${piece.sheet}!${piece.shown} <span class="muted">(${piece.mismatches} differing cell${piece.mismatches === 1 ? '' : 's'}${piece.cut ? `; ${piece.cut}` : ''})</span></figcaption>
      <div class="side-by-side">
        ${
          /** @type {const} */ ([
            ['input', piece.input],
            ['expected', piece.expected],
            ['got', piece.got],
          ]).map(([name, rows]) => html`<${Sheet} name=${name} piece=${piece} rows=${rows} />`)
        }
      </div>
    </figure>`,
    )}
  </div>`;
}

/** @param {{ name: 'input' | 'expected' | 'got'; piece: GridPiece; rows: GridRows | null }} props */
function Sheet({ name, piece, rows }) {
  if (!rows)
    return html`<div class=${`sheet sheet-${name} missing`}><h4>${name}</h4><p class="muted">not available</p></div>`;
  const got = piece.got;
  return html`<div class=${`sheet sheet-${name}`}><h4>${name}</h4><div class="table-wrap"><table class="cells" aria-label=${`${name} ${piece.sheet}`}>
    <thead><tr><th></th>${piece.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${rows.map(
      (row, i) =>
        html`<tr><th scope="row">${piece.rows[i]}</th>${row.map((cell, j) => {
          const mismatch = got?.[i]?.[j]?.mismatch;
          const address = `${piece.columns[j]}${piece.rows[i]}`;
          return html`<td data-cell=${address} class=${`t-${cell.type}${mismatch ? ' mismatch' : ''}`} title=${mismatch ?? undefined}>${cell.text}${name === 'got' && mismatch ? html`<span class="sr-only"> (mismatch: ${mismatch})</span>` : null}</td>`;
        })}</tr>`,
    )}</tbody>
  </table></div></div>`;
}

/** @param {{ steps: TrajectoryStep[] }} props */
export function Trajectory({ steps }) {
  if (!steps.length) return html`<p class="muted">No steps recorded.</p>`;
  return html`<ol class="trajectory">${steps.map(
    (s) => html`<li class="step-card" data-stage=${s.stage}>
      <h4>${s.stage} <span class="muted">· ${s.outcome} · ${s.llmCalls} LLM call${s.llmCalls === 1 ? '' : 's'} · ${s.inputTokens} in / ${s.outputTokens} out · ${usd(s.costUsd)} · ${seconds(s.wallMs)}</span></h4>
      ${s.exchanges.map(
        (
          x,
        ) => html`<details class="prompt"><summary>Prompt (${x.conversation}, ${x.prompt.length} characters)</summary><pre>${x.prompt}</pre></details>
        ${x.reasoning ? html`<details class="reasoning"><summary>Reasoning</summary><pre>${x.reasoning}</pre></details>` : null}
        <details class="reply" open><summary>Reply</summary><pre>${x.reply}</pre></details>`,
      )}
      ${s.code ? html`<${CodeBlock} code=${s.code} language="python" />` : null}
      ${s.executions.map(
        (
          e,
        ) => html`<div class="execution" data-label=${e.label}><span class="kind">execution ${e.label}${e.testCase !== undefined ? ` · test case ${e.testCase}` : ''}</span>${e.durationMs !== undefined ? html` <span class="muted">${Math.round(e.durationMs)} ms</span>` : null}
        ${e.stdout ? html`<pre class="stdout" aria-label="stdout">${e.stdout}</pre>` : null}
        ${e.stderr ? html`<pre class="stderr" aria-label="stderr">${e.stderr}</pre>` : null}
        ${e.error ? html`<pre class="stderr exec-error" aria-label="error">${e.error}</pre>` : null}
        ${e.timedOut ? html`<p class="error">timed out</p>` : null}</div>`,
      )}
    </li>`,
  )}</ol>`;
}
