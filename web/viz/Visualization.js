// One manifest output rendered inline: a table, a chart (through Vega-Lite, as SVG) or an image.
// A failure (missing data file, wrong column, library not loading) is shown in the output's own box.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, fileUrl } from '../lib/api.js';
import { loadPapa, loadVegaEmbed } from '../lib/scripts.js';
import { tableRows } from './tableRows.js';
import { dataUrl, toVegaLite } from './toVegaLite.js';
/** @import { VisualizationOutput } from '../../analysis/conversation/types' */
/** @import { Row, Spec } from './toVegaLite.js' */
/** @import { EmbedOptions, Result } from 'vega-embed' */

/**
 * @typedef {object} OutputProps
 * @property {string} conversationId the conversation's id, or a share's API base
 * @property {VisualizationOutput} output
 */

/** @param {OutputProps} props */
export function Visualization({ conversationId, output }) {
  const title = output.title ? html`<h4 class="viz-title">${output.title}</h4>` : null;
  let body;
  if (output.type === 'image')
    body = html`<img src=${fileUrl(conversationId, output.dataFile ?? '', true)} alt=${output.title ?? 'chart image'} loading="lazy" />`;
  else if (output.type === 'table') body = html`<${TableOutput} conversationId=${conversationId} output=${output} />`;
  else body = html`<${ChartOutput} conversationId=${conversationId} output=${output} />`;
  return html`<figure class="viz" data-viz-id=${output.id} data-viz-type=${output.type}>${output.type !== 'table' && output.type !== 'image' ? null : title}${body}</figure>`;
}

/**
 * Rows of the output's data file (CSV through papaparse, or JSON), or an error message.
 * @param {string} conversationId
 * @param {string | undefined} dataFile
 */
function useRows(conversationId, dataFile) {
  const [state, setState] = useState(
    /** @type {{ rows: Row[] | undefined; error: string | undefined }} */ ({ rows: undefined, error: undefined }),
  );
  useEffect(() => {
    if (!dataFile) return setState({ rows: undefined, error: undefined });
    let live = true;
    loadRows(conversationId, dataFile).then(
      (rows) => live && setState({ rows, error: undefined }),
      (err) => live && setState({ rows: undefined, error: errorText(err) }),
    );
    return () => (live = false);
  }, [conversationId, dataFile]);
  return state;
}

/**
 * @param {string} conversationId
 * @param {string} dataFile
 * @returns {Promise<Row[]>}
 */
async function loadRows(conversationId, dataFile) {
  const res = await fetch(fileUrl(conversationId, dataFile, true));
  if (!res.ok) throw new Error(`data file ${dataFile}: HTTP ${res.status}`);
  const text = await res.text();
  if (/\.json$/i.test(dataFile)) {
    /** @type {unknown} */
    const data = JSON.parse(text);
    if (!Array.isArray(data) || !data.every(isRow))
      throw new Error(`data file ${dataFile} is not a JSON array of rows`);
    return data;
  }
  const Papa = await loadPapa();
  /** @type {import('papaparse').ParseResult<Row>} */
  const parsed = Papa.parse(text.trim(), { header: true, dynamicTyping: true, skipEmptyLines: true });
  if (parsed.errors.length && !parsed.data.length)
    throw new Error(`data file ${dataFile}: ${parsed.errors[0].message}`);
  return parsed.data;
}

/**
 * A row of a JSON data file: an object of column → value.
 * @param {unknown} row
 * @returns {row is Row}
 */
function isRow(row) {
  return typeof row === 'object' && row !== null && !Array.isArray(row);
}

/** @param {OutputProps} props */
function TableOutput({ conversationId, output }) {
  const { rows, error } = useRows(conversationId, output.dataFile);
  if (error) return html`<p class="viz-error" role="alert">${error}</p>`;
  if (!rows) return html`<p class="muted">loading table…</p>`;
  let t;
  try {
    t = tableRows(rows, output.config);
  } catch (err) {
    return html`<p class="viz-error" role="alert">${errorText(err)}</p>`;
  }
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label=${output.title ?? 'table'}>
    <table>
      <thead><tr>${t.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
      <tbody>${t.rows.map((r) => html`<tr>${r.map((v) => html`<td class=${typeof v === 'number' ? 'num' : ''}>${String(v)}</td>`)}</tr>`)}</tbody>
    </table>
    ${t.truncated ? html`<p class="muted">showing ${t.rows.length} of ${t.total} rows</p>` : null}
  </div>`;
}

/** @param {OutputProps} props */
function ChartOutput({ conversationId, output }) {
  const dataFile = output.dataFile ?? relativeSpecUrl(output);
  const { rows, error } = useRows(conversationId, dataFile);
  const ref = useRef(/** @type {HTMLDivElement | null} */ (null));
  const [renderError, setRenderError] = useState(/** @type {string | undefined} */ (undefined));
  const ready = rows !== undefined || !dataFile;
  useEffect(() => {
    const el = ref.current;
    if (!ready || !el) return;
    /** @type {Result['view'] | undefined} */
    let view;
    let live = true;
    (async () => {
      const spec = toVegaLite(output, rows);
      const { embed, expr } = await loadVegaEmbed();
      if (!live) return;
      // The spec is Vega-Lite JSON (an agent's is checked by vega-embed as it draws it).
      const result = await embed(el, /** @type {import('vega-embed').VisualizationSpec} */ (spec), embedOptions(expr));
      view = result.view;
      setRenderError(undefined);
    })().catch((err) => live && setRenderError(errorText(err)));
    return () => {
      live = false;
      view?.finalize();
    };
  }, [ready, rows, output]);
  if (error) return html`<p class="viz-error" role="alert">${error}</p>`;
  return html`<div class="chart" ref=${ref} role="img" aria-label=${output.title ?? output.type}></div>
    ${renderError ? html`<p class="viz-error" role="alert">chart ${output.title ?? output.id}: ${renderError}</p>` : null}`;
}

/**
 * Fit for the page's CSP (server/routes/web.ts): `ast` + `expr` interpret the spec's expressions (agent-written, untrusted)
 * instead of compiling them with Function, which needs eval. `defaultStyle: false` and the tooltip's `disableDefaultStyle`
 * stop vega-embed and vega-tooltip from inserting <style> elements (their CSS is in app.css); without vega-embed's style
 * the actions menu must be asked for (`forceActionsMenu`).
 * @param {EmbedOptions['expr']} expr
 * @returns {EmbedOptions}
 */
function embedOptions(expr) {
  return {
    renderer: 'svg',
    ast: true,
    expr,
    defaultStyle: false,
    forceActionsMenu: true,
    tooltip: { disableDefaultStyle: true },
    actions: { export: true, source: false, compiled: false, editor: false },
  };
}

/**
 * A vega_lite spec's data.url when it names a conversation file (toVegaLite refuses network URLs).
 * @param {VisualizationOutput} output
 */
function relativeSpecUrl(output) {
  const spec = /** @type {Spec | null | undefined} the agent's */ (output.spec);
  const url = output.type === 'vega_lite' && spec && typeof spec === 'object' ? dataUrl(spec) : undefined;
  return typeof url === 'string' && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url) ? url : undefined;
}
