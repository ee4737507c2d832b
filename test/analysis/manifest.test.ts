import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv, validateManifest } from '../../analysis/manifest/index';
import { makeWorkspace } from './helpers';

describe('visualization manifest validation', () => {
  const env = makeWorkspace();
  const ws = env.workspaceDir;
  afterAll(() => env.cleanup());
  const manifest = (outputs: unknown[], version = '1.0') =>
    writeFileSync(join(ws, 'visualization_manifest.json'), JSON.stringify({ version, outputs }));
  mkdirSync(join(ws, 'data'));
  writeFileSync(join(ws, 'data/sales.csv'), 'month,"sales, EUR",region\nJan,10,north\n"Feb",12,"so""uth"\n');
  writeFileSync(
    join(ws, 'data/rows.json'),
    JSON.stringify([
      { label: 'a', value: 1 },
      { label: 'b', value: 3 },
    ]),
  );
  writeFileSync(join(ws, 'chart.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));

  it('no manifest: nothing to show, no errors; unparseable or wrong version: one clear error', async () => {
    expect(await validateManifest(ws)).toEqual({ outputs: [], errors: [] });
    writeFileSync(join(ws, 'visualization_manifest.json'), '{"version": "1.0", "outputs": [');
    expect((await validateManifest(ws)).errors[0]).toMatch(/not valid JSON/);
    manifest([], '2.0');
    expect((await validateManifest(ws)).errors[0]).toMatch(/expected \{"version": "1.0"/);
  });

  it('accepts all seven output types when their files and columns exist', async () => {
    manifest([
      { id: 't', type: 'table', dataFile: 'data/sales.csv', config: { columns: ['month', 'sales, EUR'], maxRows: 10 } },
      {
        id: 'l',
        type: 'line_chart',
        dataFile: 'data/sales.csv',
        config: { xColumn: 'month', yColumn: ['sales, EUR'], xLabel: 'Month', yLabel: 'EUR', groupBy: 'region' },
      },
      { id: 'b', type: 'bar_chart', dataFile: 'data/sales.csv', config: { xColumn: 'region', yColumn: 'sales, EUR' } },
      { type: 'scatter', dataFile: 'data/rows.json', config: { xColumn: 'label', yColumn: 'value' } },
      {
        id: 'p',
        type: 'pie_chart',
        dataFile: 'data/rows.json',
        config: { labelColumn: 'label', valueColumn: 'value' },
      },
      { id: 'i', type: 'image', file: 'chart.png', title: 'A chart' },
      { id: 'v', type: 'vega_lite', spec: { mark: 'bar', data: { url: 'data/rows.json' }, encoding: {} } },
    ]);
    const { outputs, errors } = await validateManifest(ws);
    expect(errors).toEqual([]);
    expect(outputs.map((o) => [o.id, o.type])).toEqual([
      ['t', 'table'],
      ['l', 'line_chart'],
      ['b', 'bar_chart'],
      ['output-4', 'scatter'],
      ['p', 'pie_chart'],
      ['i', 'image'],
      ['v', 'vega_lite'],
    ]);
  });

  it('reports each wrong output with what to fix, and keeps the valid ones', async () => {
    mkdirSync(join(ws, 'sub'), { recursive: true });
    symlinkSync(env.secretPath, join(ws, 'sub/link.csv'));
    manifest([
      { id: 'ok', type: 'table', dataFile: 'data/sales.csv' },
      { id: 'col', type: 'bar_chart', dataFile: 'data/sales.csv', config: { xColumn: 'month', yColumn: 'revenue' } },
      { id: 'missing', type: 'table', dataFile: 'data/nope.csv' },
      { id: 'escape', type: 'table', dataFile: '../1_999_answer.xlsx' },
      { id: 'link', type: 'table', dataFile: 'sub/link.csv' },
      { id: 'kind', type: 'heatmap', dataFile: 'data/sales.csv' },
      { id: 'ok', type: 'image', file: 'chart.png' },
      { id: 'remote', type: 'vega_lite', spec: { data: { url: 'https://evil.example/x.csv' } } },
      { id: 'img', type: 'image', file: 'data/sales.csv' },
    ]);
    const { outputs, errors } = await validateManifest(ws);
    expect(outputs.map((o) => o.id)).toEqual(['ok']);
    const text = errors.join('\n');
    expect(text).toMatch(
      /outputs\[1\] \(id "col"\): column\(s\) "revenue" not in data\/sales\.csv \(its columns: "month", "sales, EUR", "region"\)/,
    );
    expect(text).toMatch(/outputs\[2\] \(id "missing"\): data\/nope\.csv does not exist in the workspace/);
    expect(text).toMatch(/outputs\[3\] \(id "escape"\): .*relative to the workspace/);
    expect(text).toMatch(/outputs\[4\] \(id "link"\): .*outside the workspace/);
    expect(text).toMatch(/outputs\[5\] \(id "kind"\)/);
    expect(text).toMatch(/outputs\[6\] \(id "ok"\): duplicate id/);
    expect(text).toMatch(
      /outputs\[7\] \(id "remote"\): data\.url "https:\/\/evil\.example\/x\.csv" must be a workspace-relative file/,
    );
    expect(text).toMatch(/outputs\[8\] \(id "img"\): image data\/sales\.csv must be one of/);
    expect(errors).toHaveLength(8);
  });

  it('never reads through a manifest symlinked out of the workspace', async () => {
    const path = join(ws, 'visualization_manifest.json');
    rmSync(path, { force: true });
    symlinkSync(env.secretPath, path);
    const { outputs, errors } = await validateManifest(ws);
    expect(outputs).toEqual([]);
    expect(errors[0]).toMatch(/resolves outside the workspace/);
    expect(errors.join()).not.toContain('SECRET-ANSWER');
    rmSync(path);
  });

  it('reports data files that do not parse', async () => {
    writeFileSync(join(ws, 'data/ragged.csv'), 'a,b\n1,2\n3\n');
    writeFileSync(join(ws, 'data/obj.json'), '{"a": 1}');
    manifest([
      { id: 'r', type: 'table', dataFile: 'data/ragged.csv' },
      { id: 'j', type: 'table', dataFile: 'data/obj.json' },
    ]);
    const { errors } = await validateManifest(ws);
    expect(errors[0]).toMatch(/row 3 has 1 fields, the header has 2/);
    expect(errors[1]).toMatch(/must hold a JSON array of records/);
  });

  it('parses RFC 4180 CSV (quotes, doubled quotes, newlines in fields, CRLF)', () => {
    expect(parseCsv('a,"b ""q""","c\nd"\r\n1,2,3\r\n')).toEqual([
      ['a', 'b "q"', 'c\nd'],
      ['1', '2', '3'],
    ]);
    expect(() => parseCsv('a,"b\n')).toThrow(/unterminated/);
  });
});
