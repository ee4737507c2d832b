// Two or more runs: a leaderboard with 95% intervals, and each run paired with the first — the table by hard outcome
// with its task ids, McNemar's exact p, the paired bootstrap interval of the soft difference, cost and tokens, by type.
// Each task links to both trajectories side by side. Live while a run is in progress.
import { html } from 'htm/preact';
import { usePolling } from '../lib/usePolling.js';
import { compareHref, diffInterval, pct, runHref, taskApi, usd, withInterval } from '../lib/runFormat.js';
import { TaskHeader, Trajectory } from './TaskPage.js';
/** @import { CompareReply, TaskPageReply } from '../../server/routes/runPages' */
/** @import { PairComparison, RunMetrics } from '../../benchmarks/report/comparison' */

const compareApi = (/** @type {string[]} */ ids) => `/api/compare?runs=${ids.map(encodeURIComponent).join(',')}`;

/** @param {{ ids: string[] }} props */
export function Compare({ ids }) {
  const { data, error } = usePolling(compareApi(ids), (/** @type {CompareReply} */ d) =>
    d.runs.some((r) => r.inProgress),
  );
  if (error && !data)
    return html`<section class="compare"><h2>Comparison</h2><p class="error" role="alert">${error}</p><a href="#/runs">All runs</a></section>`;
  if (!data) return html`<section class="compare"><p class="muted">Comparing ${ids.join(', ')}…</p></section>`;
  return html`<section class="compare" aria-label="Comparison">
    <header class="conv-head"><h2>Comparison of ${data.runs.length} runs</h2><p class="links"><a href="#/runs">All runs</a></p></header>
    ${data.runs.filter((r) => r.inProgress).map((r) => html`<p class="banner live" role="status">${r.runId} is in progress (${r.inProgress}): this view updates as it goes.</p>`)}
    <${Leaderboard} runs=${data.runs} />
    ${data.pairs.map((p) => html`<${Pair} key=${p.b} pair=${p} />`)}
  </section>`;
}

/** @param {{ runs: RunMetrics[] }} props */
function Leaderboard({ runs }) {
  const ranked = [...runs].sort((x, y) => y.hard.mean - x.hard.mean || y.soft.mean - x.soft.mean);
  return html`<h3>Leaderboard</h3><div class="table-wrap"><table class="leaderboard">
    <thead><tr>${['#', 'run', 'agent', 'model', 'tasks', 'epochs', 'soft [95%]', 'hard [95%]', 'pass@1', 'pass@K', 'pass^K', 'cost'].map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
    <tbody>${ranked.map((r, i) => {
      const k = String(r.epochs);
      return html`<tr data-run-id=${r.runId}><td>${i + 1}</td><td><a href=${runHref(r.runId)}>${r.runId}</a></td><td>${r.agent}</td><td>${r.model}</td>
        <td class="num">${r.tasks}</td><td class="num">${r.epochs}</td><td class="num soft">${withInterval(r.soft)}</td><td class="num hard">${withInterval(r.hard)}</td>
        <td class="num">${pct(r.passAt['1'])}</td><td class="num">${pct(r.passAt[k])}</td><td class="num">${pct(r.passHat[k])}</td><td class="num">${usd(r.costUsd)}</td></tr>`;
    })}</tbody></table></div>`;
}

/** @param {{ pair: PairComparison }} props */
function Pair({ pair }) {
  const t = pair.hard;
  const ids = (/** @type {string[]} */ list) =>
    list.length
      ? list.map(
          (id, i) =>
            html`${i ? ', ' : ''}<a href=${`${compareHref([pair.a, pair.b])}/t/${encodeURIComponent(id)}`}>${id}</a>`,
        )
      : html`<span class="muted">none</span>`;
  return html`<article class="pair" data-a=${pair.a} data-b=${pair.b}>
    <h3>A = ${pair.a} vs B = ${pair.b} <span class="muted">(${pair.tasks} paired tasks)</span></h3>
    <table class="paired" aria-label="Paired outcomes">
      <thead><tr><th></th><th scope="col">B passes</th><th scope="col">B fails</th></tr></thead>
      <tbody>
        <tr><th scope="row">A passes</th><td class="num both">${t.bothPass}</td><td class="num a-only">${t.aOnly}</td></tr>
        <tr><th scope="row">A fails</th><td class="num b-only">${t.bOnly}</td><td class="num neither">${t.neither}</td></tr>
      </tbody>
    </table>
    <dl class="pair-stats">
      <div><dt>McNemar exact p</dt><dd class="mcnemar">${t.mcnemarP.toPrecision(3)}</dd></div>
      <div><dt>soft B − A [95%]</dt><dd class="soft-diff">${diffInterval(pair.softDiff)}</dd></div>
      <div><dt>hard B − A [95%]</dt><dd class="hard-diff">${diffInterval(pair.hardDiff)}</dd></div>
      <div><dt>cost B − A</dt><dd>${usd(pair.costUsd.diff)} <span class="muted">(A ${usd(pair.costUsd.a)}, B ${usd(pair.costUsd.b)})</span></dd></div>
      <div><dt>tokens B − A</dt><dd>${pair.tokens.diff >= 0 ? '+' : ''}${pair.tokens.diff.toLocaleString('en-US')}</dd></div>
    </dl>
    <p class="muted">A task passes in a run when it passes on more than half its attempts. Intervals: paired bootstrap over tasks.</p>
    <dl class="pair-tasks">
      <dt>only A passes</dt><dd class="a-only-ids">${ids(t.taskIds.aOnly)}</dd>
      <dt>only B passes</dt><dd class="b-only-ids">${ids(t.taskIds.bOnly)}</dd>
      <dt>both pass</dt><dd>${ids(t.taskIds.bothPass)}</dd>
      <dt>neither</dt><dd>${ids(t.taskIds.neither)}</dd>
    </dl>
    ${
      pair.byGroup.length > 1
        ? html`<h4>By type</h4><div class="table-wrap"><table class="pair-by-type">
      <thead><tr>${['type', 'tasks', 'both', 'only A', 'only B', 'neither', 'McNemar p', 'soft B − A [95%]'].map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
      <tbody>${pair.byGroup.map((g) => html`<tr><td>${g.group}</td><td class="num">${g.tasks}</td><td class="num">${g.hard.bothPass}</td><td class="num">${g.hard.aOnly}</td><td class="num">${g.hard.bOnly}</td><td class="num">${g.hard.neither}</td><td class="num">${g.hard.mcnemarP.toPrecision(3)}</td><td class="num">${diffInterval(g.softDiff)}</td></tr>`)}</tbody>
    </table></div>`
        : null
    }
    ${pair.onlyA.length || pair.onlyB.length ? html`<p class="muted">Not paired: only in A ${pair.onlyA.join(', ') || '—'}; only in B ${pair.onlyB.join(', ') || '—'}.</p>` : null}
  </article>`;
}

/**
 * One task in two runs, side by side: each run's verdicts and trajectory.
 * @param {{ ids: string[]; taskId: string }} props
 */
export function SideBySide({ ids, taskId }) {
  return html`<section class="side-by-side-task" aria-label="Task ${taskId} in ${ids.join(' and ')}">
    <header class="conv-head"><h2>Task ${taskId}: ${ids.join(' vs ')}</h2><p class="links"><a href=${compareHref(ids)}>Back to the comparison</a></p></header>
    <div class="columns">${ids.map((id) => html`<${TaskColumn} key=${id} runId=${id} taskId=${taskId} />`)}</div>
  </section>`;
}

/** @param {{ runId: string; taskId: string }} props */
function TaskColumn({ runId, taskId }) {
  const { data: view, error } = usePolling(
    taskApi(runId, taskId),
    (/** @type {TaskPageReply} */ v) => v.status === 'pending',
  );
  if (error) return html`<div class="column" data-run-id=${runId}><h3>${runId}</h3><p class="error">${error}</p></div>`;
  if (!view) return html`<div class="column" data-run-id=${runId}><p class="muted">Loading…</p></div>`;
  return html`<div class="column" data-run-id=${runId}>
    <${TaskHeader} runId=${runId} view=${view} compact=${true} />
    <ul class="case-verdicts">${view.testCases.map((c) => html`<li>test case ${c.index}: <span class="verdict">${c.pass ? 'pass' : 'fail'}</span>${c.reason ? ` — ${c.reason}` : ''}</li>`)}</ul>
    <${Trajectory} steps=${view.trajectory} />
  </div>`;
}
