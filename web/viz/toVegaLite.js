// Compiles a visualization-manifest output (v1.0 line/bar/scatter/pie, plus agent-written vega_lite specs) into a Vega-Lite
// spec. A plain module: the browser and the unit tests import the same file.

const MARKS = { line_chart: 'line', bar_chart: 'bar', scatter: 'point' };
const SERIES = '__series';
const VALUE = '__value';

/** The Vega-Lite spec of one manifest output over its parsed data rows. Throws an Error naming what is wrong. */
export function toVegaLite(output, rows) {
  if (output.type === 'vega_lite') return vegaLiteOutput(output, rows);
  const config = output.config ?? {};
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

function xyChart(mark, config, rows) {
  const x = requireColumn(rows, config.xColumn, 'xColumn');
  const ys = (Array.isArray(config.yColumn) ? config.yColumn : [config.yColumn]).map((y) =>
    requireColumn(rows, y, 'yColumn'),
  );
  const group = config.groupBy ? requireColumn(rows, config.groupBy, 'groupBy') : undefined;
  const many = ys.length > 1;
  const xType = mark === 'bar' ? 'nominal' : fieldType(rows, x);
  const encoding = {
    x: { field: x, type: xType, title: config.xLabel ?? x, ...(xType === 'nominal' ? { sort: null } : {}) },
    y: { field: many ? VALUE : ys[0], type: 'quantitative', title: config.yLabel ?? (many ? ys.join(', ') : ys[0]) },
  };
  const colorField = many ? SERIES : group;
  if (colorField) {
    encoding.color = { field: colorField, type: 'nominal', title: many ? 'series' : group };
    if (mark === 'bar') encoding.xOffset = { field: colorField, type: 'nominal' };
  }
  const spec = { mark: { type: mark, tooltip: true, ...(mark === 'line' ? { point: true } : {}) }, encoding };
  if (many) spec.transform = [{ fold: ys, as: [SERIES, VALUE] }];
  return spec;
}

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

/** An agent-written spec: its data may only come from the conversation's files (relative URLs), never from the network. */
function vegaLiteOutput(output, rows) {
  const spec = output.spec;
  if (!spec || typeof spec !== 'object') throw new Error('vega_lite output has no spec');
  const url = spec.data?.url;
  if (typeof url === 'string' && /^[a-z][a-z0-9+.-]*:|^\/\//i.test(url))
    throw new Error(`vega_lite data.url ${url} refused: only files of the conversation`);
  if (rows && (url !== undefined || !spec.data)) return { ...spec, data: { values: rows } };
  return spec;
}

function requireColumn(rows, name, what) {
  if (!name) throw new Error(`config.${what} is missing`);
  if (rows.length && !(name in rows[0]))
    throw new Error(
      `config.${what} names column "${name}", which the data does not have (columns: ${Object.keys(rows[0]).join(', ')})`,
    );
  return name;
}

/** quantitative for numbers, temporal for ISO-like dates, nominal otherwise (judged on the non-empty values). */
export function fieldType(rows, field) {
  const values = rows.map((r) => r[field]).filter((v) => v !== null && v !== undefined && v !== '');
  if (values.length && values.every((v) => typeof v === 'number')) return 'quantitative';
  if (values.length && values.every((v) => typeof v === 'string' && /^\d{4}-\d{2}(-\d{2})?([T ][\d:.]+Z?)?$/.test(v)))
    return 'temporal';
  return 'nominal';
}
