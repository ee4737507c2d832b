/**
 * Bad input inside a real SpreadsheetBench 2 run (Temporal, the paper's scaffold in the bubblewrap sandbox, LibreOffice
 * recalculation, a scripted model), not only in the scorer: a dataset missing a task's answer file, an
 * `answer_position` naming a sheet the answer does not have, and an agent that leaves bytes that are no workbook as its
 * output. Each ends as that task's result with a message naming the task and the cause (the two dataset problems
 * before any model call: such a task scores 0 whatever its output); the run goes on and its other task is scored
 * right; `show` gives the reason and the report lists each. The dataset problems fail the same way, before any model
 * call, under our own agent (checked_vote).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';
import type { RunProgress } from '../../contracts/run';
import { runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import { scaffoldScript } from '../helpers/scaffoldScript';
import { spreadsheetBench2, v2TaskResultSchema } from '../../benchmarks/spreadsheetbench2';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-bad-input-'));
const data = path.join(tmp, 'data');
/** Its answer file is removed after generation. */
const NO_ANSWER = 'fm1';
/** make_v2_tasks.py's task whose answer_position names sheet "Ghost". */
const NO_SHEET = 'fm_nosheet';
/** The agent writes bytes that are no workbook as its output. */
const UNREADABLE = 'fm2';
/** Solved by the scripted solver (test/helpers/scaffoldScript.ts): the run goes on. */
const SOLVED = 'tpl0';
const TASKS = [NO_ANSWER, NO_SHEET, UNREADABLE, SOLVED];

const result = (runDir: string, id: string) =>
  v2TaskResultSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'results', `${id}.json`), 'utf8')));

/**
 * The bad tasks' agent: writes not-a-workbook bytes as the output of UNREADABLE, then submits; the dataset problems'
 * tasks, were they asked, would submit at once.
 */
function badTaskReply(request: ScriptedRequest): ScriptedReply {
  const instance = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const id = /\*\*Instruction:\*\* do (\S+)/.exec(instance)?.[1] ?? '';
  const output = /\*\*Output Path:\*\* (\S+)/.exec(instance)?.[1] ?? '';
  const turn = request.messages.filter((m) => m.role === 'tool').length;
  if (id === UNREADABLE && turn === 0)
    return { text: '', toolCalls: [{ name: 'bash', arguments: { command: `printf 'not a workbook' > ${output}` } }] };
  return { text: '', toolCalls: [{ name: 'submit', arguments: {} }] };
}

describe.skipIf(!hasSandboxPython)('bad input in a SpreadsheetBench 2 run', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let progress: RunProgress;
  /** The same two dataset problems under our own agent, checked_vote. */
  let checkedVote: StartedRun;

  beforeAll(async () => {
    runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
    rmSync(path.join(data, 'Financial_Model', 'spreadsheet', NO_ANSWER, 'answer.xlsx'));
    // Recalculated dataset files go to this test's cache folder, not the user's.
    process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg-cache');
    const solver = scaffoldScript({ answerPath: '/nonexistent', repoDir: '/nonexistent', hostUrl: '' });
    const bad = new RegExp(`/(${[NO_ANSWER, NO_SHEET, UNREADABLE].join('|')})/scaffold/`);
    env = await startE2E(
      { rules: [{ name: 'bad tasks', match: { callKey: bad }, reply: badTaskReply }, ...solver.rules] },
      { config: { run: { concurrency: 2 } } },
    );
    run = await startBenchmarkRun(env, { dataset: data, agent: 'swe_agent', tasks: TASKS });
    progress = await runToEnd(env, run);
    checkedVote = await startBenchmarkRun(env, { dataset: data, agent: 'checked_vote', tasks: [NO_ANSWER, NO_SHEET] });
    await runToEnd(env, checkedVote);
  }, 600_000);
  afterAll(async () => {
    await env?.close();
    delete process.env.XDG_CACHE_HOME;
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a missing answer file: a dataset failure naming the task and the file', () => {
    const r = result(run.runDir, NO_ANSWER);
    expect(r.failure).toEqual({
      class: 'dataset',
      message: `task ${NO_ANSWER} (Financial_Model): answer file spreadsheet/${NO_ANSWER}/answer.xlsx is missing`,
    });
    expect(r.v2?.datasetCopies?.answer).toMatchObject({ recalculated: false, problem: r.failure?.message });
    expect(r.hard).toBe(0);
    expect(r.llmCalls).toBe(0);
  });

  it('an answer_position naming no sheet of the answer: a dataset failure naming the task and the sheet', () => {
    const r = result(run.runDir, NO_SHEET);
    expect(r.failure).toEqual({
      class: 'dataset',
      message:
        `task ${NO_SHEET} (Financial_Model): answer_position "Ghost!A1:B5" names sheet "Ghost", which the answer ` +
        `spreadsheet/${NO_SHEET}/answer.xlsx does not have (sheets: Model)`,
    });
    expect(r.llmCalls).toBe(0);
  });

  it('an output that is no workbook: scored 0 (as evaluation.py) with a reason naming the task', () => {
    const r = result(run.runDir, UNREADABLE);
    expect(r.failure).toBeUndefined();
    expect(r.hard).toBe(0);
    expect(r.v2?.missingOutput).toBe(false);
    expect(r.llmCalls).toBe(2); // the bash step that wrote the bytes, then submit
    expect(r.reasons[0]).toMatch(
      new RegExp(
        `^task ${UNREADABLE} \\(Financial_Model\\): the output workbook ${UNREADABLE}_output\\.xlsx could not be read: \\S`,
      ),
    );
  });

  it('the run went on: every task has its result, the other task scored right', () => {
    expect(progress.done).toBe(TASKS.length);
    // No model call for the tasks whose dataset is at fault.
    const asked = env.llm.log
      .filter((e) => e.callKey?.startsWith(`${run.runId}/`))
      .map((e) => e.callKey?.split('/')[1]);
    expect(asked).not.toContain(NO_ANSWER);
    expect(asked).not.toContain(NO_SHEET);
    const r = result(run.runDir, SOLVED);
    expect({ accuracy: r.v2?.accuracy, failure: r.failure }).toEqual({ accuracy: 1, failure: undefined });
  });

  it('under checked_vote too: the same dataset failures, before any model call', () => {
    for (const id of [NO_ANSWER, NO_SHEET]) {
      const r = result(checkedVote.runDir, id);
      expect(r.failure, id).toEqual(result(run.runDir, id).failure);
      expect(r.llmCalls, id).toBe(0);
    }
    expect(env.llm.log.filter((e) => e.callKey?.startsWith(`${checkedVote.runId}/`))).toEqual([]);
  });

  it('show gives each reason; the report lists each bad task with it', async () => {
    for (const id of [NO_ANSWER, NO_SHEET, UNREADABLE]) {
      const view = await spreadsheetBench2.describeTask!(run.runDir, id);
      expect(JSON.stringify(view), id).toContain(`task ${id}`);
    }
    const written = await spreadsheetBench2.writeReport({ runDir: run.runDir, outDir: path.join(tmp, 'report') });
    const md = readFileSync(written.markdown, 'utf8');
    expect(md).toMatch(
      new RegExp(`^\\| ${NO_ANSWER} \\| Financial_Model \\| failed \\(dataset\\) \\|.*task ${NO_ANSWER}`, 'm'),
    );
    expect(md).toMatch(
      new RegExp(`^\\| ${NO_SHEET} \\| Financial_Model \\| failed \\(dataset\\) \\|.*names sheet "Ghost"`, 'm'),
    );
    expect(md).toMatch(new RegExp(`^\\| ${UNREADABLE} \\| Financial_Model \\| fail \\|.*could not be read`, 'm'));
    expect(md).toMatch(new RegExp(`^\\| ${SOLVED} \\| Template \\| pass \\|`, 'm'));
  });
});
