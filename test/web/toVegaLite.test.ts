import { describe, expect, it } from 'vitest';
import { fieldType, toVegaLite } from '../../web/viz/toVegaLite.js';
import { tableRows } from '../../web/viz/tableRows.js';
import type { VisualizationOutput } from '../../analysis/conversation/types';

const sales = [
  { region: 'North', q1: 10, q2: 12, year: 2024 },
  { region: 'South', q1: 7, q2: 9, year: 2024 },
  { region: 'North', q1: 11, q2: 15, year: 2025 },
];
const out = (o: Partial<VisualizationOutput>): VisualizationOutput => ({ id: 'v', type: 'bar_chart', ...o });

describe('toVegaLite', () => {
  it('bar chart: nominal x in data order, axis titles from the labels, the title', () => {
    const spec = toVegaLite(
      out({ title: 'Sales', config: { xColumn: 'region', yColumn: 'q1', xLabel: 'Region', yLabel: 'Units' } }),
      sales,
    );
    expect(spec.mark?.type).toBe('bar');
    expect(spec.title).toBe('Sales');
    expect(spec.data).toEqual({ values: sales });
    expect(spec.data && 'values' in spec.data && spec.data.values).toBe(sales);
    expect(spec.encoding?.x).toMatchObject({ field: 'region', type: 'nominal', title: 'Region', sort: null });
    expect(spec.encoding?.y).toMatchObject({ field: 'q1', type: 'quantitative', title: 'Units' });
    expect(spec.encoding?.color).toBeUndefined();
  });

  it('several y columns fold into series: coloured, and side by side for bars', () => {
    const spec = toVegaLite(out({ config: { xColumn: 'region', yColumn: ['q1', 'q2'] } }), sales);
    expect(spec.transform).toEqual([{ fold: ['q1', 'q2'], as: ['__series', '__value'] }]);
    expect(spec.encoding?.y?.field).toBe('__value');
    expect(spec.encoding?.y?.title).toBe('q1, q2');
    expect(spec.encoding?.color?.field).toBe('__series');
    expect(spec.encoding?.xOffset?.field).toBe('__series');
  });

  it('groupBy colours a line chart; numeric x is quantitative; no xOffset outside bars', () => {
    const spec = toVegaLite(
      out({ type: 'line_chart', config: { xColumn: 'year', yColumn: 'q1', groupBy: 'region' } }),
      sales,
    );
    expect(spec.mark?.type).toBe('line');
    expect(spec.encoding?.x?.type).toBe('quantitative');
    expect(spec.encoding?.color).toMatchObject({ field: 'region', title: 'region' });
    expect(spec.encoding?.xOffset).toBeUndefined();
  });

  it('scatter is a point mark; pie is an arc with theta and colour', () => {
    expect(toVegaLite(out({ type: 'scatter', config: { xColumn: 'q1', yColumn: 'q2' } }), sales).mark?.type).toBe(
      'point',
    );
    const pie = toVegaLite(out({ type: 'pie_chart', config: { labelColumn: 'region', valueColumn: 'q2' } }), sales);
    expect(pie.mark?.type).toBe('arc');
    expect(pie.encoding?.theta).toMatchObject({ field: 'q2', type: 'quantitative' });
    expect(pie.encoding?.color).toMatchObject({ field: 'region', type: 'nominal' });
  });

  it('names the config field and the columns when a column is missing', () => {
    expect(() => toVegaLite(out({ config: { xColumn: 'regio', yColumn: 'q1' } }), sales)).toThrow(
      /xColumn names column "regio".*columns: region, q1, q2, year/,
    );
    expect(() => toVegaLite(out({ config: { yColumn: 'q1' } }), sales)).toThrow('config.xColumn is missing');
    expect(() => toVegaLite(out({ type: 'image' }), sales)).toThrow(/type image/);
  });

  it('vega_lite specs: data from the conversation file replaces a relative url; network urls are refused', () => {
    const spec = { mark: 'bar', data: { url: 'out/sales.csv' }, encoding: {} };
    expect(toVegaLite(out({ type: 'vega_lite', spec }), sales).data).toEqual({ values: sales });
    expect(() =>
      toVegaLite(out({ type: 'vega_lite', spec: { ...spec, data: { url: 'https://evil.example/x.csv' } } }), undefined),
    ).toThrow(/refused/);
    const inline = { mark: 'bar', data: { values: [{ a: 1 }] } };
    expect(toVegaLite(out({ type: 'vega_lite', spec: inline }), undefined)).toBe(inline);
  });

  it('fieldType tells numbers, ISO dates and names apart', () => {
    expect(fieldType([{ d: '2024-01-02' }, { d: '2024-02' }], 'd')).toBe('temporal');
    expect(fieldType([{ d: 1 }, { d: '' }], 'd')).toBe('quantitative');
    expect(fieldType([{ d: 'a' }], 'd')).toBe('nominal');
  });
});

describe('tableRows', () => {
  it('keeps the configured columns in order and at most maxRows rows', () => {
    const t = tableRows(sales, { columns: ['q2', 'region'], maxRows: 2 });
    expect(t.columns).toEqual(['q2', 'region']);
    expect(t.rows).toEqual([
      [12, 'North'],
      [9, 'South'],
    ]);
    expect(t).toMatchObject({ total: 3, truncated: true });
    expect(tableRows(sales).columns).toEqual(['region', 'q1', 'q2', 'year']);
    expect(() => tableRows(sales, { columns: ['nope'] })).toThrow(/nope/);
  });
});
