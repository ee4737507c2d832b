/**
 * A v2 run's dataset files: the input and answer recalculated once per content on the recalc queue (a second run finds
 * the cache and makes nothing), placed in the run folder, the dataset's files never written; a link, a path leaving
 * the category folder or a missing file is never read; an engine failure uses the file as it is, named. And
 * checked_vote's adapter: a v2 task as a one-test-case SpreadsheetBench run folder that SpreadsheetBench's own readers
 * accept, holding only the (recalculated) input.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2RecalcActivities } from '../../activities/spreadsheetbench2/recalculatedCopies';
import { collectCheckedVoteOutput, prepareCheckedVote } from '../../activities/spreadsheetbench2/checkedVote';
import { adaptedPosition } from '../../benchmarks/spreadsheetbench2/checkedVote/adapter';
import { loadV2Dataset, V2RunFiles } from '../../benchmarks/spreadsheetbench2';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { testCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import type { Recalculator } from '../../lib/recalc/types';
import type { V2DatasetCopies } from '../../benchmarks/spreadsheetbench2/run/datasetCopies';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-copies-'));
const category = path.join(tmp, 'data', 'Financial_Model');
const outside = path.join(tmp, 'secret.xlsx');
const MODEL = 'scripted-model';

async function book(file: string, sheet: string, cells: Record<string, ExcelJS.CellValue>): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const [ref, v] of Object.entries(cells)) ws.getCell(ref).value = v;
  mkdirSync(path.dirname(file), { recursive: true });
  await wb.xlsx.writeFile(file);
}

const record = (id: string, input: string, answer = `spreadsheet/${id}/answer.xlsx`) => ({
  id,
  instruction: `do ${id}`,
  spreadsheet_path: input,
  golden_response_path: answer,
  answer_position: 'model!A1:B2',
  category: 'Financial_Model',
  categoryDir: category,
});

const TASKS = [
  record('ok', 'spreadsheet/ok/input.xlsx'),
  record('same', 'spreadsheet/same/input.xlsx'),
  record('linked', 'spreadsheet/linked/input.xlsx'),
  record('escapes', '../secret.xlsx'),
  record('missing', 'spreadsheet/missing/input.xlsx'),
  record('unopenable', 'spreadsheet/unopenable/input.xlsx'),
];

/** A v2 run folder over TASKS (what `run` writes: run.json and tasks.json). */
function makeRun(name: string): string {
  const dir = path.join(tmp, 'runs', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'run.json'),
    JSON.stringify({
      runId: name,
      benchmark: 'spreadsheetbench2',
      edition: 'v2',
      agent: 'checked_vote',
      setting: 'checked_vote',
      datasetDir: path.join(tmp, 'data'),
      datasetVersion: 'sha256:fixture',
      scoringMode: 'official',
      createdAt: '2026-11-26T20:00:00.000Z',
      taskCount: TASKS.length,
      llm: { provider: 'openai', model: MODEL, temperature: 0 },
      agentSettings: { maxTurns: 5, maxRevisions: 3, previewRows: 5, promptVersion: 'fixture' },
      experimentHash: `hash-${name}`,
    }),
  );
  writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify(TASKS));
  return dir;
}

/** An engine that copies the file and marks it (or fails with a scripted error), counting its calls. */
function countingEngine(failures: Record<string, string> = {}) {
  /** The bytes of each workbook the engine was given. */
  const calls: Buffer[] = [];
  const engine: Recalculator = {
    engine: 'libreoffice',
    recalc(input, output) {
      calls.push(readFileSync(input));
      const error = Object.entries(failures).find(([marker]) => readFileSync(input).includes(marker))?.[1];
      if (error) return Promise.resolve({ ok: false, engine: 'libreoffice', durationMs: 1, error });
      writeFileSync(output, Buffer.concat([readFileSync(input), Buffer.from('+recalculated')]));
      return Promise.resolve({ ok: true, engine: 'libreoffice', durationMs: 1 });
    },
    close: () => Promise.resolve(),
  };
  return { engine, calls };
}

const env = () =>
  new MockActivityEnvironment({ startToCloseTimeoutMs: 60_000, currentAttemptScheduledTimestampMs: Date.now() });
/** The copies activity of `acts` run in a mock activity context. */
const copiesOf = (acts: ReturnType<typeof v2RecalcActivities>, runDir: string, taskId: string) =>
  env().run<[{ runDir: string; taskId: string }], V2DatasetCopies, typeof acts.v2RecalculatedCopies>(
    acts.v2RecalculatedCopies,
    { runDir, taskId },
  );
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const datasetHashes = () => {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[path.relative(tmp, p)] = hashOf(p);
    }
  };
  walk(path.join(tmp, 'data'));
  return out;
};

beforeAll(async () => {
  await book(path.join(category, 'spreadsheet/ok/input.xlsx'), 'Model', { A1: 21, A2: { formula: 'A1*2', result: 0 } });
  await book(path.join(category, 'spreadsheet/ok/answer.xlsx'), 'Model', {
    A1: 21,
    A2: { formula: 'A1*2', result: 0 },
    B1: 5,
  });
  // The same bytes as ok's under other names: found in the cache, not recalculated again.
  cpSync(path.join(category, 'spreadsheet/ok'), path.join(category, 'spreadsheet/same'), { recursive: true });
  await book(outside, 'Model', { A1: 'the answer to everything' });
  mkdirSync(path.join(category, 'spreadsheet/linked'), { recursive: true });
  symlinkSync(outside, path.join(category, 'spreadsheet/linked/input.xlsx'));
  cpSync(path.join(category, 'spreadsheet/ok/answer.xlsx'), path.join(category, 'spreadsheet/linked/answer.xlsx'));
  mkdirSync(path.join(category, 'spreadsheet/unopenable'), { recursive: true });
  writeFileSync(path.join(category, 'spreadsheet/unopenable/input.xlsx'), 'ENGINE-REFUSES not a workbook');
  writeFileSync(path.join(category, 'spreadsheet/unopenable/answer.xlsx'), 'ENGINE-TIMES-OUT');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("a v2 run's recalculated dataset files", () => {
  it('are made once per content, placed in the run folder, and found in the cache by a later run', async () => {
    const before = datasetHashes();
    const cache = path.join(tmp, 'cache');
    const first = countingEngine();
    const acts = v2RecalcActivities(() => Promise.resolve(first.engine), cache);
    const run1 = makeRun('run1');
    const ok = await copiesOf(acts, run1, 'ok');
    expect(ok).toEqual({ input: { recalculated: true, made: true }, answer: { recalculated: true, made: true } });
    const same = await copiesOf(acts, run1, 'same');
    expect(same).toEqual({ input: { recalculated: true, made: false }, answer: { recalculated: true, made: false } });
    expect(first.calls).toHaveLength(2);
    const files = new V2RunFiles(run1, 'checked_vote', MODEL);
    const input = path.join(category, 'spreadsheet/ok/input.xlsx');
    expect(readFileSync(files.recalculatedPath('same', 'input'))).toEqual(
      Buffer.concat([readFileSync(input), Buffer.from('+recalculated')]),
    );
    // A later run (another worker process: a new cache object over the same folder) recalculates nothing.
    const later = countingEngine();
    const run2 = makeRun('run2');
    const again = await copiesOf(
      v2RecalcActivities(() => Promise.resolve(later.engine), cache),
      run2,
      'ok',
    );
    expect(again).toEqual({ input: { recalculated: true, made: false }, answer: { recalculated: true, made: false } });
    expect(later.calls).toEqual([]);
    expect(readdirSync(cache).sort()).toEqual(
      [`${hashOf(input)}.xlsx`, `${hashOf(path.join(category, 'spreadsheet/ok/answer.xlsx'))}.xlsx`].sort(),
    );
    expect(datasetHashes()).toEqual(before);
  });

  it('never read a link, a path leaving the category folder or a missing file; an engine failure is named', async () => {
    const { engine, calls } = countingEngine({ 'ENGINE-REFUSES': 'load failed: not a workbook' });
    const acts = v2RecalcActivities(() => Promise.resolve(engine), path.join(tmp, 'cache-abuse'));
    const run = makeRun('abuse');
    const copies = (taskId: string) => copiesOf(acts, run, taskId);
    expect((await copies('linked')).input).toEqual({
      recalculated: false,
      made: false,
      problem: 'task linked (Financial_Model): input file spreadsheet/linked/input.xlsx is a link; not read',
    });
    expect((await copies('escapes')).input).toEqual({
      recalculated: false,
      made: false,
      problem: 'task escapes (Financial_Model): input file ../secret.xlsx leaves its category folder',
    });
    expect((await copies('missing')).answer).toEqual({
      recalculated: false,
      made: false,
      problem: 'task missing (Financial_Model): answer file spreadsheet/missing/answer.xlsx is missing',
    });
    expect(calls.some((c) => c.equals(readFileSync(outside)))).toBe(false);
    const failing = v2RecalcActivities(
      () =>
        Promise.resolve(
          countingEngine({ 'ENGINE-REFUSES': 'load failed', 'ENGINE-TIMES-OUT': 'timeout after 60 s' }).engine,
        ),
      path.join(tmp, 'cache-fail'),
    );
    // A workbook the engine cannot open is used as it is (named); a timeout is retried.
    const err = await env()
      .run(failing.v2RecalculatedCopies, { runDir: run, taskId: 'unopenable' })
      .catch((e: unknown) => e as Error & { type?: string; nonRetryable?: boolean });
    expect(err).toMatchObject({ type: 'RecalcFailed', nonRetryable: false });
    expect((err as Error).message).toContain(
      'spreadsheet/unopenable/answer.xlsx could not be recalculated (libreoffice): timeout',
    );
    const refusing = v2RecalcActivities(
      () => Promise.resolve(countingEngine({ 'ENGINE-': 'load failed' }).engine),
      path.join(tmp, 'cache-fail2'),
    );
    const used = await copiesOf(refusing, run, 'unopenable');
    expect(used.input).toEqual({
      recalculated: false,
      made: false,
      problem: `used as it is: ${path.join(category, 'spreadsheet/unopenable/input.xlsx')} could not be recalculated (libreoffice): load failed`,
    });
    expect(existsSync(new V2RunFiles(run, 'checked_vote', MODEL).recalculatedPath('unopenable', 'input'))).toBe(false);
  });
});

describe('task ids', () => {
  it('refuses an id that is a path (it would name files outside the run folder), naming the record', async () => {
    const dir = path.join(tmp, 'ids', 'Template');
    mkdirSync(path.join(dir, 'spreadsheet'), { recursive: true });
    for (const id of ['../escape', 'a/b', '..']) {
      writeFileSync(path.join(dir, 'dataset.json'), JSON.stringify([{ ...record(id, 'x.xlsx'), category: undefined }]));
      await expect(loadV2Dataset(path.join(tmp, 'ids'))).rejects.toThrow(
        `record 0 of ${path.join(dir, 'dataset.json')}: id ${JSON.stringify(id)} cannot name a file`,
      );
    }
  });
});

describe("checked_vote's adapter", () => {
  it("names each answer piece's sheet as the input names it", () => {
    expect(adaptedPosition('model!A1:C6', ['Model', 'Other'])).toBe("'Model'!A1:C6");
    expect(adaptedPosition('A1:B3', ['Template'])).toBe("'Template'!A1:B3");
    expect(adaptedPosition("Sheet1!A1,' other '!B2:B4", ['Sheet1', 'Other'])).toBe("'Sheet1'!A1,'Other'!B2:B4");
    // SpreadsheetBench cannot write these names; on the first sheet the piece is unqualified (its first sheet).
    expect(adaptedPosition("'P&L, 2024'!A1:B5", ['P&L, 2024'])).toBe('A1:B5');
    expect(adaptedPosition('data!A1:D5', ['Data '])).toBe('A1:D5');
    expect(adaptedPosition('Ghost!A1', ['Model'])).toBe("'Ghost'!A1");
  });

  it('makes a one-test-case SpreadsheetBench run of the task holding only its recalculated input', async () => {
    const run = makeRun('adapter');
    const acts = v2RecalcActivities(() => Promise.resolve(countingEngine().engine), path.join(tmp, 'cache-adapter'));
    const copies = await copiesOf(acts, run, 'ok');
    const prepared = await prepareCheckedVote({ runDir: run, taskId: 'ok', copies });
    const adapterDir = path.join(run, 'as-spreadsheetbench', 'ok');
    const sheet = await sheetRun(adapterDir);
    const task = sheet.task('ok');
    expect(task).toEqual({
      id: 'ok',
      instruction: 'do ok',
      spreadsheet_path: 'spreadsheet/ok',
      instruction_type: 'Sheet-Level Manipulation',
      answer_position: "'Model'!A1:B2",
    });
    expect(sheet.manifest).toMatchObject({ benchmark: 'spreadsheetbench', agent: 'checked_vote', taskCount: 1 });
    const cases = await testCaseFiles(sheet.manifest.datasetDir, task);
    expect(cases.map((c) => c.index)).toEqual([1]);
    expect(readFileSync(cases[0].inputPath)).toEqual(
      readFileSync(new V2RunFiles(run, 'checked_vote', MODEL).recalculatedPath('ok', 'input')),
    );
    // The adapter's folder holds one workbook: the recalculated input (nothing of the answer).
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    expect(walk(adapterDir).filter((f) => f.endsWith('.xlsx'))).toEqual([cases[0].inputPath]);
    expect(prepared).toMatchObject({ testCases: [1], outputPaths: [sheet.official.outputPath('ok', 1)] });
    // What checked_vote submits becomes the v2 output; without a submission there is none.
    expect(await collectCheckedVoteOutput({ runDir: run, taskId: 'ok' })).toEqual({});
    cpSync(cases[0].inputPath, sheet.official.outputPath('ok', 1));
    const collected = await collectCheckedVoteOutput({ runDir: run, taskId: 'ok' });
    expect(collected.outputPath).toBe(new V2RunFiles(run, 'checked_vote', MODEL).outputPath('ok'));
  });

  it('fails a task whose input is missing or a link, naming it', async () => {
    const run = makeRun('adapter-bad');
    await expect(prepareCheckedVote({ runDir: run, taskId: 'missing' })).rejects.toThrow(
      'task missing (Financial_Model): input file spreadsheet/missing/input.xlsx is missing',
    );
    await expect(prepareCheckedVote({ runDir: run, taskId: 'linked' })).rejects.toThrow('is a link; not read');
  });
});
