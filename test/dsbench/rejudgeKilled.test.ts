/**
 * `sheetbench rejudge` of a DSBench run killed with kill -9 mid-way (its CLI and in-process worker, while the judge's
 * call for one question is held, the questions before it judged), then run again as a user would: the killed rejudge
 * had recorded that it started (`<tag>.judge.json`, state `started`, its judge model) before any of its verdicts (the
 * summary and the report say it is unfinished, with the command that finishes it), another judge model is refused
 * meanwhile, the rerun resumes it under the same tag with its judge model instead of starting another, the judge is
 * answered once per question, and the record ends `finished`. A rejudge whose workflow closed without a result
 * (terminated after the kill) is started again by the rerun under its tag and call keys: the replies cached before the
 * kill are not paid for again.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, type RequestLogEntry, type Script } from '../../lib/scriptedLlm';
import {
  FAST_FAILOVER,
  runToEnd,
  startBenchmarkRun,
  startE2E,
  workerProcessEnv,
  type E2EEnv,
  type StartedRun,
} from '../helpers/e2e';
import { waitUntil } from '../helpers/wait';
import { HeldJudge } from '../helpers/heldJudge';
import { runCli, spawnKillableCli } from '../helpers/cliProcess';
import { DSBENCH_SAMPLE_SCRIPT, dsbenchJudgeReply } from '../helpers/dsbenchScript';
import { dsBench } from '../../benchmarks/dsbench';
import { writeDsbenchReport } from '../../benchmarks/dsbench/report';
import { dsbenchPaths } from '../../benchmarks/dsbench/layout';
import { RunLayout } from '../../lib/runStore/runLayout';
import { EXIT } from '../../cli/exitCodes';

const SAMPLE = path.resolve(__dirname, '../../data/dsbench-sample');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dsbench-rejudge-killed-'));
/** Held by the judge while the rejudge is killed: the first question of the second batch of three. */
const HELD = '00000102_question1';

/** The judge of the rejudge's calls for HELD waits at the gate of the phase's HeldJudge; every other call is answered. */
let held = new HeldJudge(dsbenchJudgeReply);
const script: Script = {
  rules: [
    { name: 'held judge', match: { callKey: new RegExp(`/${HELD}/judge#`) }, reply: (r) => held.reply(r) },
    ...DSBENCH_SAMPLE_SCRIPT.rules,
  ],
};

const rejudgeFiles = (runDir: string) =>
  readdirSync(runDir)
    .filter((f) => f.startsWith('rejudge-'))
    .sort();
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const judgmentPath = (runDir: string, id: string) => dsbenchPaths.judgment(new RunLayout(runDir).taskDir(id));

/** The judge calls of the rejudge `tag`, per question: [status, answered, model] in the order they came. */
function judgeCalls(log: readonly RequestLogEntry[], runId: string, tag: string) {
  const calls = new Map<string, [number, boolean, string | undefined][]>();
  for (const e of log) {
    const id = new RegExp(`^${runId}/(.+)/judge#${tag}$`).exec(e.callKey ?? '')?.[1];
    if (id) calls.set(id, [...(calls.get(id) ?? []), [e.status, e.answered, e.model]]);
  }
  return calls;
}

/** `bin/sheetbench rejudge RUN ARGS` killed with kill -9 while the judge's call for HELD is held; its new tag. */
async function killedRejudge(env: E2EEnv, runDir: string, args: string[]): Promise<string> {
  const before = rejudgeFiles(runDir);
  const judgedAt = (id: string) => statSync(judgmentPath(runDir, id)).mtimeMs;
  const logStart = env.llm.log.length;
  const questions = (JSON.parse(readFileSync(path.join(runDir, 'tasks.json'), 'utf8')) as { id: string }[]).map(
    (q) => q.id,
  );
  const previous = new Map(questions.map((id) => [id, judgedAt(id)]));
  const killed = spawnKillableCli(['rejudge', runDir, ...args], { cwd: tmp, env: workerProcessEnv(env) });
  await waitUntil(() => held.arrived, 400_000, `the judge call of ${HELD} held (${killed.stderr()})`);
  // The kill comes once every reply delivered beside the held one is on disk and no other request is in flight: a reply
  // killed in the moment between its arrival and its cache entry is issue 33 §8's window (the chaos test's), not what
  // this test is about. Under load the two other calls of HELD's batch were answered and killed before their judgments
  // were written, and one received before the kill was answered to the killed CLI after it (each paid twice).
  const answered = () =>
    env.llm.log
      .slice(logStart)
      .filter((e) => e.answered)
      .flatMap((e) => /^[^/]+\/(.+)\/judge#/.exec(e.callKey ?? '')?.[1] ?? []);
  await waitUntil(
    () => env.llm.inFlight <= 1 && answered().every((id) => judgedAt(id) !== previous.get(id)),
    60_000,
    'the judgments of the replies delivered before the kill written',
  );
  killed.kill9();
  await killed.exited;
  held.open(); // the held request now sees its client gone: 499, not answered
  const added = rejudgeFiles(runDir).filter((f) => !before.includes(f));
  const tag = added[0].replace(/\.json$/, '');
  // What the kill left: one task list and its started record.
  expect(added).toEqual([`${tag}.json`, `${tag}.judge.json`]);
  return tag;
}

describe('a DSBench rejudge killed with kill -9 mid-way', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let ids: string[] = [];

  beforeAll(async () => {
    env = await startE2E(script, { config: { ...FAST_FAILOVER, recalc: { engine: 'none' }, run: { concurrency: 3 } } });
    run = await startBenchmarkRun(env, { dataset: SAMPLE, agent: 'model-only' });
    await runToEnd(env, run);
    ids = (JSON.parse(readFileSync(path.join(run.runDir, 'tasks.json'), 'utf8')) as { id: string }[]).map((q) => q.id);
  }, 300_000);
  afterAll(async () => {
    held.open();
    await env?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('left its started record before any verdict; the rerun resumes it with its judge model, each answered once', async () => {
    expect(ids.indexOf(HELD)).toBe(3); // the first of the second batch of three: three judged before the kill
    const before = new Map(ids.map((id) => [id, statSync(judgmentPath(run.runDir, id)).mtimeMs]));
    const summaryBefore = readFileSync(path.join(run.runDir, 'summary.json'), 'utf8');

    const tag = await killedRejudge(env, run.runDir, ['--judge-model', 'judge-2']);
    const recordFile = path.join(run.runDir, `${tag}.judge.json`);
    const started = readJson(recordFile);
    expect(started).toMatchObject({
      tag,
      state: 'started',
      requested: { model: 'judge-2' },
      judgeModel: 'judge-2',
      tasks: ids,
      settings: [],
    });
    const recordWritten = statSync(recordFile).mtimeMs;
    const rewritten = ids.filter((id) => statSync(judgmentPath(run.runDir, id)).mtimeMs !== before.get(id));
    expect(rewritten.length).toBeGreaterThanOrEqual(3); // the first batch at least was judged before the kill
    for (const id of rewritten)
      expect(statSync(judgmentPath(run.runDir, id)).mtimeMs, id).toBeGreaterThanOrEqual(recordWritten);
    expect(readJson(judgmentPath(run.runDir, HELD))).toMatchObject({ callKey: `${run.runId}/${HELD}/judge` });
    expect(readFileSync(path.join(run.runDir, 'summary.json'), 'utf8')).toBe(summaryBefore);

    // What the summary and the report say of it meanwhile.
    const unfinished =
      `UNFINISHED: rejudge ${tag} of 7 question(s) stopped before its end: some of their judgments are new, the ` +
      `figures above are older; run \`sheetbench rejudge ${run.runDir}\` to finish it`;
    expect(await dsBench.summaryLines(run.runDir)).toContain(`  ${unfinished}`);
    const report = await writeDsbenchReport({ runDir: run.runDir, outDir: path.join(tmp, 'report') });
    expect(readFileSync(report.markdown, 'utf8')).toContain(unfinished);

    // Another judge model is refused while it is unfinished, naming it.
    const cliEnv = workerProcessEnv(env);
    const other = await runCli(['rejudge', run.runDir, '--judge-model', 'judge-3'], { cwd: tmp, env: cliEnv });
    expect(other.code).toBe(EXIT.usage);
    expect(other.stderr).toContain(`run ${run.runId} has an unfinished rejudge ${tag} (judge model judge-2)`);

    // The rerun, as a user runs it (no --judge-model): the same rejudge resumed with judge-2 and finished.
    const rerun = await runCli(['rejudge', run.runDir], { cwd: tmp, env: cliEnv });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`resuming the unfinished rejudge ${tag}: 7 tasks of run ${run.runId}`);
    expect(rerun.stdout).toMatch(/^accuracy \(7\/7 questions\): /m);
    expect(rerun.stdout).not.toContain('UNFINISHED');
    expect(rejudgeFiles(run.runDir)).toEqual([`${tag}.json`, `${tag}.judge.json`]);
    expect(readJson(recordFile)).toMatchObject({
      tag,
      state: 'finished',
      startedAt: started.startedAt,
      judgeModel: 'judge-2',
      settings: [{ judge: { model: 'judge-2' }, tasks: ids }],
      withoutCall: [],
    });
    for (const id of ids)
      expect(readJson(judgmentPath(run.runDir, id)), id).toMatchObject({
        judgeModel: 'judge-2',
        callKey: `${run.runId}/${id}/judge#${tag}`,
      });
    // The judge answered once per question, with judge-2; the held call unanswered (499) before its one answer.
    const calls = judgeCalls(env.llm.log, run.runId, tag);
    expect([...calls.keys()].sort()).toEqual([...ids].sort());
    for (const id of ids)
      expect(calls.get(id), id).toEqual([...(id === HELD ? [[499, false, 'judge-2']] : []), [200, true, 'judge-2']]);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
    expect(env.llm.log.filter((e) => e.answered && e.callKey?.endsWith('/answer'))).toHaveLength(7);
  }, 900_000);

  it('its workflow closed without a result: the rerun starts it again under its tag, cached replies not paid again', async () => {
    held = new HeldJudge(dsbenchJudgeReply);
    const tag = await killedRejudge(env, run.runDir, ['--judge-model', 'judge-3']);
    const workflow = env.client.workflow.getHandle(`${run.runId}/${tag}`);
    await workflow.terminate('test: the rejudge closed without a result');
    const answeredBefore = [...judgeCalls(env.llm.log, run.runId, tag)].filter(([, c]) => c.some(([, ok]) => ok));
    expect(answeredBefore.length).toBeGreaterThanOrEqual(3); // the first batch's replies are in the run's cache

    const rerun = await runCli(['rejudge', run.runDir], { cwd: tmp, env: workerProcessEnv(env) });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`resuming the unfinished rejudge ${tag}: 7 tasks of run ${run.runId}`);
    expect((await workflow.describe()).status.name).toBe('COMPLETED');
    expect(readJson(path.join(run.runDir, `${tag}.judge.json`))).toMatchObject({
      state: 'finished',
      settings: [{ judge: { model: 'judge-3' }, tasks: ids }],
    });
    // The restarted workflow judged all seven again under the same call keys: each answered once in all.
    const calls = judgeCalls(env.llm.log, run.runId, tag);
    for (const id of ids)
      expect(calls.get(id), id).toEqual([...(id === HELD ? [[499, false, 'judge-3']] : []), [200, true, 'judge-3']]);
    expect(env.llm.log.filter((e) => e.answered && e.model === 'judge-3')).toHaveLength(7);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  }, 900_000);
});
