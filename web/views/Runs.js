// The benchmark runs with progress, scores and cost, refreshed every few seconds while the view is open; each links to
// its run page, and two or more selected runs open the comparison view.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from '../lib/api.js';
import { compareHref, pct, runHref } from '../lib/runFormat.js';
/** @import { RunsReply } from '../../server/routes/runs' */

const REFRESH_MS = 3000;

export function Runs() {
  const [data, setData] = useState(/** @type {RunsReply | undefined} */ (undefined));
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  const [selected, setSelected] = useState(/** @type {string[]} */ ([]));
  const toggle = (/** @type {string} */ id) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  useEffect(() => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    let stopped = false;
    // Shows its reply or its error, then comes again (until the view closes: a load in flight then schedules nothing).
    const load = () =>
      void (
        /** @type {Promise<RunsReply>} */ (api('GET', '/api/runs'))
          .then(
            (d) => stopped || (setData(d), setError(undefined)),
            (err) => stopped || setError(errorText(err)),
          )
          .finally(() => stopped || (timer = setTimeout(load, REFRESH_MS)))
      );
    load();
    return () => ((stopped = true), clearTimeout(timer));
  }, []);
  return html`<section class="runs" aria-label="Benchmark runs">
    <header class="conv-head"><h2>Benchmark runs</h2><p class="muted">updated every ${REFRESH_MS / 1000} s</p></header>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${data?.temporalError ? html`<p class="banner" role="status">${data.temporalError}</p>` : null}
    ${data && !data.runs.length ? html`<p class="muted">No runs yet: start one with <code>sheetbench run</code>.</p>` : null}
    ${
      data?.runs.length
        ? html`<p class="compare-bar">
          <a class=${`compare-link${selected.length < 2 ? ' disabled' : ''}`} href=${selected.length >= 2 ? compareHref(selected) : undefined} aria-disabled=${selected.length < 2 ? 'true' : 'false'}>Compare ${selected.length} selected</a>
          <span class="muted">select two or more runs (the first selected is the baseline A)</span></p>
        <div class="table-wrap" tabindex="0" role="region" aria-label="Runs"><table class="runs-table">
          <thead><tr><th scope="col"><span class="sr-only">select</span></th>${['run', 'benchmark', 'agent', 'model', 'status', 'progress', 'soft', 'hard', 'accuracy', 'cost', 'links'].map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
          <tbody>${data.runs.map(
            (r) => html`<tr data-run-id=${r.id}>
              <td><input type="checkbox" class="select-run" aria-label=${`select ${r.id}`} checked=${selected.includes(r.id)} onChange=${() => toggle(r.id)} /></td>
              <td class="id"><a class="run-link" href=${runHref(r.id)}>${r.id}</a></td><td>${r.benchmark}</td><td>${r.agent}</td><td>${r.model}</td>
              <td><span class="status status-${r.status}">${r.status}${r.paused ? ' (paused)' : ''}</span></td>
              <td class="progress">${
                r.progress
                  ? html`<progress max=${r.progress.total} value=${r.progress.done} aria-label="progress of ${r.id}"></progress> ${r.progress.done}/${r.progress.total}${r.progress.running ? ` · ${r.progress.running} running` : ''}${r.progress.failed ? ` · ${r.progress.failed} failed` : ''}`
                  : '–'
              }</td>
              <td class="num soft">${pct(r.soft)}</td><td class="num hard">${pct(r.hard)}</td><td class="num">${pct(r.accuracy)}</td>
              <td class="num cost">${r.costUsd === undefined ? '–' : `$${r.costUsd.toFixed(4)}`}</td>
              <td>${r.reportUrl ? html`<a class="report-link" href=${r.reportUrl} target="_blank" rel="noopener">report</a>` : null}
                ${r.temporalUiUrl ? html` <a class="temporal-link" href=${r.temporalUiUrl} target="_blank" rel="noopener">Temporal</a>` : null}</td>
            </tr>`,
          )}</tbody></table></div>`
        : null
    }
  </section>`;
}
