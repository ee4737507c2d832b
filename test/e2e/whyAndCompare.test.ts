/**
 * Why did a task fail, and is B better than A? Real runs (bin/sheetbench, Temporal, sandbox) with a scripted model that
 * is right on some sample tasks and wrong in one known cell on others:
 * - `show` names exactly that cell; results without cell diffs say so instead of failing;
 * - `run --epochs 3` with a model right on 2 of 3 tries: pass@1 = 2/3, pass@3 = 1, pass^3 = 0, identical prompts,
 *   distinct call keys, every attempt kept; killed mid-epoch and resumed, no LLM call is paid twice;
 * - `compare` pairs runs of one dataset (paired table, McNemar) and refuses runs still in progress and runs of another
 *   edition or scoring mode, naming the difference.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnsweredApartFromKills, startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';
import { copyInputReply } from '../helpers/copyInput';
import { runCli, type CliResult } from '../helpers/cliProcess';
import { cliWorkspace } from '../helpers/cliWorkspace';
import { runArgs } from '../helpers/runArgs';
import { waitUntil } from '../helpers/wait';
import { sampleSolver } from '../helpers/sampleSolver';
import { EXIT } from '../../cli/exitCodes';
import type { TaskView } from '../../benchmarks/report/taskView';
import type { Comparison } from '../../benchmarks/report/comparison';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = path.join(REPO, 'data/sample');
const VERIFIED = path.join(REPO, 'data/verified-sample');
const TASKS = ['1001', '2001-1', '1002'];
const INSPECT_PYTHON = path.join(REPO, '.tools/inspect-venv/bin/python');
/** Reads an eval log with the real inspect_ai and prints its epochs and (id, epoch, score) per sample. */
const READ_EPOCHS = `
import json, sys
from inspect_ai.log import read_eval_log
log = read_eval_log(sys.argv[1])
print(json.dumps({"status": log.status, "epochs": log.eval.config.epochs,
  "samples": sorted([s.id, s.epoch, s.scores["spreadsheetbench"].value] for s in log.samples)}))
`;

/** Run why-a gets 2001-1's Orders!C4 wrong; run why-b gets every task's known cell wrong on its third attempt. */
const wrong = (callKey: string, task: string) =>
  (callKey.startsWith('why-a/') && task === '2001-1') || /^why-b\/[^/]+@3\//.test(callKey);

describe('why did it fail, and is B better than A (real runs, scripted model)', () => {
  let temporal: TestTemporal;
  let llm: ScriptedServer;
  let env: NodeJS.ProcessEnv;
  let work: string;
  const runDir = (id: string) => path.join(work, 'runs', id);
  const cli = (args: string[]): Promise<CliResult> => runCli(args, { cwd: work, env });
  const json = <T>(res: CliResult): T => {
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout) as T;
  };
  const run = (id: string, extra: string[], dataset = SAMPLE, cliEnv = env) =>
    runCli(
      [...runArgs({ dataset: dataset, baseUrl: llm.url, model: 'scripted', runId: id, out: runDir(id) }), ...extra],
      {
        cwd: work,
        env: cliEnv,
      },
    );
  /** A run on task queues of its own: its CLI's worker takes none of another run's work, so it can run beside one. */
  const runBeside = (id: string, extra: string[], dataset = SAMPLE) => {
    const config = path.join(work, `${id}-config.json`);
    writeFileSync(
      config,
      JSON.stringify({
        recalc: { engine: 'none' },
        temporal: { taskQueue: `${id}-main`, recalcTaskQueue: `${id}-recalc` },
      }),
    );
    return run(id, extra, dataset, { ...env, SHEETBENCH_CONFIG: config });
  };
  /**
   * The runs of another edition and of another scoring mode: started while `resume why-b` waits out the killed worker,
   * or when first asked for (the repeats not run, e.g. filtered out with -t).
   */
  let unpairable: Promise<[CliResult, CliResult]> | undefined;
  const startUnpairable = () =>
    (unpairable ??= Promise.all([
      runBeside('why-verified', [], VERIFIED),
      runBeside('why-strict', ['--mode', 'strict']),
    ]));

  beforeAll(async () => {
    temporal = await startTestTemporal();
    llm = await startScriptedServer({
      script: { rules: [sampleSolver(wrong)], fallback: copyInputReply, latencyMs: 600 },
    });
    // The solutions write plain values: no recalculation needed.
    ({ work, env } = cliWorkspace('sb-why-', temporal, {
      recalc: { engine: 'none' },
      temporal: { taskQueue: 'why-main', recalcTaskQueue: 'why-recalc' },
    }));
    const a = await run('why-a', []);
    expect(a.code, a.stderr).toBe(0);
  }, 240_000);
  afterAll(async () => {
    await llm?.close();
    await temporal?.stop();
  });

  describe('show', () => {
    it('names exactly the one wrong cell of each test case, with expected and got values and types', async () => {
      const view = json<TaskView>(await cli(['show', 'why-a', '2001-1', '--json']));
      expect(view).toMatchObject({
        runId: 'why-a',
        taskId: '2001-1',
        status: 'scored',
        soft: 0,
        hard: 0,
        answerPosition: "'Orders'!C1:C6",
      });
      expect(view.instruction).toContain("Add a column C with header 'Total'");
      expect(view.testCases).toHaveLength(3);
      for (const c of view.testCases) {
        expect(c.pass).toBe(false);
        expect(c.mismatches).toHaveLength(1);
        const [m] = c.mismatches;
        expect(m).toMatchObject({
          cell: 'Orders!C4',
          check: 'value',
          expected: { type: 'number' },
          got: { type: 'number' },
        });
        expect(m.got.value).toBe((m.expected.value as number) + 1);
        expect(c.omitted).toBe(0);
        expect(c.reason).toBe(`Orders!C4: expected ${m.expected.value} got ${m.got.value}`);
        expect(c.fill).toEqual({ cells: 6, filled: 6 });
        expect(c.inputPasses).toBe(false);
        expect(c.output).toBe(`outputs/single_scripted/${c.index}_2001-1_output.xlsx`);
      }
      // The trajectory: the one model call with its prompt and reply, the code, the executions on test cases 2 and 3.
      const generate = view.trajectory.find((s) => s.stage === 'generate')!;
      expect(generate.llmCalls).toBe(1);
      expect(generate.inputTokens).toBeGreaterThan(0);
      expect(generate.exchanges[0].prompt).toContain('### instruction');
      expect(generate.code).toContain("ws = wb['Orders']");
      const execute = view.trajectory.find((s) => s.stage === 'execute')!;
      expect(execute.executions.map((e) => e.label)).toEqual(['final-tc1', 'final-tc2', 'final-tc3']);
      // The text form names the cell too.
      const text = await cli(['show', 'why-a', '2001-1']);
      expect(text.stdout).toMatch(/test case 1: FAIL — Orders!C4: expected \d+ got \d+/);
      expect(text.stdout).toMatch(/Orders!C4 {2}expected \d+ \(number\) {2}got \d+ \(number\) {2}\[value\]/);
    });

    it('a passing task has no mismatches; the floor and summary are recorded', async () => {
      const view = json<TaskView>(await cli(['show', runDir('why-a'), '1001', '--json']));
      expect(view.testCases.map((c) => [c.pass, c.mismatches.length])).toEqual([
        [true, 0],
        [true, 0],
        [true, 0],
      ]);
      const summary = JSON.parse(readFileSync(path.join(runDir('why-a'), 'summary.json'), 'utf8'));
      expect(summary.overall).toMatchObject({ tasks: 3, hard: 2 / 3 });
      // Nothing in the sample passes unchanged: the do-nothing agent scores 0 of 9 test cases.
      expect(summary.floor).toEqual({ tasks: 3, testCases: 9, passedByInput: 0, soft: 0, hard: 0 });
      expect(existsSync(path.join(runDir('why-a'), 'tasks', '2001-1', 'cell-diffs.json'))).toBe(true);
    });

    it('names the run and the task it does not have; results without cell diffs say so', async () => {
      const unknown = await cli(['show', 'why-a', '9999']);
      expect(unknown.code).toBe(EXIT.notFound);
      expect(unknown.stderr).toContain('run why-a has no task "9999" (its 3 tasks: 1001, 2001-1, 1002)');
      // The same run as an older version wrote it: no cell-diffs.json.
      cpSync(runDir('why-a'), runDir('why-old'), { recursive: true });
      for (const t of TASKS) rmSync(path.join(runDir('why-old'), 'tasks', t, 'cell-diffs.json'));
      const old = json<TaskView>(await cli(['show', runDir('why-old'), '2001-1', '--json']));
      expect(old.notes.join()).toContain('no cell diff recorded');
      expect(
        old.testCases.map((c) => [c.pass, c.diffRecorded, c.mismatches.length, c.reason?.startsWith('Orders!C4')]),
      ).toEqual([
        [false, false, 0, true],
        [false, false, 0, true],
        [false, false, 0, true],
      ]);
      expect((await cli(['show', runDir('why-old'), '2001-1'])).stdout).toContain('no cell diff recorded');
    });
  });

  describe('repeats: --epochs 3, killed mid-epoch and resumed', () => {
    let killedAt = 0;
    let midRun: CliResult;
    let resumed: CliResult;

    beforeAll(async () => {
      const child = spawnCli(work, env, [
        ...runArgs({ dataset: SAMPLE, baseUrl: llm.url, model: 'scripted', runId: 'why-b', out: runDir('why-b') }),
        '--epochs',
        '3',
        '--concurrency',
        '2',
      ]);
      const answered = () => llm.log.filter((e) => e.answered && e.callKey?.startsWith('why-b/')).length;
      // Mid-epoch: the first attempts are answered, others are in flight at the model (600 ms per reply).
      await waitUntil(() => answered() >= 4, 120_000, '4 answered calls of why-b');
      await new Promise((r) => setTimeout(r, 300));
      killedAt = Date.now();
      process.kill(-child.child.pid!, 'SIGKILL');
      await child.exit;
      midRun = await cli(['compare', 'why-b']);
      // The resume waits for the killed worker's calls to time out (their heartbeat): the other runs go meanwhile.
      void startUnpairable();
      resumed = await cli(['resume', 'why-b']);
    }, 420_000);

    it('a run in progress is refused by compare, naming it', () => {
      expect(midRun.code).toBe(EXIT.failure);
      expect(midRun.stderr).toMatch(
        /run why-b \(.*\) is still in progress \(\d of 9 attempts recorded, no summary\.json yet\)/,
      );
      expect(midRun.stderr).toContain('--partial');
    });

    it('resume finishes every attempt; nothing is paid twice', () => {
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/scores \(9\/3 tasks\)/);
      const results = readdirSync(path.join(runDir('why-b'), 'results')).sort();
      expect(results).toEqual(TASKS.flatMap((t) => [`${t}.json`, `${t}@2.json`, `${t}@3.json`]).sort());
      const calls = llm.log.filter((e) => e.callKey?.startsWith('why-b/'));
      console.info(
        `why-b: ${calls.filter((e) => e.answered).length} answered replies for 9 attempts (${calls.length} requests), killed at ${new Date(killedAt).toISOString()}`,
      );
      expect(duplicatesAnsweredApartFromKills(calls, [killedAt])).toEqual([]);
      expect(new Set(calls.filter((e) => e.answered).map((e) => e.callKey)).size).toBe(9);
    });

    it('attempts have distinct call keys and identical prompts; epoch e ≥ 2 has its own official files', () => {
      const answered = llm.log.filter((e) => e.answered && e.callKey?.startsWith('why-b/'));
      for (const task of TASKS) {
        const attempts = [1, 2, 3].map((e) =>
          answered.find((x) => x.callKey === `why-b/${e === 1 ? task : `${task}@${e}`}/main/0`)!,
        );
        expect(attempts.every(Boolean)).toBe(true);
        expect(JSON.stringify(attempts[1].messages)).toBe(JSON.stringify(attempts[0].messages));
        expect(JSON.stringify(attempts[2].messages)).toBe(JSON.stringify(attempts[0].messages));
      }
      const evalOf = (file: string) =>
        JSON.parse(readFileSync(path.join(runDir('why-b'), file), 'utf8')) as {
          id: unknown;
          hard_restriction: number;
        }[];
      expect(evalOf('eval_single_scripted.json').map((e) => e.hard_restriction)).toEqual([1, 1, 1]);
      expect(evalOf('epochs/3/eval_single_scripted.json').map((e) => e.hard_restriction)).toEqual([0, 0, 0]);
      expect(existsSync(path.join(runDir('why-b'), 'epochs/2/outputs/single_scripted/1_2001-1_output.xlsx'))).toBe(
        true,
      );
    });

    it('pass@1 = 2/3, pass@3 = 1, pass^3 = 0 for a model right on 2 of 3 tries', async () => {
      const c = json<Comparison>(await cli(['compare', 'why-b', '--json']));
      const [m] = c.runs;
      expect(m).toMatchObject({ runId: 'why-b', tasks: 3, epochs: 3, attempts: 9 });
      expect(m.passAt['1']).toBeCloseTo(2 / 3, 12);
      expect(m.passAt['3']).toBe(1);
      expect(m.passHat['3']).toBe(0);
      expect(m.hard.mean).toBeCloseTo(2 / 3, 12);
      expect(m.hard.ci95[0]).toBeLessThanOrEqual(m.hard.mean);
      expect(c.pairs).toEqual([]);
      // show reads any attempt: by --epoch or by its key.
      const third = json<TaskView>(await cli(['show', 'why-b', '2001-1@3', '--json']));
      expect(third).toMatchObject({ attempt: '2001-1@3', epoch: 3, epochs: [1, 2, 3], hard: 0 });
      expect(third.testCases[0].mismatches.map((x) => x.cell)).toEqual(['Orders!C4']);
      const byFlag = json<TaskView>(await cli(['show', 'why-b', '1001', '--epoch', '3', '--json']));
      expect(byFlag.testCases[0].mismatches.map((x) => x.cell)).toEqual(['Sales!B7']);
      const tooFar = await cli(['show', 'why-b', '1001', '--epoch', '4']);
      expect(tooFar.code).toBe(EXIT.notFound);
      expect(tooFar.stderr).toContain(
        'run why-b has no attempt 4 of task 1001: it samples each task 3 times (epochs 1–3)',
      );
    });

    it('the report states the intervals, pass@k and pass^k, and the floor', async () => {
      const report = await cli(['report', 'why-b']);
      expect(report.code, report.stderr).toBe(0);
      const md = readFileSync(path.join(runDir('why-b'), 'report.md'), 'utf8');
      expect(md).toMatch(/- Soft \d+\.\d% \[\d+\.\d%, \d+\.\d%\], hard 66\.7% \[/);
      expect(md).toContain(
        '- Repeats (3 attempts a task): pass@1 66.7%, pass@2 100.0%, pass@3 100.0%; pass^1 66.7%, pass^2 33.3%, pass^3 0.0%.',
      );
      expect(md).toContain('- Floor: the unchanged inputs (a do-nothing agent) already pass 0 of 9 test cases');
      // The Inspect log has every attempt as an epoch of its sample, as the real inspect_ai reads it.
      const logs = path.join(runDir('why-b'), 'logs');
      const file = path.join(
        logs,
        readdirSync(logs).find((f) => f.endsWith('.json'))!,
      );
      const read = JSON.parse(execFileSync(INSPECT_PYTHON, ['-c', READ_EPOCHS, file], { encoding: 'utf8' }));
      expect(read.status).toBe('success');
      expect(read.epochs).toBe(3);
      expect(read.samples.filter((x: [string, number, number]) => x[0] === '2001-1')).toEqual([
        ['2001-1', 1, 1],
        ['2001-1', 2, 1],
        ['2001-1', 3, 0],
      ]);
      expect(read.samples).toHaveLength(9);
    });

    it('compare pairs A and B: the paired table with task ids, McNemar, the soft difference, cost and tokens', async () => {
      const c = json<Comparison>(await cli(['compare', 'why-a', 'why-b', '--json']));
      expect(c.runs.map((r) => r.runId)).toEqual(['why-a', 'why-b']);
      const [pair] = c.pairs;
      // B passes every task on 2 of its 3 attempts (a majority); A fails 2001-1.
      expect(pair.hard).toMatchObject({ bothPass: 2, aOnly: 0, bOnly: 1, neither: 0, mcnemarP: 1 });
      expect(pair.hard.taskIds.bOnly).toEqual(['2001-1']);
      // Soft B − A per task: 1001 and 1002 −1/3, 2001-1 +2/3: mean 0.
      expect(pair.softDiff.mean).toBeCloseTo(0, 12);
      expect(pair.tokens.b).toBeGreaterThan(pair.tokens.a);
      expect(pair.byGroup.map((g) => g.group)).toEqual(['Cell-Level Manipulation', 'Sheet-Level Manipulation']);
      const text = await cli(['compare', 'why-a', 'why-b']);
      expect(text.stdout).toContain('only B passes: 2001-1');
      expect(text.stdout).toContain('McNemar exact two-sided p = 1.00');
    });
  });

  describe('compare refuses runs it cannot pair', () => {
    beforeAll(async () => {
      const [verified, strict] = await startUnpairable();
      expect(verified.code, verified.stderr).toBe(0);
      expect(strict.code, strict.stderr).toBe(0);
    }, 240_000);

    it('another edition and dataset, or another scoring mode: refused, naming the runs and the difference', async () => {
      const edition = await cli(['compare', 'why-a', 'why-verified']);
      expect(edition.code).toBe(EXIT.mismatch);
      expect(edition.stderr).toContain(
        'refusing to compare: runs why-a and why-verified have different editions (912_v0.1 vs verified_400): they cannot be paired',
      );
      const mode = await cli(['compare', 'why-a', 'why-strict', '--json']);
      expect(mode.code).toBe(EXIT.mismatch);
      expect(mode.stderr).toContain('runs why-a and why-strict have different scoring modes (official vs strict)');
      expect(mode.stdout).toBe('');
    });

    it('Verified runs get cell diffs and report their scores without the known-bad tasks (13284, RUCKBReasoning/SpreadsheetBench#37)', async () => {
      const c = json<Comparison>(await cli(['compare', 'why-verified', '--json']));
      expect(c.runs[0].withoutExcluded).toMatchObject({ tasks: ['13284'] });
      const summary = JSON.parse(readFileSync(path.join(runDir('why-verified'), 'summary.json'), 'utf8'));
      expect(summary.excluded).toMatchObject({ tasks: ['13284'], overall: { tasks: 2 } });
      const view = json<TaskView>(await cli(['show', 'why-verified', '71001', '--json']));
      expect(view.testCases).toHaveLength(1);
      expect(view.testCases[0].diffRecorded).toBe(true);
    });
  });
});

/** bin/sheetbench in its own process group (kill -9 of the group takes its in-process worker and sandboxes with it). */
function spawnCli(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[],
): { child: ChildProcess; exit: Promise<number | null> } {
  const child = spawn(path.join(REPO, 'bin/sheetbench'), args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.resume();
  return { child, exit: new Promise((resolve) => child.once('close', resolve)) };
}
