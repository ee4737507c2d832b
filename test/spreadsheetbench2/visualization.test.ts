/**
 * SpreadsheetBench 2 Visualization: an output's charts exported as PNG by headless LibreOffice, judged by a vision
 * endpoint (the scripted OpenAI-compatible server, which now takes image content parts) with the checklist rule
 * (accuracy 1 above 0.7); an unparseable reply is recorded as such; a malformed image part is refused as OpenAI does.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer, type ScriptedRequest } from '../../lib/scriptedLlm';
import { exportChartImages, ChartExportError } from '../../benchmarks/spreadsheetbench2/visualization/chartImages';
import { judgeCharts, type ChartImage } from '../../benchmarks/spreadsheetbench2/visualization/checklistJudge';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import { benchmarkNamed } from '../../benchmarks';
import {
  judgeVisualizationOutput,
  readChartJudgment,
} from '../../benchmarks/spreadsheetbench2/visualization/judgeOutput';
import { V2RunFiles } from '../../benchmarks/spreadsheetbench2';
import { buildV2Run, V2_MODEL, V2_SETTING } from './v2RunFolder';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-vis-'));
let server: ScriptedServer;
/** The judge's answer per request: how many of the items it says are satisfied, or a reply that is no verdict. */
let answer: (request: ScriptedRequest) => string = () => '';

beforeAll(async () => {
  server = await startScriptedServer({
    script: { rules: [{ name: 'vision', match: { minImages: 1 }, reply: (r) => answer(r) }] },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

const items = (yes: boolean[]) =>
  JSON.stringify({ items: yes.map((satisfied, i) => ({ item: i + 1, satisfied, why: 'seen' })) });
const CHECKLIST = ['a bar chart of the sales', 'titled "Sales"', 'one bar per region'];
const png = (seed: string): ChartImage => ({
  label: `Data chart ${seed}`,
  // A real PNG signature + bytes: the server checks the data URL, not the picture.
  png: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(seed)]),
});

describe('checklist judge on a vision endpoint', () => {
  const endpoint = () => ({ baseUrl: server.url, model: 'scripted-vision', apiKey: 'none' });

  it('sends the charts as image parts; accuracy 1 only above 0.7 of the items', async () => {
    answer = () => items([true, true, true]);
    const all = await judgeCharts(endpoint(), { instruction: 'chart the sales', checklist: CHECKLIST }, [png('1')]);
    expect(all).toMatchObject({ verdict: 'judged', score: 1, accuracy: 1 });
    answer = () => `Here is my verdict: ${items([true, true, false])}`;
    const two = await judgeCharts(endpoint(), { instruction: 'chart the sales', checklist: CHECKLIST }, [
      png('1'),
      png('2'),
    ]);
    expect(two.verdict).toBe('judged');
    expect(two.score).toBeCloseTo(2 / 3, 10);
    expect(two.accuracy).toBe(0);
    const entry = server.log.at(-1)!;
    expect(entry.images?.map((i) => i.sha256)).toEqual(
      [png('1'), png('2')].map((c) => createHash('sha256').update(c.png).digest('hex')),
    );
    expect(entry.messages[0].content).toContain('3. one bar per region');
  });

  it('a reply that answers no item, or not every item, is unparseable (to re-judge), not a fail', async () => {
    answer = () => 'The chart looks fine.';
    const none = await judgeCharts(endpoint(), { instruction: 'x', checklist: CHECKLIST }, [png('1')]);
    expect(none).toMatchObject({ verdict: 'unparseable', accuracy: 0, reply: 'The chart looks fine.' });
    answer = () => items([true, true]);
    expect((await judgeCharts(endpoint(), { instruction: 'x', checklist: CHECKLIST }, [png('1')])).verdict).toBe(
      'unparseable',
    );
  });

  it('an output without charts fails without asking the model', async () => {
    const before = server.log.length;
    expect(await judgeCharts(endpoint(), { instruction: 'x', checklist: CHECKLIST }, [])).toMatchObject({
      verdict: 'no_charts',
      accuracy: 0,
    });
    expect(server.log.length).toBe(before);
  });

  it('the scripted server refuses a malformed or remote image part, naming where it is', async () => {
    const openai = new OpenAI({ baseURL: server.url, apiKey: 'none', maxRetries: 0 });
    for (const [url, why] of [
      ['https://example.com/a.png', 'must be a base64 data URL'],
      ['data:image/png;base64,', 'must be a base64 data URL'],
      ['data:text/html;base64,PGgxPg==', 'must be a base64 data URL'],
    ]) {
      const err = await openai.chat.completions
        .create({
          model: 'scripted-vision',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'judge' },
                { type: 'image_url', image_url: { url } },
              ],
            },
          ],
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
      expect((err as Error).message).toContain(`messages.0.content.1: image_url.url ${why}`);
    }
  });
});

describe.skipIf(!hasSandboxPython)('charts exported by LibreOffice', () => {
  it('every chart of every sheet as a PNG; none from a workbook without charts; a corrupt file named', async () => {
    const script = [
      'import sys, openpyxl',
      'from openpyxl.chart import BarChart, LineChart, Reference',
      'wb = openpyxl.Workbook(); ws = wb.active; ws.title = "Data"',
      'for r in range(1, 6): ws.append([f"r{r}", r * 10, r * r])',
      'c = BarChart(); c.title = "Sales"; c.add_data(Reference(ws, min_col=2, min_row=1, max_row=5)); ws.add_chart(c, "E2")',
      'other = wb.create_sheet("Trend")',
      'l = LineChart(); l.add_data(Reference(ws, min_col=3, min_row=1, max_row=5)); other.add_chart(l, "A1")',
      'wb.save(sys.argv[1])',
      'plain = openpyxl.Workbook(); plain.active["A1"] = 1; plain.save(sys.argv[2])',
    ].join('\n');
    const charts = path.join(tmp, 'charts.xlsx');
    const plain = path.join(tmp, 'plain.xlsx');
    runPython(['-c', script, charts, plain], '');
    const images = await exportChartImages(charts);
    expect(images.map((i) => i.label)).toEqual(['Data chart 1', 'Trend chart 1']);
    for (const i of images) {
      expect(i.png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(i.png.length).toBeGreaterThan(1000);
    }
    expect(await exportChartImages(plain)).toEqual([]);
    const corrupt = path.join(tmp, 'corrupt.xlsx');
    writeFileSync(corrupt, 'no workbook');
    await expect(exportChartImages(corrupt)).rejects.toThrow(ChartExportError);
    await expect(exportChartImages(corrupt)).rejects.toThrow(corrupt);
  }, 240_000);
});

describe.skipIf(!hasSandboxPython)('a Visualization task of a run judged on its charts, and judged again', () => {
  it('the judgment is recorded beside the task and enters the figures; judging again re-runs nothing', async () => {
    runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), path.join(tmp, 'gen')], '');
    const chartBook = path.join(tmp, 'vis0-charts.xlsx');
    runPython(
      [
        '-c',
        [
          'import sys, openpyxl',
          'from openpyxl.chart import BarChart, Reference',
          'wb = openpyxl.Workbook(); ws = wb.active; ws.title = "Data "',
          'for r in range(1, 6): ws.append([r * 10, r * 2.5])',
          'ws["D1"] = "Total"; ws["D2"] = 150',
          'c = BarChart(); c.title = "Sales"; c.add_data(Reference(ws, min_col=1, min_row=1, max_row=5)); ws.add_chart(c, "F2")',
          'wb.save(sys.argv[1])',
        ].join('\n'),
        chartBook,
      ],
      '',
    );
    const runs = path.join(tmp, 'runs');
    const runDir = await buildV2Run(runs, {
      runId: 'vis-run',
      dataset: path.join(tmp, 'gen/data/Visualization'),
      variants: path.join(tmp, 'gen/outputs'),
      outputOf: () => readFileSync(chartBook),
    });
    const output = new V2RunFiles(runDir, V2_SETTING, V2_MODEL).outputPath('vis0');
    const judge = () =>
      judgeVisualizationOutput({
        runDir,
        key: 'vis0',
        instruction: 'chart the totals',
        checklist: CHECKLIST,
        output,
        endpoint: { baseUrl: server.url, model: 'scripted-vision', apiKey: 'none' },
      });
    answer = () => 'I cannot tell.';
    expect(await judge()).toMatchObject({ verdict: 'unparseable', accuracy: 0, images: [{ label: 'Data  chart 1' }] });
    const resultFile = path.join(runDir, 'results', 'vis0.json');
    const resultBefore = statSync(resultFile).mtimeMs;
    const v2 = benchmarkNamed('spreadsheetbench2');
    const figure = async () =>
      (await v2.finalize(runDir)) as { figures: { name: string; overall: number; byGroup: Record<string, number> }[] };
    expect((await figure()).figures.at(-1)).toEqual({
      name: 'chart accuracy (vision checklist > 0.7)',
      overall: 0,
      byGroup: { Visualization: 0 },
    });
    answer = (r) => (r.images.length === 1 ? items([true, true, true]) : 'no');
    await judge();
    expect((await readChartJudgment(runDir, 'vis0'))?.verdict).toBe('judged');
    expect((await figure()).figures.at(-1)?.byGroup).toEqual({ Visualization: 1 });
    expect(statSync(resultFile).mtimeMs).toBe(resultBefore);
  }, 240_000);
});
