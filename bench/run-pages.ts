/**
 * The run page and a task page of a 912-task run, in Chromium against the real server: time from navigation to the
 * page's content drawn, and what the browser downloads (API JSON, app and vendor scripts, CSS). The run is generated:
 * the 912 real instruction records (../shared/data/spreadsheetbench-912-instructions.json), seeded results with stage
 * records, cell diffs and conversations for every task, a summary.json written by the real finalize, and real
 * workbooks (input, answer, output; a 40 × 6 answer range) for the task page that is opened.
 *   nice -n 10 node --import tsx bench/run-pages.ts [--runs 5]
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page, Response } from 'playwright-core';
import { configSchema } from '../config/schema';
import { connectClient } from '../lib/temporal/connection';
import { startServer } from '../server/start';
import { finalizeSpreadsheetRun } from '../benchmarks/spreadsheetbench/finalize';
import type { SheetTask } from '../benchmarks/spreadsheetbench/dataset';
import type { TaskCellDiffs } from '../benchmarks/spreadsheetbench/scoring';
import { seededRandom } from '../benchmarks/report/statistics';
import { sharedData } from '../test/helpers/sharedData';
import { startTestTemporal, TEST_NAMESPACE } from '../test/helpers/temporalServer';
import { launchChromium } from '../test/web/browser';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg('runs', 5);
const RUN_ID = 'bench-912';
const SETTING = 'single';
const MODEL = 'bench-model';

const root = await mkdtemp(path.join(os.tmpdir(), 'sb-run-pages-'));
const runsDir = path.join(root, 'runs');
const runDir = path.join(runsDir, RUN_ID);
const datasetDir = path.join(root, 'dataset');
const tasks = JSON.parse(await readFile(sharedData('spreadsheetbench-912-instructions.json'), 'utf8')) as SheetTask[];
const opened = tasks.find((t) => t.instruction_type === 'Sheet-Level Manipulation')!;
const t0 = Date.now();
await generateRun();
console.log(
  `generated a ${tasks.length}-task run (results, cell diffs, conversations, executions; summary by finalize) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);

const temporal = await startTestTemporal();
const client = await connectClient({ address: temporal.address, namespace: TEST_NAMESPACE });
const config = configSchema.parse({
  temporal: { address: temporal.address, namespace: TEST_NAMESPACE },
  server: { stateDir: path.join(root, 'server') },
  conversation: { dir: path.join(root, 'conversations') },
});
const server = await startServer({
  config,
  client,
  temporal: { address: temporal.address, namespace: TEST_NAMESPACE },
  port: 0,
  runsDir,
});
try {
  const api = async (p: string) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${p}`, { headers: { authorization: `Bearer ${server.token}` } });
    const body = await res.arrayBuffer();
    if (!res.ok) throw new Error(`${p}: ${res.status} ${Buffer.from(body).toString()}`);
    return { ms: performance.now() - started, bytes: body.byteLength };
  };
  for (const [label, p] of [
    ['GET /api/runs/:id', `/api/runs/${RUN_ID}`],
    ['GET /api/runs/:id/tasks/:task', `/api/runs/${RUN_ID}/tasks/${encodeURIComponent(String(opened.id))}`],
    ['GET …/cases/1/grid', `/api/runs/${RUN_ID}/tasks/${encodeURIComponent(String(opened.id))}/cases/1/grid`],
  ] as const) {
    const first = await api(p);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await api(p);
      times.push(r.ms);
      bytes = r.bytes;
    }
    console.log(
      `${label}: first ${first.ms.toFixed(0)} ms, then median ${median(times).toFixed(0)} ms (request to last byte), ${(bytes / 1024).toFixed(1)} KB of JSON`,
    );
  }

  const browser = await launchChromium();
  const runUrl = `${server.url}/#/runs/${RUN_ID}`;
  const taskUrl = `${server.url}/#/runs/${RUN_ID}/t/${encodeURIComponent(String(opened.id))}`;
  const results: Record<string, Measure[]> = {};
  const add = (label: string, m: Measure) => (results[label] ??= []).push(m);
  for (let r = 0; r < RUNS; r++) {
    for (const [name, url, done] of [
      [
        'run page',
        runUrl,
        { selector: 'table.task-table tbody tr', count: tasks.length, also: '.score-cards .hard dd' },
      ],
      ['task page', taskUrl, { selector: '.sheet-got table.cells', count: 3, also: '.step-card[data-stage=generate]' }],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      // Signed in by the session cookie alone, so the first page load is a cold one (empty cache).
      const signedIn = await context.request.post(`${server.url}/api/session`, { data: { token: server.token } });
      if (!signedIn.ok()) throw new Error(`sign-in refused: ${signedIn.status()} ${await signedIn.text()}`);
      const page = await context.newPage();
      add(`${name}, first load (empty cache)`, await measure(page, () => page.goto(url), done));
      add(`${name}, reload (cached app)`, await measure(page, () => page.reload(), done));
      // Within the app: from the runs list, the hash changes to the page.
      await page.goto(`${server.url}/#/runs`);
      await page.locator('table.runs-table').waitFor();
      add(
        `${name}, opened from the runs list`,
        await measure(
          page,
          () =>
            page.evaluate(
              (hash) => void ((globalThis as unknown as { location: { hash: string } }).location.hash = hash),
              new URL(url).hash,
            ),
          done,
          true,
        ),
      );
      await context.close();
    }
  }
  await browser.close();
  for (const [label, ms] of Object.entries(results)) report(label, ms);
} finally {
  await server.close();
  await client.connection.close();
  await temporal.stop();
}

interface Measure {
  ms: number;
  apiBytes: number;
  jsBytes: number;
  cssBytes: number;
  requests: number;
}

interface Drawn {
  selector: string;
  count: number;
  also: string;
}

/**
 * Time from navigation start (or, `inApp`, from the hash change) until `done` is drawn, and the bytes of every response
 * body the page received meanwhile.
 */
async function measure(page: Page, navigate: () => Promise<unknown>, done: Drawn, inApp = false): Promise<Measure> {
  const start = inApp ? await page.evaluate(() => performance.now()) : 0;
  const pending: Promise<void>[] = [];
  const m = { apiBytes: 0, jsBytes: 0, cssBytes: 0, requests: 0 };
  const onResponse = (res: Response) => {
    m.requests++;
    const type = res.request().resourceType();
    const url = new URL(res.url());
    // What came over the wire (a cached or revalidated file costs its 304, not its body).
    pending.push(
      res
        .request()
        .sizes()
        .then(
          ({ responseBodySize }) => {
            const b = Math.max(0, responseBodySize); // -1: served from the cache
            if (url.pathname.startsWith('/api/')) m.apiBytes += b;
            else if (type === 'script') m.jsBytes += b;
            else if (type === 'stylesheet') m.cssBytes += b;
          },
          () => undefined,
        ),
    );
  };
  page.on('response', onResponse);
  await navigate();
  // A function, not a string: the page's CSP refuses eval.
  const drawn = await page.waitForFunction(
    (d) => {
      const doc = (
        globalThis as unknown as {
          document: { querySelectorAll(s: string): { length: number }; querySelector(s: string): unknown };
        }
      ).document;
      return doc.querySelectorAll(d.selector).length >= d.count && doc.querySelector(d.also) !== null
        ? performance.now()
        : 0;
    },
    done,
    { timeout: 120_000, polling: 20 },
  );
  const ms = (await drawn.jsonValue()) - start;
  await Promise.all(pending);
  page.off('response', onResponse);
  return { ms, ...m };
}

function median(values: number[]): number {
  const v = [...values].sort((x, y) => x - y);
  return v[Math.floor(v.length / 2)];
}

function report(label: string, ms: Measure[]): void {
  const med = (k: keyof Measure) => median(ms.map((x) => x[k]));
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `${label}, median of ${ms.length}: drawn ${med('ms').toFixed(0)} ms after the navigation; downloaded (bodies over the wire) API JSON ${kb(med('apiBytes'))}, JS ${kb(med('jsBytes'))}, CSS ${kb(med('cssBytes'))}, ${med('requests')} requests`,
  );
}

/** The run folder: run.json, tasks.json, a result, cell diffs, a conversation and executions per task, then finalize. */
async function generateRun(): Promise<void> {
  const random = seededRandom(912);
  await mkdir(path.join(runDir, 'results'), { recursive: true });
  await writeJson(path.join(datasetDir, 'dataset.json'), tasks);
  await writeJson(path.join(runDir, 'run.json'), {
    runId: RUN_ID,
    benchmark: 'spreadsheetbench',
    edition: '912_v0.1',
    agent: 'single',
    setting: SETTING,
    datasetDir,
    datasetVersion: 'sha256:bench',
    scoringMode: 'official',
    createdAt: new Date().toISOString(),
    taskCount: tasks.length,
    llm: { provider: 'openai', model: MODEL },
    agentSettings: { maxTurns: 5, maxRevisions: 3, previewRows: 5, promptVersion: 'official-v1' },
    experimentHash: 'bench',
  });
  await writeJson(path.join(runDir, 'tasks.json'), tasks);
  for (const task of tasks) {
    const key = String(task.id);
    const cases = [1, 2, 3].map(() => (random() < 0.45 ? 1 : 0));
    const soft = cases.filter((c) => c === 1).length / 3;
    const stages = [
      {
        stage: 'prepare',
        llmCalls: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        wallMs: 20,
        outcome: 'ok',
      },
      {
        stage: 'generate',
        llmCalls: 1,
        usage: { inputTokens: 2000 + Math.round(random() * 3000), outputTokens: 300 + Math.round(random() * 500) },
        costUsd: 0.002,
        wallMs: 4000,
        outcome: 'ok',
      },
      {
        stage: 'execute',
        llmCalls: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        wallMs: 1500,
        outcome: 'ok',
      },
    ];
    const failure = random() < 0.03 ? { class: 'model', message: 'reply has no code' } : undefined;
    await writeJson(path.join(runDir, 'results', `${key}.json`), {
      taskId: key,
      id: task.id,
      instructionType: task.instruction_type,
      testCaseResults: cases,
      soft,
      hard: soft === 1 ? 1 : 0,
      ...(failure ? { failure } : {}),
      llmCalls: 1,
      usage: stages[1].usage,
      costUsd: 0.002,
      stages,
      reasons: cases.map((c) => (c ? null : 'Sheet1!B3: expected 4 got None')),
      wallMs: 5520,
    });
    const diffs: TaskCellDiffs = {
      taskId: key,
      id: task.id,
      mode: 'official',
      answerPosition: task.answer_position,
      testCases: cases.map((c, i) => ({
        index: i + 1,
        pass: c === 1,
        ...(c ? {} : { reason: 'Sheet1!B3: expected 4 got None' }),
        checkedCells: 120,
        mismatches: c
          ? []
          : Array.from({ length: 12 }, (_, j) => ({
              cell: `Sheet1!B${3 + j}`,
              expected: { value: j, type: 'number' as const },
              got: { value: null, type: 'empty' as const },
              check: 'value' as const,
            })),
        omitted: c ? 0 : 3,
        fill: { cells: 120, filled: 60 },
        inputPasses: false,
      })),
    };
    await writeJson(path.join(runDir, 'tasks', key, 'cell-diffs.json'), diffs);
    await writeJson(path.join(runDir, 'tasks', key, 'conversations', 'main.json'), [
      {
        role: 'user',
        content:
          `${task.instruction}\n\n### spreadsheet_path\n/mnt/data/${task.spreadsheet_path}/1_${key}_input.xlsx\n`.repeat(
            3,
          ),
      },
      {
        role: 'assistant',
        content:
          "```python\nimport openpyxl\nwb = openpyxl.load_workbook('in.xlsx')\nws = wb.active\nfor r in range(2, 40):\n    ws.cell(row=r, column=3, value=r * 2)\nwb.save('out.xlsx')\n```",
      },
    ]);
    for (const n of [1, 2, 3]) {
      await writeJson(path.join(runDir, 'tasks', key, 'executions', `final-tc${n}.json`), {
        label: `final-tc${n}`,
        testCase: n,
        code: 'import openpyxl\n# …',
        stdout: 'done\n',
        stderr: '',
        error: null,
        durationMs: 120,
      });
    }
  }
  await workbooks(opened);
  await finalizeSpreadsheetRun(runDir);
}

/** Input, answer and output workbooks of the opened task's three test cases: a 40 × 6 block of numbers and text. */
async function workbooks(task: SheetTask): Promise<void> {
  const key = String(task.id);
  const sheet = /^'?([^'!]+)'?!/.exec(task.answer_position)?.[1] ?? 'Sheet1';
  for (const n of [1, 2, 3]) {
    const book = async (file: string, fill: (r: number, c: number) => ExcelJS.CellValue) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet(sheet);
      for (let r = 1; r <= 40; r++) for (let c = 1; c <= 6; c++) ws.getCell(r, c).value = fill(r, c);
      ws.getColumn(3).numFmt = '#,##0.00';
      await mkdir(path.dirname(file), { recursive: true });
      await wb.xlsx.writeFile(file);
    };
    const value = (r: number, c: number) => (c === 1 ? `row ${r}` : r * c * 1.5);
    await book(path.join(datasetDir, task.spreadsheet_path, `${n}_${key}_input.xlsx`), (r, c) =>
      c > 3 ? null : value(r, c),
    );
    await book(path.join(datasetDir, task.spreadsheet_path, `${n}_${key}_answer.xlsx`), value);
    await book(path.join(runDir, 'outputs', `${SETTING}_${MODEL}`, `${n}_${key}_output.xlsx`), (r, c) =>
      r === 7 && c === 5 ? 0 : value(r, c),
    );
  }
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}
