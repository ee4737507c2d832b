/**
 * Our own agent, checked_vote, on generated SpreadsheetBench 2 tasks (every category) end to end: real Temporal, the
 * bubblewrap sandbox, LibreOffice, a scripted model answering Python candidates by call key
 * (`<run>/<task>/cand-<k>/<attempt>`), and a worker in its own process killed with kill -9 while a candidate's call is
 * in flight, then replaced. Also the recalculated dataset files of a run: a task whose input and answer hold formulas
 * with stale cached values is seen and scored with recalculated values, the dataset's files keep their bytes, and a
 * second run finds every copy in the cache (nothing recalculated again).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, duplicatesAnsweredApartFromKills, type ScriptRule } from '../../lib/scriptedLlm';
import type { RunProgress } from '../../contracts/run';
import {
  loadV2Dataset,
  spreadsheetBench2,
  v2Run,
  v2TaskResultSchema,
  type V2RunFiles,
} from '../../benchmarks/spreadsheetbench2';
import { scoreV2Files } from '../../benchmarks/spreadsheetbench2/scoring/scoreTask';
import { readRegion } from '../../benchmarks/spreadsheetbench/agents/checkedVote/regionCells';
import {
  FAST_FAILOVER,
  startBenchmarkRun,
  startE2E,
  startInProcessWorkers,
  workerProcessEnv,
  type E2EEnv,
} from '../helpers/e2e';
import { heldReply } from '../helpers/heldReply';
import { everyReplyCached } from '../helpers/replyToCache';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, workerKillTimes } from '../helpers/workerProcess';
import { hasSandboxPython, runPython } from '../scoring/oracle';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-checked-vote-'));
const data = path.join(tmp, 'data');
const cacheHome = path.join(tmp, 'xdg-cache');
const cacheDir = path.join(cacheHome, 'sheetbench', 'v2-recalculated');

/** A correct solve(wb) per task (make_v2_tasks.py's specs; fm_stale is made below): scored right. */
const SOLVE: Record<string, string> = {
  fm_quoted: "def solve(wb):\n    wb['P&L, 2024']['B2'] = 99.0",
  tpl0: "def solve(wb):\n    ws = wb['Template']\n    ws['B2'] = 91.5\n    ws['B3'] = 'N/A'",
  vis0: "def solve(wb):\n    ws = wb['Data ']\n    ws['D1'] = 'Total'\n    ws['D2'] = 150",
  dbg_plain: "def solve(wb):\n    wb['Sheet1']['B4'] = 7.25",
  fm_stale: "def solve(wb):\n    wb['Model']['B1'] = 5",
};
/** Every candidate of this task crashes: its output is its input, unchanged. */
const CRASHING = 'dbg_embedded';
/** Its input file is removed after generation: a dataset failure naming it, no model call. */
const BROKEN = 'fm1';
const STALE = 'fm_stale';
const TASKS = [...Object.keys(SOLVE), CRASHING, BROKEN];

const block = (code: string) => `Here is the function.\n\`\`\`python\n${code}\n\`\`\`\n`;
const CRASH = block("def solve(wb):\n    raise ValueError('cannot fix it')");
/** The crashing task's second candidate: held, so the kill lands while its call is in flight. */
const held = heldReply(CRASH, 20_000);
const rules: ScriptRule[] = [
  { name: 'held', match: { callKey: new RegExp(`/${CRASHING}/cand-2/0$`) }, reply: held.reply, times: 1 },
  { name: CRASHING, match: { callKey: new RegExp(`/${CRASHING}/cand-\\d/\\d$`) }, reply: CRASH },
  ...Object.entries(SOLVE).map(([id, code]) => ({
    name: id,
    match: { callKey: new RegExp(`/${id}/cand-\\d/\\d$`) },
    reply: block(code),
  })),
];

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}
const hashes = (dir: string) => Object.fromEntries(filesUnder(dir).map((f) => [f, sha(f)]));
const mtimes = (dir: string) => Object.fromEntries(filesUnder(dir).map((f) => [f, statSync(f).mtimeMs]));
/** A recalculated copy (`<sha256>.xlsx`), not a copy's staging file. */
const isCacheEntry = (file: string) => /^[0-9a-f]{64}\.xlsx$/.test(path.basename(file));
const cacheEntries = (dir: string) => Object.fromEntries(Object.entries(mtimes(dir)).filter(([f]) => isCacheEntry(f)));
const result = (runDir: string, id: string) =>
  v2TaskResultSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'results', `${id}.json`), 'utf8')));

/** fm_stale: =A1*2 stored with the stale value 0 in input and answer; the task asks for B1 = 5. */
async function addStaleTask(): Promise<void> {
  const dir = path.join(data, 'Financial_Model', 'spreadsheet', STALE);
  const write = async (name: string, b1?: number) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Model');
    ws.getCell('A1').value = 21;
    ws.getCell('A2').value = { formula: 'A1*2', result: 0 };
    if (b1 !== undefined) ws.getCell('B1').value = b1;
    await wb.xlsx.writeFile(path.join(dir, name));
  };
  mkdirSync(dir, { recursive: true });
  await write('input.xlsx');
  await write('answer.xlsx', 5);
  const index = path.join(data, 'Financial_Model', 'dataset.json');
  const records = JSON.parse(readFileSync(index, 'utf8')) as unknown[];
  records.push({
    id: STALE,
    instruction: `do ${STALE}`,
    spreadsheet_path: `spreadsheet/${STALE}/input.xlsx`,
    golden_response_path: `spreadsheet/${STALE}/answer.xlsx`,
    answer_position: 'Model!A1:B2',
  });
  writeFileSync(index, JSON.stringify(records));
}

describe.skipIf(!hasSandboxPython)('checked_vote on SpreadsheetBench 2', () => {
  let env: E2EEnv;
  let first: { runDir: string; runId: string; progress: RunProgress };
  let second: { runDir: string; runId: string; progress: RunProgress };
  let files: V2RunFiles;
  let datasetBefore: Record<string, string>;
  let datasetAfter: Record<string, string>;
  let cacheAfterFirst: Record<string, number>;
  let cacheAfterSecond: Record<string, number>;
  let stagingAfterSecond: string[] = [];
  let answeredAtCrash = 0;
  /** The inputs and answers of the first run's tasks that exist. */
  let datasetFilesOfRun: string[] = [];

  beforeAll(async () => {
    runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
    rmSync(path.join(data, 'Financial_Model', 'spreadsheet', BROKEN, 'input.xlsx'));
    await addStaleTask();
    datasetBefore = hashes(data);
    datasetFilesOfRun = (await loadV2Dataset(data))!
      .filter((t) => TASKS.includes(String(t.id)))
      .flatMap((t) => [t.spreadsheet_path, t.golden_response_path].map((p) => path.join(t.categoryDir, p)))
      .filter((f) => existsSync(f));
    // The workers (this process's and the child's) keep recalculated copies under this test's cache folder.
    process.env.XDG_CACHE_HOME = cacheHome;
    env = await startE2E(
      { rules },
      { config: { ...FAST_FAILOVER, run: { concurrency: 3 }, sandbox: { executionTimeoutMs: 20_000 } } },
    );
    let worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    const run = await startBenchmarkRun(env, { dataset: data, agent: 'checked_vote', tasks: TASKS });
    await waitUntil(held.arrived, 600_000, "the crashing task's second candidate asked for");
    // The kill lands once every reply delivered beside the held one is cached and no other request is in flight,
    // checked and done in one synchronous step: under load a reply of another task was answered and killed before its
    // cache entry, and a request received before the kill was answered to the killed worker (each paid twice: issue
    // 33 §8's window, which the chaos test is about, not this test).
    await waitUntil(
      () => {
        if (env.llm.inFlight > 1 || !everyReplyCached(run.runDir, env.llm.log)) return false;
        answeredAtCrash = env.llm.log.filter((e) => e.answered).length;
        worker.crash();
        return true;
      },
      60_000,
      'the replies delivered before the kill cached',
    );
    await worker.exited;
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    first = { ...run, progress: (await run.handle.result()) as RunProgress };
    worker.crash();
    await worker.exited;
    files = (await v2Run(first.runDir)).files;
    // A worker killed mid-copy leaves that copy's staging files until a later process sweeps them: entries only.
    cacheAfterFirst = cacheEntries(cacheDir);
    // The second run: in-process workers, the same cache folder.
    const workers = await startInProcessWorkers(env);
    const serving = workers.run();
    const again = await startBenchmarkRun(env, { dataset: data, agent: 'checked_vote', tasks: [STALE, 'tpl0'] });
    second = { ...again, progress: (await again.handle.result()) as RunProgress };
    await workers.shutdown();
    await serving;
    cacheAfterSecond = mtimes(cacheDir);
    stagingAfterSecond = Object.keys(cacheAfterSecond).filter((f) => !isCacheEntry(f));
    cacheAfterSecond = cacheEntries(cacheDir);
    datasetAfter = hashes(data);
  }, 1_200_000);
  afterAll(async () => {
    await env?.close();
    delete process.env.XDG_CACHE_HOME;
    rmSync(tmp, { recursive: true, force: true });
  });

  it('was killed mid-task and finished every task once, no model call answered twice', () => {
    expect(answeredAtCrash).toBeGreaterThan(0);
    expect(first.progress.done).toBe(TASKS.length);
    expect(readdirSync(path.join(first.runDir, 'results')).sort()).toEqual(TASKS.map((t) => `${t}.json`).sort());
    expect(duplicatesAnsweredApartFromKills(env.llm.log, workerKillTimes())).toEqual([]);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
    // The crashing task had calls answered before the kill and after it (its held call asked again).
    const kill = workerKillTimes()[0];
    const ofCrashing = env.llm.log.filter((e) => e.answered && e.callKey?.startsWith(`${first.runId}/${CRASHING}/`));
    expect(ofCrashing.some((e) => Date.parse(e.time) < kill)).toBe(true);
    expect(ofCrashing.some((e) => Date.parse(e.time) > kill)).toBe(true);
  });

  it('scored every correct program right, in every category, with its candidates, vote and recalculation', async () => {
    for (const id of Object.keys(SOLVE)) {
      const r = result(first.runDir, id);
      expect({ id, accuracy: r.v2?.accuracy, error: r.v2?.errorMessage, failure: r.failure }).toEqual({
        id,
        accuracy: 1,
        error: '',
        failure: undefined,
      });
      expect(r.stages.map((s) => s.stage)).toEqual([
        'prepare',
        'view',
        'cand-1.0',
        'cand-2.0',
        'vote',
        'collect',
        'recalc',
      ]);
      expect(r.llmCalls).toBe(2);
      expect(r.v2?.interactionTurns).toBe(2);
      expect(existsSync(files.outputPath(id))).toBe(true);
    }
    // show: the candidates' stages with their check verdicts.
    const view = await spreadsheetBench2.describeTask!(first.runDir, 'tpl0');
    expect(view.trajectory?.find((t) => t.stage === 'cand-1.0')?.outcome).toMatch(/^passed the checks/);
    const categories = new Set(Object.keys(SOLVE).map((id) => result(first.runDir, id).instructionType));
    expect([...categories].sort()).toEqual(['Debugging', 'Financial_Model', 'Template', 'Visualization']);
  });

  it('left the input unchanged when every candidate crashed', async () => {
    const r = result(first.runDir, CRASHING);
    expect(r.failure?.class).toBe('model');
    // However many candidates and repairs checked_vote's settings allow (its engineer tunes them): every one failed,
    // each of its calls was answered once and counted.
    expect(r.failure?.message).toMatch(/none of \d+ candidate\(s\) passed the checks/);
    const answered = env.llm.log.filter((e) => e.answered && e.callKey?.startsWith(`${first.runId}/${CRASHING}/`));
    expect(r.llmCalls).toBe(answered.length);
    expect(new Set(answered.map((e) => e.callKey)).size).toBeGreaterThanOrEqual(4); // at least 2 candidates, repaired
    expect(r.v2?.accuracy).toBe(0);
    const input = files.recalculatedPath(CRASHING, 'input');
    const position = "'Sheet1'!A1:C5";
    expect((await readRegion(files.outputPath(CRASHING), position)).cells).toEqual(
      (await readRegion(input, position)).cells,
    );
  });

  it('named the task whose input is missing, without a model call', async () => {
    const view = await spreadsheetBench2.describeTask!(first.runDir, BROKEN);
    expect(view.notes).toContain(
      `input not recalculated: task ${BROKEN} (Financial_Model): input file spreadsheet/${BROKEN}/input.xlsx is missing`,
    );
    const r = result(first.runDir, BROKEN);
    expect(r.failure?.class).toBe('dataset');
    expect(r.failure?.message).toContain(
      `task ${BROKEN} (Financial_Model): input file spreadsheet/${BROKEN}/input.xlsx is missing`,
    );
    expect(r.llmCalls).toBe(0);
    expect(r.v2?.accuracy).toBe(0);
  });

  it('showed the agent the recalculated input and scored against the recalculated answer', async () => {
    const view = readFileSync(
      path.join(first.runDir, 'as-spreadsheetbench', STALE, 'tasks', STALE, 'checked-vote', 'view.txt'),
      'utf8',
    );
    expect(view).toContain('=A1*2 -> 42');
    expect(view).not.toContain('=A1*2 -> 0');
    expect(result(first.runDir, STALE).v2?.accuracy).toBe(1);
    // Against the dataset's own answer (its stale 0 in A2) the same output would not pass.
    const task = (await loadV2Dataset(data))!.find((t) => t.id === STALE)!;
    const dir = path.join(data, 'Financial_Model');
    const stale = await scoreV2Files(task, {
      input: path.join(dir, task.spreadsheet_path),
      answer: path.join(dir, task.golden_response_path),
      output: files.outputPath(STALE),
    });
    expect(stale.score.accuracy).toBe(0);
  });

  it("kept the dataset's files byte for byte", () => {
    expect(datasetAfter).toEqual(datasetBefore);
  });

  it('recalculated each dataset file once: the second run found every copy in the cache', () => {
    // One copy per distinct content of the tasks' inputs and answers (the broken task has only its answer).
    expect(
      Object.keys(cacheAfterFirst)
        .map((f) => path.basename(f))
        .sort(),
    ).toEqual([...new Set(datasetFilesOfRun.map((f) => `${datasetBefore[f]}.xlsx`))].sort());
    expect(second.progress.done).toBe(2);
    for (const id of [STALE, 'tpl0'])
      expect({ id, copies: result(second.runDir, id).v2?.datasetCopies }).toEqual({
        id,
        copies: { input: { recalculated: true, made: false }, answer: { recalculated: true, made: false } },
      });
    expect(cacheAfterSecond).toEqual(cacheAfterFirst);
    // The killed worker's staging files, if the kill came mid-copy, were swept by the second run's process.
    expect(stagingAfterSecond).toEqual([]);
    expect(result(second.runDir, STALE).v2?.accuracy).toBe(1);
  });
});
