// Compiles a visualization-manifest output (v1.0 line/bar/scatter/pie, plus agent-written vega_lite specs) into a Vega-Lite
// spec. A plain module: the browser and the unit tests import the same file.
/** @import { VisualizationOutput } from '../../analysis/conversation/types' */

/**
 * A row of a data file (CSV through papaparse, or JSON): column → value.
 * @typedef {Record<string, unknown>} Row
 * @typedef {'quantitative' | 'temporal' | 'nominal'} FieldType
 * @typedef {{ field: string; type: FieldType; title?: string; sort?: null }} Channel
 */

/**
 * A Vega-Lite spec: what this module builds is typed; an agent-written spec (`vega_lite`) is passed on as it is, and
 * vega-embed reports what it cannot draw.
 * @typedef {{
 *   $schema?: string;
 *   title?: string;
 *   width?: 'container';
 *   data?: { values: Row[] } | { url: string };
 *   mark?: { type: string; tooltip: boolean; point?: boolean };
 *   encoding?: { x?: Channel; y?: Channel; color?: Channel; xOffset?: Channel; theta?: Channel };
 *   transform?: { fold: string[]; as: [string, string] }[];
 *   [key: string]: unknown;
 * }} Spec
 */

/** @type {Partial<Record<VisualizationOutput['type'], string>>} */
const MARKS = { line_chart: 'line', bar_chart: 'bar', scatter: 'point' };
const SERIES = '__series';
const VALUE = '__value';

/**
 * The Vega-Lite spec of one manifest output over its parsed data rows. Throws an Error naming what is wrong.
 * @param {VisualizationOutput} output
 * @param {Row[] | undefined} rows undefined: a vega_lite spec whose data is its own
 * @returns {Spec}
 */
export function toVegaLite(output, rows) {
  if (output.type === 'vega_lite') return vegaLiteOutput(output, rows);
  if (!rows) throw new Error(`a ${output.type} output needs its data file`);
  const config = output.config ?? {};
  /** @type {Spec} */
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    ...(output.title ? { title: output.title } : {}),
    width: 'container',
    data: { values: rows },
  };
  if (output.type === 'pie_chart') return { ...base, ...pieChart(config, rows) };
  const mark = MARKS[output.type];
  if (!mark) throw new Error(`cannot chart an output of type ${output.type}`);
  return { ...base, ...xyChart(mark, config, rows) };
}

/**
 * @param {string} mark
 * @param {NonNullable<VisualizationOutput['config']>} config
 * @param {Row[]} rows
 * @returns {Spec}
 */
function xyChart(mark, config, rows) {
  const x = requireColumn(rows, config.xColumn, 'xColumn');
  const ys = (Array.isArray(config.yColumn) ? config.yColumn : [config.yColumn]).map((y) =>
    requireColumn(rows, y, 'yColumn'),
  );
  const group = config.groupBy ? requireColumn(rows, config.groupBy, 'groupBy') : undefined;
  const many = ys.length > 1;
  const xType = mark === 'bar' ? 'nominal' : fieldType(rows, x);
  /** @type {NonNullable<Spec['encoding']>} */
  const encoding = {
    x: { field: x, type: xType, title: config.xLabel ?? x, ...(xType === 'nominal' ? { sort: null } : {}) },
    y: { field: many ? VALUE : ys[0], type: 'quantitative', title: config.yLabel ?? (many ? ys.join(', ') : ys[0]) },
  };
  const colorField = many ? SERIES : group;
  if (colorField) {
    encoding.color = { field: colorField, type: 'nominal', title: many ? 'series' : group };
    if (mark === 'bar') encoding.xOffset = { field: colorField, type: 'nominal' };
  }
  /** @type {Spec} */
  const spec = { mark: { type: mark, tooltip: true, ...(mark === 'line' ? { point: true } : {}) }, encoding };
  if (many) spec.transform = [{ fold: ys, as: [SERIES, VALUE] }];
  return spec;
}

/**
 * @param {NonNullable<VisualizationOutput['config']>} config
 * @param {Row[]} rows
 * @returns {Spec}
 */
function pieChart(config, rows) {
  const label = requireColumn(rows, config.labelColumn ?? config.xColumn, 'labelColumn');
  const value = requireColumn(
    rows,
    config.valueColumn ?? (Array.isArray(config.yColumn) ? config.yColumn[0] : config.yColumn),
    'valueColumn',
  );
  return {
    mark: { type: 'arc', tooltip: true },
    encoding: {
      theta: { field: value, type: 'quantitative', title: config.yLabel ?? value },
      color: { field: label, type: 'nominal', title: config.xLabel ?? label, sort: null },
    },
  };
}

/**
 * An agent-written spec: its data may only come from the conversation's files (relative URLs), never from the network.
 * @param {VisualizationOutput} output
 * @param {Row[] | undefined} rows
 * @returns {Spec}
 */
function vegaLiteOutput(output, rows) {
  const spec = /** @type {Spec | null | undefined} the agent's; only `data` is looked at here */ (output.spec);
  if (!spec || typeof spec !== 'object') throw new Error('vega_lite output has no spec');
  const url = dataUrl(spec);
  if (typeof url === 'string' && /^[a-z][a-z0-9+.-]*:|^\/\//i.test(url))
    throw new Error(`vega_lite data.url ${url} refused: only files of the conversation`);
  if (rows && (url !== undefined || !spec.data)) return { ...spec, data: { values: rows } };
  return spec;
}

/**
 * A spec's `data.url`, if it has one.
 * @param {Spec} spec
 */
export function dataUrl(spec) {
  const data = spec.data;
  return data && typeof data === 'object' && 'url' in data ? data.url : undefined;
}

/**
 * @param {Row[]} rows
 * @param {string | undefined} name
 * @param {string} what
 */
function requireColumn(rows, name, what) {
  if (!name) throw new Error(`config.${what} is missing`);
  if (rows.length && !(name in rows[0]))
    throw new Error(
      `config.${what} names column "${name}", which the data does not have (columns: ${Object.keys(rows[0]).join(', ')})`,
    );
  return name;
}

/**
 * quantitative for numbers, temporal for ISO-like dates, nominal otherwise (judged on the non-empty values).
 * @param {Row[]} rows
 * @param {string} field
 * @returns {FieldType}
 */
export function fieldType(rows, field) {
  const values = rows.map((r) => r[field]).filter((v) => v !== null && v !== undefined && v !== '');
  if (values.length && values.every((v) => typeof v === 'number')) return 'quantitative';
  if (values.length && values.every((v) => typeof v === 'string' && /^\d{4}-\d{2}(-\d{2})?([T ][\d:.]+Z?)?$/.test(v)))
    return 'temporal';
  return 'nominal';
}
