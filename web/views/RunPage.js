// One benchmark run: scores with 95% intervals, by instruction type, pass@k/pass^k, the floor, failure classes, cost,
// and a task table that filters by verdict, failure class and type and searches ids. Live while the run is in progress.
import { html } from 'htm/preact';
import { useMemo, useState } from 'preact/hooks';
import { usePolling, REFRESH_MS } from '../lib/usePolling.js';
import { pct, runApi, taskHref, usd, withInterval } from '../lib/runFormat.js';
import { byTypeRows } from '../lib/byTypeRows.js';
/** @import { RunPageReply } from '../../server/routes/runPages' */
/** @import { RunMetrics } from '../../benchmarks/report/comparison' */
/** @import { TargetedEvent } from 'preact' */

/** @param {{ id: string }} props */
export function RunPage({ id }) {
  const { data, error } = usePolling(runApi(id), (/** @type {RunPageReply} */ d) => Boolean(d.metrics.inProgress));
  if (error && !data)
    return html`<section class="run-page"><h2>Run ${id}</h2><p class="error" role="alert">${error}</p><a href="#/runs">All runs</a></section>`;
  if (!data) return html`<section class="run-page"><p class="muted">Loading run ${id}…</p></section>`;
  const m = data.metrics;
  return html`<section class="run-page" aria-label="Run ${id}">
    <header class="conv-head">
      <h2>Run ${data.runId}</h2>
      <p class="muted">${data.benchmark}${data.edition ? ` ${data.edition}` : ''} · ${data.agent} × ${data.model} · ${data.scoringMode} scoring · ${m.tasks} tasks${m.epochs > 1 ? ` × ${m.epochs} epochs` : ''}</p>
      <p class="links"><a href="#/runs">All runs</a>${data.temporalUiUrl ? html` · <a class="temporal-link" href=${data.temporalUiUrl} target="_blank" rel="noopener">Temporal UI</a>` : null}</p>
    </header>
    ${m.inProgress ? html`<p class="banner live" role="status">In progress: ${m.inProgress}. This page updates every ${REFRESH_MS / 1000} s.</p>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <${Scores} m=${m} />
    <${ByType} m=${m} />
    <${Facts} data=${data} />
    <${Batches} batches=${data.batches ?? []} />
    <${TaskTable} runId=${data.runId} tasks=${data.tasks} epochs=${m.epochs} />
  </section>`;
}

/** @param {{ m: RunMetrics }} props */
function Scores({ m }) {
  const ks = Object.keys(m.passAt);
  return html`<dl class="score-cards" aria-label="Scores">
    <div class="card soft"><dt>soft</dt><dd>${withInterval(m.soft)}</dd></div>
    <div class="card hard"><dt>hard</dt><dd>${withInterval(m.hard)}</dd></div>
    ${ks.length > 1 ? ks.map((k) => html`<div class="card pass-at" data-k=${k}><dt>pass@${k}</dt><dd>${pct(m.passAt[k])}</dd></div>`) : null}
    ${ks.length > 1 ? ks.map((k) => html`<div class="card pass-hat" data-k=${k}><dt>pass^${k}</dt><dd>${pct(m.passHat[k])}</dd></div>`) : null}
    <div class="card cost"><dt>cost</dt><dd>${usd(m.costUsd)}</dd></div>
    <div class="card tokens"><dt>tokens</dt><dd>${m.tokens.input.toLocaleString('en-US')} in / ${m.tokens.output.toLocaleString('en-US')} out</dd></div>
  </dl>
  <p class="muted">Means over ${m.attempts} attempts; [95% interval] from a bootstrap over tasks (attempts of one task are not independent).</p>`;
}

/**
 * `run --batch`: each batch's provider id, status and calls answered/failed (as its last poll saw them).
 * @param {{ batches: RunPageReply['batches'] }} props
 */
function Batches({ batches }) {
  if (!batches.length) return null;
  return html`<h3>Batches</h3><div class="table-wrap"><table class="batches">
    <thead><tr><th scope="col">batch</th><th scope="col">provider id</th><th scope="col">status</th><th scope="col">calls</th><th scope="col">answered</th><th scope="col">failed</th></tr></thead>
    <tbody>${batches.map((b) => html`<tr><td>${b.name}</td><td><code>${b.batchId}</code></td><td>${b.status}${b.errors.length ? html` <span class="muted">(${b.errors.join('; ')})</span>` : null}</td><td class="num">${b.calls}</td><td class="num">${b.completed}</td><td class="num">${b.failed}</td></tr>`)}</tbody>
  </table></div>`;
}

/** @param {{ m: RunMetrics }} props */
function ByType({ m }) {
  const rows = byTypeRows(m);
  return html`<h3>By type</h3><div class="table-wrap"><table class="by-type">
    <thead><tr><th scope="col">type</th><th scope="col">tasks</th><th scope="col">soft [95%]</th><th scope="col">hard [95%]</th></tr></thead>
    <tbody>${rows.map((g) => html`<tr class=${g.excluded ? 'excluded' : ''}><td>${g.group}</td><td class="num">${g.tasks}</td><td class="num">${withInterval(g.soft)}</td><td class="num">${withInterval(g.hard)}</td></tr>`)}</tbody>
  </table></div>
  ${m.withoutExcluded ? html`<p class="muted">Known-bad (${m.withoutExcluded.why}): ${m.withoutExcluded.tasks.join(', ')}.</p>` : null}`;
}

/** @param {{ data: RunPageReply }} props */
function Facts({ data }) {
  const failures = Object.entries(data.metrics.failureClasses);
  return html`<div class="facts">
    ${
      data.figures?.length
        ? html`<ul class="figures" aria-label="The benchmark's figures">${data.figures.map(
            (f) =>
              html`<li>${f.name}: ${pct(f.overall)}${
                Object.keys(f.byGroup).length
                  ? ` (${Object.entries(f.byGroup)
                      .map(([g, v]) => `${g} ${pct(v)}`)
                      .join(', ')})`
                  : ''
              }</li>`,
          )}</ul>`
        : null
    }
    ${data.floor ? html`<p class="floor">Floor (unchanged inputs, the do-nothing agent): ${data.floor.passedByInput} of ${data.floor.testCases} test cases already pass; soft ${pct(data.floor.soft)}, hard ${pct(data.floor.hard)}.</p>` : null}
    ${
      data.unreachable?.length
        ? html`<details class="unreachable"><summary>${data.unreachable.length} test cases no output can pass under this scoring mode</summary>
      <ul>${data.unreachable.map((u) => html`<li><a href=${taskHref(data.runId, u.taskId)}>${u.taskId}</a> #${u.testCase}: ${u.reason}</li>`)}</ul></details>`
        : null
    }
    <h3>Failure classes</h3>
    ${failures.length ? html`<ul class="failure-classes">${failures.map(([k, v]) => html`<li><span class="kind">${k}</span> ${v}</li>`)}</ul>` : html`<p class="muted">No attempt failed for a non-scoring reason.</p>`}
    ${data.topFailures?.length ? html`<ul class="top-failures muted">${data.topFailures.map((f) => html`<li>${f.tasks} × ${f.class}: ${f.message}</li>`)}</ul>` : null}
  </div>`;
}

const VERDICTS = ['pass', 'partial', 'fail', 'pending'];

/**
 * @param {object} props
 * @param {string} props.runId
 * @param {RunPageReply['tasks']} props.tasks
 * @param {number} props.epochs
 */
function TaskTable({ runId, tasks, epochs }) {
  const [verdict, setVerdict] = useState('');
  const [failure, setFailure] = useState('');
  const [group, setGroup] = useState('');
  const [search, setSearch] = useState('');
  const failures = useMemo(
    () => [...new Set(tasks.flatMap((t) => (t.failureClass ? [t.failureClass] : [])))].sort(),
    [tasks],
  );
  const groups = useMemo(() => [...new Set(tasks.map((t) => t.group))].sort(), [tasks]);
  const shown = tasks.filter(
    (t) =>
      (!verdict || t.verdict === verdict) &&
      (!failure || (failure === 'none' ? !t.failureClass : t.failureClass === failure)) &&
      (!group || t.group === group) &&
      (!search || t.id.toLowerCase().includes(search.toLowerCase())),
  );
  /**
   * @param {string} label
   * @param {string} value
   * @param {(value: string) => void} set
   * @param {string[]} options
   */
  const select = (
    label,
    value,
    set,
    options,
  ) => html`<label>${label} <select aria-label=${label} value=${value} onChange=${(/** @type {TargetedEvent<HTMLSelectElement>} */ e) => set(e.currentTarget.value)}>
    <option value="">all</option>${options.map((o) => html`<option value=${o}>${o}</option>`)}</select></label>`;
  return html`<h3>Tasks</h3>
    <div class="filters" role="search">
      ${select('verdict', verdict, setVerdict, VERDICTS)}
      ${select('failure', failure, setFailure, ['none', ...failures])}
      ${select('type', group, setGroup, groups)}
      <label>id <input type="search" aria-label="search task ids" value=${search} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => setSearch(e.currentTarget.value)} /></label>
      <span class="muted shown-count">${shown.length} of ${tasks.length}</span>
    </div>
    <div class="table-wrap"><table class="task-table">
      <thead><tr>${['task', 'type', 'verdict', ...(epochs > 1 ? ['passed'] : []), 'soft', 'hard', 'failure', 'cost'].map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
      <tbody>${shown.map(
        (t) => html`<tr data-task-id=${t.id} class=${`verdict-${t.verdict}`}>
          <td class="id"><a href=${taskHref(runId, t.id)}>${t.id}</a></td><td>${t.group}</td>
          <td><span class="verdict">${t.verdict}</span></td>
          ${epochs > 1 ? html`<td class="num">${t.passes}/${t.attempts}</td>` : null}
          <td class="num">${t.attempts ? t.soft.toFixed(2) : '–'}</td><td class="num">${t.attempts ? t.hard.toFixed(2) : '–'}</td>
          <td>${t.failureClass ?? ''}</td><td class="num">${usd(t.costUsd)}</td>
        </tr>`,
      )}</tbody>
    </table></div>`;
}
