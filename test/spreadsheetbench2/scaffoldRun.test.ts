/**
 * The paper's scaffold end to end on generated v2-layout tasks (one or more per category), with a scripted model
 * speaking function calls, the real bubblewrap sandbox, LibreOffice recalculation and a worker in its own process that
 * is killed with kill -9 mid-episode and replaced: every task ends with one result, the outputs are scored as
 * evaluation.py scores them, no model call is answered twice, and the hostile task's commands are contained and
 * reported in its observations.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, duplicatesAnsweredApartFromKills } from '../../lib/scriptedLlm';
import { repoRoot } from '../../lib/sandbox/paths';
import type { RunProgress } from '../../contracts/run';
import {
  FAST_FAILOVER,
  startBenchmarkRun,
  startE2E,
  workerProcessEnv,
  type E2EEnv,
  type StartedRun,
} from '../helpers/e2e';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, workerKillTimes } from '../helpers/workerProcess';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import {
  SCAFFOLD_HOSTILE_TASK,
  SCAFFOLD_LIBREOFFICE_TASK,
  SCAFFOLD_REQUERY_TASK,
  SCAFFOLD_SOLVED_TASKS,
  scaffoldScript,
} from '../helpers/scaffoldScript';
import { episodeRecordSchema, turnRecordSchema } from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import { spreadsheetBench2, v2Run, v2TaskResultSchema, type V2RunFiles } from '../../benchmarks/spreadsheetbench2';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-scaffold-'));
const data = path.join(tmp, 'data');
/** A task whose input file is missing (removed after generation): named, and the rest of the run goes on. */
const BROKEN_TASK = 'fm1';
const TASKS = [...SCAFFOLD_SOLVED_TASKS, SCAFFOLD_HOSTILE_TASK, BROKEN_TASK];
const answerPath = path.join(data, 'Template', 'spreadsheet', SCAFFOLD_HOSTILE_TASK, 'answer.xlsx');

const result = (runDir: string, id: string) =>
  v2TaskResultSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'results', `${id}.json`), 'utf8')));
/** How the task's episode ended (tasks/<id>/scaffold/episode.json). */
const episodeOf = (runDir: string, id: string) =>
  episodeRecordSchema.parse(
    JSON.parse(readFileSync(path.join(runDir, 'tasks', id, 'scaffold', 'episode.json'), 'utf8')),
  );
/** The official result file of a category (evaluation.py's shape). */
const officialResult = (files: V2RunFiles, category: string) =>
  JSON.parse(readFileSync(files.officialResultPath(category), 'utf8')) as {
    total_tests: number;
    missing_outputs: number;
    accuracy: number;
    scores: { id: string | number; accuracy: number; interaction_turns: number }[];
  };
const observations = (runDir: string, id: string) => {
  const dir = path.join(runDir, 'tasks', id, 'scaffold');
  return readdirSync(dir)
    .filter((f) => /^turn-\d+\.json$/.test(f))
    .sort((a, b) => parseInt(a.slice(5)) - parseInt(b.slice(5)))
    .map((f) => turnRecordSchema.parse(JSON.parse(readFileSync(path.join(dir, f), 'utf8'))).tool.content);
};

describe.skipIf(!hasSandboxPython)('SpreadsheetBench 2 with the paper scaffold', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let files: V2RunFiles;
  let final: RunProgress;
  let answeredAtCrash = 0;

  beforeAll(async () => {
    runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
    rmSync(path.join(data, 'Financial_Model', 'spreadsheet', BROKEN_TASK, 'input.xlsx'));
    // The hostile task aims at the scripted model's own port (a host service), known once it listens.
    // Recalculated dataset files go to this test's cache folder (the worker processes inherit it), not the user's.
    process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg-cache');
    const targets = { answerPath, repoDir: repoRoot, hostUrl: '' };
    env = await startE2E(scaffoldScript(targets), { config: { ...FAST_FAILOVER, run: { concurrency: 3 } } });
    targets.hostUrl = env.llm.url.replace(/\/v1\/?$/, '');
    run = await startBenchmarkRun(env, { dataset: data, agent: 'swe_agent', tasks: TASKS });
    const answered = () => env.llm.log.filter((e) => e.answered && e.callKey?.includes('/scaffold/')).length;
    let worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    // The crash comes while the hostile task's `sleep 600` runs (its 4th turn): that command runs again on the next
    // worker; the other tasks are mid-episode too.
    const sleepCall = `/${SCAFFOLD_HOSTILE_TASK}/scaffold/3/0`;
    await waitUntil(
      () => env.llm.log.some((e) => e.answered && e.callKey?.endsWith(sleepCall)),
      400_000,
      "the hostile task's sleep command asked for",
    );
    await new Promise((r) => setTimeout(r, 3_000));
    answeredAtCrash = answered();
    worker.crash();
    await worker.exited;
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    final = (await run.handle.result()) as RunProgress;
    worker.crash();
    files = (await v2Run(run.runDir)).files;
  }, 900_000);
  afterAll(async () => {
    await env?.close();
    delete process.env.XDG_CACHE_HOME;
    rmSync(tmp, { recursive: true, force: true });
  });

  it('was killed mid-episode and finished every task once', () => {
    expect(answeredAtCrash).toBeGreaterThanOrEqual(8);
    expect(answeredAtCrash).toBeLessThan(env.llm.log.filter((e) => e.answered).length);
    expect(final.done).toBe(TASKS.length);
    expect(readdirSync(path.join(run.runDir, 'results')).sort()).toEqual(TASKS.map((t) => `${t}.json`).sort());
  });

  it('killed tasks mid-episode: some had model calls answered both before and after the kill', () => {
    const kill = workerKillTimes()[0];
    const taskOf = (key: string) => key.split('/')[1];
    const before = new Set(
      env.llm.log.filter((e) => e.answered && Date.parse(e.time) < kill).map((e) => taskOf(e.callKey!)),
    );
    const after = new Set(
      env.llm.log.filter((e) => e.answered && Date.parse(e.time) > kill).map((e) => taskOf(e.callKey!)),
    );
    expect([...before].filter((t) => after.has(t)).length).toBeGreaterThan(0);
  });

  it('answered no model call twice', () => {
    expect(duplicatesAnsweredApartFromKills(env.llm.log, workerKillTimes())).toEqual([]);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  });

  it('scored the solved tasks right, as evaluation.py scores them', () => {
    for (const id of SCAFFOLD_SOLVED_TASKS) {
      const r = result(run.runDir, id);
      const exit = episodeOf(run.runDir, id).exitStatus;
      expect({ id, accuracy: r.v2?.accuracy, exit, error: r.v2?.errorMessage }).toEqual({
        id,
        accuracy: 1,
        exit: 'submitted',
        error: '',
      });
      expect(existsSync(files.outputPath(id))).toBe(true);
      // The agent worked on the recalculated input and was scored against the recalculated answer.
      expect(r.v2?.datasetCopies).toMatchObject({ input: { recalculated: true }, answer: { recalculated: true } });
      expect(existsSync(files.recalculatedPath(id, 'input'))).toBe(true);
    }
    // 5 turns; the requeried task made one call more.
    expect(result(run.runDir, 'tpl0').llmCalls).toBe(5);
    expect(episodeOf(run.runDir, 'tpl0').modelCalls).toBe(5);
    expect(result(run.runDir, SCAFFOLD_REQUERY_TASK).llmCalls).toBe(6);
    expect(result(run.runDir, SCAFFOLD_REQUERY_TASK).v2?.interactionTurns).toBe(6);
  });

  it('named the task whose input is missing and ran the others', () => {
    const r = result(run.runDir, BROKEN_TASK);
    expect(r.failure?.class).toBe('dataset');
    expect(r.failure?.message).toContain(
      `task ${BROKEN_TASK}: input file spreadsheet/${BROKEN_TASK}/input.xlsx is missing`,
    );
    expect(r.llmCalls).toBe(0);
    expect(r.v2?.accuracy).toBe(0);
  });

  it("wrote the official result files per category, with the episodes' model calls as interaction turns", () => {
    const results = ['Debugging', 'Financial_Model', 'Template', 'Visualization'].map((c) => officialResult(files, c));
    const scores = results.flatMap((r) => r.scores);
    expect(results.reduce((n, r) => n + r.total_tests, 0)).toBe(TASKS.length);
    expect(
      scores
        .filter((s) => s.accuracy === 1)
        .map((s) => String(s.id))
        .sort(),
    ).toEqual([...SCAFFOLD_SOLVED_TASKS].sort());
    // The hostile task's output (a link) and the broken task's missing input count as missing outputs.
    expect(results.reduce((n, r) => n + r.missing_outputs, 0)).toBe(2);
    expect(officialResult(files, 'Template')).toMatchObject({ total_tests: 2, missing_outputs: 1, accuracy: 0.5 });
    expect(scores.find((s) => s.id === SCAFFOLD_REQUERY_TASK)?.interaction_turns).toBe(6);
  });

  it('kept the shell state from step to step (files in /tmp, the working folder, exported variables)', () => {
    const obs = observations(run.runDir, 'tpl0');
    expect(obs[0]).toContain("Sheets: ['Template']");
    expect(obs[3]).toMatch(/saved \/job\/spreadsheet_output\/tpl0_output\.xlsx from \/tmp/);
  });

  it('ran LibreOffice inside the sandbox', () => {
    const obs = observations(run.runDir, SCAFFOLD_LIBREOFFICE_TASK);
    expect(obs[4]).toContain(`-> /tmp/lo/${SCAFFOLD_LIBREOFFICE_TASK}_output.xlsx using filter : Calc Office Open XML`);
    expect(obs[4]).toMatch(new RegExp(`\\n${SCAFFOLD_LIBREOFFICE_TASK}_output\\.xlsx\\n`));
  });

  it('prints the official totals overall and per category at the end of the run', async () => {
    const lines = await spreadsheetBench2.summaryLines(run.runDir);
    expect(lines[0]).toBe(
      `accuracy (${TASKS.length}/${TASKS.length} tasks): ${((100 * SCAFFOLD_SOLVED_TASKS.length) / TASKS.length).toFixed(2)}%`,
    );
    expect(lines).toContain('  Template: 50.00%  (2 tasks)');
    expect(lines.find((l) => l.startsWith('regression accuracy '))).toMatch(/^regression accuracy 100\.00% \(/);
    expect(lines.find((l) => l.startsWith('modification accuracy '))).toMatch(/^modification accuracy 100\.00% \(/);
  });

  it('contained the hostile commands and reported them', () => {
    const obs = observations(run.runDir, SCAFFOLD_HOSTILE_TASK);
    // Network: neither the host's loopback service (the scripted model's port) nor the internet.
    expect(obs[0]).toBe(
      '<observation>\nurllib.error.URLError: <urlopen error [Errno 101] Network is unreachable>\nOSError: [Errno 101] Network is unreachable\n\n</observation>',
    );
    // Outside the task: no /etc/shadow, no answer file, no checkout; no answer.xlsx anywhere inside.
    expect(obs[1]).toContain('/etc/shadow: No such file or directory');
    expect(obs[1]).toContain(`${answerPath}: No such file or directory`);
    expect(obs[1]).toContain(`${repoRoot}': No such file or directory`);
    expect(obs[1]).not.toMatch(/answer\.xlsx\n/);
    // The fork bomb hit the sandbox's process limit and ended with its step; the next steps still ran.
    expect(obs[2]).toContain('fork: retry: Resource temporarily unavailable');
    // The 10-minute sleep was cancelled at 60 s, with the paper's message.
    expect(obs[3]).toContain("The command 'sleep 600' was cancelled because it took more than 60 seconds to complete.");
    // Killed 3 s into the sleep, it ran again in full on the next worker, after the activity's heartbeat time-out
    // (without a rerun the task would end about 60 s sooner). The bound follows the test's failover settings: with
    // FAST_FAILOVER's 8 s heartbeat a quiet clean-clone run took 79.0 s, under the 80 s bound written for 20 s.
    const rerunAtLeast = 60_000 + FAST_FAILOVER.temporal.failover.heartbeatTimeoutMs;
    expect(result(run.runDir, SCAFFOLD_HOSTILE_TASK).wallMs).toBeGreaterThan(rerunAtLeast);
    // The work folder holds the task's input and the output folder, nothing else (the answer never enters it).
    expect(obs[4]).toBe('<observation>\nalive\nspreadsheet_data\nspreadsheet_output\n\n</observation>');
    // Its output, a link to /etc/passwd, was not taken.
    const r = result(run.runDir, SCAFFOLD_HOSTILE_TASK);
    expect(r.v2?.missingOutput).toBe(true);
    expect(r.stages.map((s) => s.outcome)).toEqual(['submitted']);
    expect(episodeOf(run.runDir, SCAFFOLD_HOSTILE_TASK)).toMatchObject({
      exitStatus: 'submitted',
      output: false,
      outputProblem: `the output ${SCAFFOLD_HOSTILE_TASK}_output.xlsx is a link; not taken`,
    });
  });
});
