/**
 * SpreadsheetBench 2 Visualization, its parts: the verdict of a judge's reply counted as the release counts it (items
 * passed over the checklist, an item left out does not pass, accuracy 1 only above 0.7), the judgment request sent by
 * the project's OpenAI provider to the scripted server (a real HTTP call of the real openai client) with the charts as
 * image parts, the scripted server refusing a malformed image part, and the charts exported by LibreOffice through
 * the UNO helpers shared with the recalculation bridge (lib/recalc/uno_session.py). The judging inside runs, kill -9,
 * rejudge and an unconfigured judge: visualizationRun.test.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { OpenAiProvider } from '../../lib/llm/openaiProvider';
import { ChartExportError, exportChartImages } from '../../lib/recalc/chartImages';
import {
  checklistOf,
  judgeRequest,
  verdictOf,
  type ChecklistItem,
} from '../../benchmarks/spreadsheetbench2/visualization/checklistJudge';
import { visionEndpointOf } from '../../benchmarks/spreadsheetbench2/visualization/visionEndpoint';
import { itemsToAsk, verdictOfRounds } from '../../benchmarks/spreadsheetbench2/visualization/judgeRounds';
import { prepareCharts } from '../../benchmarks/spreadsheetbench2/visualization/preparedCharts';
import { visionJudgeConfigSchema } from '../../config/schema';
import { hasSandboxPython, runPython } from '../scoring/oracle';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-vis-'));
let server: ScriptedServer;
let answer = '';

beforeAll(async () => {
  server = await startScriptedServer({
    script: { rules: [{ name: 'vision', match: { minImages: 1 }, reply: () => answer }] },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

const TEN: ChecklistItem[] = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, assertion: `item ${i + 1}` }));
const passing = (n: number) => JSON.stringify({ pass_ids: TEN.slice(0, n).map((c) => c.id), fail: [] });

describe('the verdict of a reply, counted as the release counts it', () => {
  it('accuracy 1 only above 0.7: 7 of 10 fails, 8 of 10 passes', () => {
    expect(verdictOf(passing(7), TEN)).toMatchObject({
      verdict: 'judged',
      score: 0.7,
      accuracy: 0,
      missing: [8, 9, 10],
    });
    expect(verdictOf(passing(8), TEN)).toMatchObject({ verdict: 'judged', score: 0.8, accuracy: 1 });
  });

  it('reads pass_ids and fail, an older results list, markdown fences and box markers; ids as strings', () => {
    const reply =
      '<|begin_of_box|>```json\n{"results": [{"id": 1, "result": "PASS"}, {"id": 2, "result": "fail", "reason": "no title"}],' +
      ' "pass_ids": ["3"], "fail": [{"id": 2, "reason": "title missing"}, 4]}\n```<|end_of_box|>';
    const v = verdictOf(reply, TEN.slice(0, 4));
    expect(v).toMatchObject({ verdict: 'judged', score: 0.5, accuracy: 0, missing: [] });
    expect(v.verdict === 'judged' && v.items).toEqual([
      { id: 1, pass: true },
      { id: 2, pass: false, reason: 'title missing' },
      { id: 3, pass: true },
      { id: 4, pass: false },
    ]);
  });

  it('ids the checklist does not have are ignored; an item left out does not pass', () => {
    const v = verdictOf('{"pass_ids": [1, 2, 99], "fail": []}', TEN.slice(0, 3));
    expect(v).toMatchObject({ score: 2 / 3, accuracy: 0, missing: [3] });
  });

  it('a reply with no JSON object is unparseable (accuracy 0, judged again by rejudge)', () => {
    expect(verdictOf('The chart looks fine.', TEN)).toEqual({ verdict: 'unparseable', accuracy: 0 });
    expect(verdictOf('{"pass_ids": [1, 2', TEN)).toEqual({ verdict: 'unparseable', accuracy: 0 });
  });

  it('repairs ask only for the items no round answered; the verdict counts every round over the whole checklist', () => {
    const round = (n: number, verdict: 'judged' | 'unparseable', items: { id: number; pass: boolean }[]) => ({
      round: n,
      callKey: `k${n}`,
      asked: [],
      verdict,
      items,
      reply: '',
      usage: { inputTokens: 1, outputTokens: 1 },
      costUsd: 0,
    });
    const three = TEN.slice(0, 3);
    const first = round(0, 'judged', [
      { id: 1, pass: true },
      { id: 2, pass: true },
    ]);
    expect(itemsToAsk(three, []).map((c) => c.id)).toEqual([1, 2, 3]);
    expect(itemsToAsk(three, [first]).map((c) => c.id)).toEqual([3]);
    expect(verdictOfRounds(three, [first])).toMatchObject({ score: 2 / 3, accuracy: 0, missing: [3] });
    expect(verdictOfRounds(three, [first, round(1, 'judged', [{ id: 3, pass: true }])])).toMatchObject({
      score: 1,
      accuracy: 1,
      missing: [],
    });
    // An unparseable repair adds nothing; an unparseable first reply is the verdict (no repair follows it).
    expect(verdictOfRounds(three, [first, round(1, 'unparseable', [])])).toMatchObject({ score: 2 / 3, missing: [3] });
    expect(verdictOfRounds(three, [round(0, 'unparseable', [])])).toEqual({ verdict: 'unparseable', accuracy: 0 });
  });

  it("the checklist is the record's criteria: instruction, else description; the chart it names", () => {
    expect(
      checklistOf({
        criteria: [
          { id: 1, instruction: 'a bar chart' },
          { id: 'b', description: 'titled Sales', chart: 'Sales' },
        ],
      }),
    ).toEqual([
      { id: 1, assertion: 'a bar chart' },
      { id: 'b', assertion: 'titled Sales', chart: 'Sales' },
    ]);
    expect(checklistOf({})).toEqual([]);
  });
});

describe('the vision endpoint', () => {
  const config = (over: Record<string, unknown> = {}) =>
    visionJudgeConfigSchema.parse({ baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'SB2_TEST_KEY', ...over });

  it("defaults are the release's; without a base URL or a key it says why nothing is judged", () => {
    expect(visionJudgeConfigSchema.parse({})).toMatchObject({ model: 'glm-4.6v', temperature: 0.1, maxTokens: 4096 });
    expect(visionEndpointOf(visionJudgeConfigSchema.parse({}), { SB2_TEST_KEY: 'k' })).toEqual({
      ready: false,
      reason: 'no vision judge is configured (set visionJudge.baseUrl, then run rejudge)',
    });
    expect(visionEndpointOf(config(), {})).toEqual({
      ready: false,
      reason: "the vision judge's key is not set (environment variable SB2_TEST_KEY, or OPENAI_API_KEY)",
    });
    expect(visionEndpointOf(config(), { OPENAI_API_KEY: 'o' })).toMatchObject({ ready: true, apiKey: 'o' });
    expect(visionEndpointOf(config(), { SB2_TEST_KEY: 'k' }, 'other-vlm')).toMatchObject({
      ready: true,
      apiKey: 'k',
      model: 'other-vlm',
    });
  });

  it('the request reaches an OpenAI-compatible server with every chart as a PNG image part', async () => {
    const charts = ['1', '2'].map((seed) => ({
      label: `Data chart ${seed}`,
      png: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(seed)]),
    }));
    const request = judgeRequest(
      { model: 'scripted-vision', temperature: 0.1, maxTokens: 4096 },
      TEN.slice(0, 3),
      charts,
    );
    answer = '{"pass_ids": [1, 3], "fail": [{"id": 2, "reason": "no legend"}]}';
    const provider = new OpenAiProvider({ baseUrl: server.url, apiKey: 'none', requestTimeoutMs: 30_000 });
    const response = await provider.complete(request, { callKey: 'test/vis/chart-judge' });
    expect(verdictOf(response.text, TEN.slice(0, 3))).toMatchObject({ score: 2 / 3, accuracy: 0 });
    const entry = server.log.at(-1)!;
    expect(entry.images?.map((i) => i.sha256)).toEqual(
      charts.map((c) => createHash('sha256').update(c.png).digest('hex')),
    );
    expect(entry.messages[0]).toMatchObject({ role: 'system' });
    expect(entry.messages[0].content).toContain('"pass_ids"');
    expect(entry.messages[1].content).toContain('2. item 2');
    expect(entry.messages[1].content).toContain('Data chart 1; Data chart 2');
  });

  it('the scripted server refuses a malformed or remote image part, naming where it is', async () => {
    const openai = new OpenAI({ baseURL: server.url, apiKey: 'none', maxRetries: 0 });
    for (const url of ['https://example.com/a.png', 'data:image/png;base64,', 'data:text/html;base64,PGgxPg==']) {
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
      expect((err as Error).message).toContain('messages.0.content.1: image_url.url must be a base64 data URL');
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
    // Limits against a hostile output: more charts than sent are left out and counted; an oversized image is named.
    const task = {
      id: 'v1',
      instruction: 'chart',
      spreadsheet_path: 'in.xlsx',
      golden_response_path: 'a.xlsx',
      answer_position: 'A1',
      category: 'Visualization',
      categoryDir: tmp,
      criteria: [{ id: 1, instruction: 'a chart' }],
    };
    const limits = { maxCharts: 1, maxImageBytes: 10_000_000, exportTimeoutMs: 120_000 };
    const few = await prepareCharts(
      tmp,
      task,
      'v1',
      { workbook: charts, image: path.join(tmp, 'v1_output.png') },
      limits,
    );
    expect(few.ready && few.stored).toMatchObject({ charts: [{ label: 'Data chart 1' }], chartsLeftOut: 1 });
    const big = await prepareCharts(
      tmp,
      task,
      'v1',
      { workbook: charts, image: path.join(tmp, 'v1_output.png') },
      { ...limits, maxImageBytes: 100 },
    );
    expect(big).toMatchObject({ ready: false, judgment: { verdict: 'export_failed', accuracy: 0 } });
    expect(!big.ready && big.judgment.message).toMatch(
      /^task v1: chart "Data chart 1" is \d+ bytes as a PNG, over visionJudge\.maxImageBytes \(100\)$/,
    );
    const corrupt = path.join(tmp, 'corrupt.xlsx');
    writeFileSync(corrupt, 'no workbook');
    const err = await exportChartImages(corrupt).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChartExportError);
    expect((err as Error).message).toContain(`charts of ${corrupt} could not be exported: load failed`);
  }, 240_000);
});
