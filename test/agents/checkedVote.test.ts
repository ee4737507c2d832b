import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, type ScriptRule } from '../../lib/scriptedLlm';
import type { RunProgress } from '../../contracts/run';
import type { WorkerSet } from '../../workers/createWorkers';
import { compareRunOutcomes, loadRunOutcomes } from '../../benchmarks/report/comparison';
import { spreadsheetTaskView } from '../../benchmarks/spreadsheetbench/report/taskView';
import { readRegion } from '../../benchmarks/spreadsheetbench/agents/checkedVote/regionCells';
import { startBenchmarkRun, startE2E, type E2EEnv } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { outputsOf, readTaskResult, startInProcessWorkers } from './harness';

/**
 * checked_vote end to end: real Temporal, real bwrap sandbox, real LibreOffice recalculation, official scoring, and a
 * scripted model answering by call key (`<run>/<task>/cand-<k>/<attempt>` for Python candidates,
 * `<run>/<task>/formula-<k>/<attempt>` for formula candidates), so each run gets its own script. 39604 is cell-level
 * (formula candidates first); 79-7 and 599-9 are sheet-level (Python candidates only).
 */
let env: E2EEnv;
let workers: WorkerSet;
let running: Promise<void>;
const rules: ScriptRule[] = [];

const SOLVE = {
  '39604': "def solve(wb):\n    ws = wb['before']\n    ws['C4'] = '=MAX(0,IF((B3*1000)<22000,B4-20,B4-30))'",
  '79-7':
    "def solve(wb):\n    for ws in wb.worksheets:\n        for row in ws.iter_rows():\n            for cell in row:\n                if isinstance(cell.value, str):\n                    cell.value = cell.value.replace('\"', '')",
  '599-9': "def solve(wb):\n    raise ValueError('model gave up')",
};
const CRASH = "def solve(wb):\n    ws = wb['Before Sheet']\n    ws['C4'] = 1";
const NOTHING = 'def solve(wb):\n    pass';
const JUNK = "def solve(wb):\n    wb['Sheet1']['A1'] = 'TODO: put the cleaned text here'";
/**
 * Hangs on test case 1 only: the harness writes each case's own input name over test case 1's in the program, so the
 * name below reads `2_79-7_…` on case 2. One 8 s timeout instead of one per case (the cases run one after another).
 */
const HANG = "def solve(wb):\n    while '1_79-7_input.xlsx'.startswith('1_'):\n        pass";
/** 39604's answer as one formula for C4 (a cell-level task: formula candidates come first). */
const FORMULA_39604 = '=MAX(0,IF((B3*1000)<22000,B4-20,B4-30))';

function excel(formula: string): string {
  return `The formula for C4:\n\`\`\`excel\n${formula}\n\`\`\`\n`;
}

function block(code: string): string {
  return `Here is the function.\n\`\`\`python\n${code}\n\`\`\`\n`;
}

/** Replies of one run, by `<task>/cand-<k>/<attempt>`. */
function script(runId: string, replies: Record<string, string>): void {
  for (const [key, reply] of Object.entries(replies))
    rules.push({
      name: `${runId}/${key}`,
      match: { callKey: new RegExp(`^${runId}/${key.replace(/[.]/g, '\\.')}$`) },
      reply,
    });
}

async function run(runId: string, agent: string, tasks: string[], dataset = DEV20, epochs?: number) {
  const started = await startBenchmarkRun(env, { dataset, agent, tasks, runId, epochs });
  const progress = (await started.handle.result()) as RunProgress;
  return { ...started, progress };
}

function keysOf(runId: string): string[] {
  return env.llm.log
    .filter((e) => e.answered && e.callKey?.startsWith(`${runId}/`))
    .map((e) => e.callKey!.slice(runId.length + 1));
}

beforeAll(async () => {
  // Each test adds its run's rules to this array, which the server reads live (it keeps the script it was given).
  rules.push(...Object.values(DEV20_SOLUTIONS));
  env = await startE2E({ rules }, { config: { sandbox: { executionTimeoutMs: 8_000 } } });
  workers = await startInProcessWorkers(env);
  running = workers.run();
}, 120_000);

afterAll(async () => {
  await workers?.shutdown();
  await running;
  await env?.close();
}, 60_000);

describe('checked_vote', () => {
  it('with a model that writes correct formulas and programs it scores what single scores, and compare pairs the runs', async () => {
    script('cv-right', { '39604/formula-1/0': excel(FORMULA_39604), '39604/formula-2/0': excel(FORMULA_39604) });
    for (const task of ['79-7', '599-9'])
      script('cv-right', {
        [`${task}/cand-1/0`]: block(SOLVE[task as keyof typeof SOLVE]),
        [`${task}/cand-1/1`]: block(SOLVE[task as keyof typeof SOLVE]),
        [`${task}/cand-2/0`]: block(SOLVE[task as keyof typeof SOLVE]),
        [`${task}/cand-2/1`]: block(SOLVE[task as keyof typeof SOLVE]),
        [`${task}/cand-3/0`]: block(SOLVE[task as keyof typeof SOLVE]),
        [`${task}/cand-3/1`]: block(SOLVE[task as keyof typeof SOLVE]),
        [`${task}/cand-4/0`]: block(SOLVE[task as keyof typeof SOLVE]),
        [`${task}/cand-4/1`]: block(SOLVE[task as keyof typeof SOLVE]),
      });
    const single = await run('cv-single', 'single', ['39604', '79-7', '599-9']);
    const ours = await run('cv-right', 'checked_vote', ['39604', '79-7', '599-9']);
    for (const task of ['39604', '79-7', '599-9'])
      expect(readTaskResult(ours.runDir, task).testCaseResults).toEqual(
        readTaskResult(single.runDir, task).testCaseResults,
      );
    expect(readTaskResult(ours.runDir, '39604').testCaseResults).toEqual([1, 1, 1]);
    // Two agreeing formula candidates settle the vote: no third sample, no Python candidate.
    expect(keysOf('cv-right').filter((k) => k.startsWith('39604/'))).toEqual([
      '39604/formula-1/0',
      '39604/formula-2/0',
    ]);
    const result = readTaskResult(ours.runDir, '39604');
    expect(result.stages.map((s) => s.stage)).toEqual([
      'prepare',
      'view',
      'formula-1.0',
      'formula-2.0',
      'vote',
      'recalc',
      'score',
    ]);
    expect(result.stages.find((s) => s.stage === 'formula-1.0')?.outcome).toMatch(
      /^=MAX\(0,IF\(\(B3\*1000\)<22000,B4-20,B4-30\)\): passed the checks/,
    );
    expect(result.stages.find((s) => s.stage === 'vote')?.outcome).toMatch(/formula-1\.0: 2 of 2 passing candidates/);
    // The formula prompt: one reply capped for a formula, the region and its first cell named.
    const ask = env.llm.log.find((e) => e.callKey === 'cv-right/39604/formula-1/0')!;
    expect(ask.messages[ask.messages.length - 1].content).toMatch(/Write the formula for C4 in one ```excel block\.$/);
    // 79-7 is sheet-level: Python candidates only.
    expect(keysOf('cv-right').filter((k) => k.startsWith('79-7/'))).toEqual(['79-7/cand-1/0', '79-7/cand-2/0']);
    // 599-9's program always raises: nothing passes, the input is submitted unchanged (the floor), with the class.
    const failed = readTaskResult(ours.runDir, '599-9');
    expect(failed.failure?.class).toBe('model');
    expect(failed.stages.find((s) => s.stage === 'cand-1.0')?.outcome).toMatch(/ValueError: model gave up/);
    // Its repair gives back the same program: not run a second time, and said so; three Python candidates
    // (checked-vote-v9) and one fresh candidate more (cand-4), and no more (one extra Python candidate per task).
    expect(failed.failure?.message).toMatch(
      /none of 4 candidate\(s\) passed the checks.*cand-1\.1: the repair repeats the code that failed the checks/,
    );
    expect(keysOf('cv-right').filter((k) => k.startsWith('599-9/'))).toEqual([
      '599-9/cand-1/0',
      '599-9/cand-1/1',
      '599-9/cand-2/0',
      '599-9/cand-2/1',
      '599-9/cand-3/0',
      '599-9/cand-3/1',
      '599-9/cand-4/0',
      '599-9/cand-4/1',
    ]);
    expect(failed.stages.find((s) => s.stage === 'cand-1.1')?.outcome).toBe(
      'no code: the repair repeats the code that failed the checks, unchanged',
    );
    expect(outputsOf(ours.runDir, '599-9')).toEqual([1, 2, 3]);
    const comparison = compareRunOutcomes([await loadRunOutcomes(single.runDir), await loadRunOutcomes(ours.runDir)]);
    const pair = comparison.pairs[0];
    expect(pair.hard.mcnemarP).toBe(1);
    expect(pair.softDiff.mean).toBe(0);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  }, 400_000);

  it('rejects a crash, a wrong guess loses the vote, a repair from the feedback wins; none passing leaves the input', async () => {
    script('cv-mixed', {
      '39604/formula-1/0': excel('=B4/0'),
      '39604/formula-1/1': excel(FORMULA_39604),
      // A wrong guess that keeps every cell of the user's formula (one dropping B3 fails dropped_reference: v13).
      '39604/formula-2/0': excel('=(B3*1000)+B4'),
      '39604/formula-3/0': excel(FORMULA_39604),
      '79-7/cand-1/0': block(CRASH),
      '79-7/cand-1/1': block(JUNK),
      '79-7/cand-2/0': 'Use Find and Replace (Ctrl+H) to remove the quotes.',
      '79-7/cand-2/1': 'Sorry, I cannot write code for this.',
      '79-7/cand-3/0': block(NOTHING),
      '79-7/cand-3/1': block(CRASH),
    });
    const ours = await run('cv-mixed', 'checked_vote', ['39604', '79-7']);
    // The formula's repair request names the error value the recalculated formula gave.
    const formulaRepair = env.llm.log.find((e) => e.callKey === 'cv-mixed/39604/formula-1/1')!;
    expect(formulaRepair.messages[formulaRepair.messages.length - 1].content).toMatch(
      /Your formula =B4\/0 was filled across C4[\s\S]*hold Excel errors, e\.g\. C4 = "#DIV\/0!"[\s\S]*corrected formula for C4/,
    );
    const won = readTaskResult(ours.runDir, '39604');
    expect(won.testCaseResults).toEqual([1, 1, 1]);
    expect(won.stages.find((s) => s.stage === 'formula-1.0')?.outcome).toMatch(/failed: tc1 error_value/);
    expect(won.stages.find((s) => s.stage === 'formula-2.0')?.outcome).toMatch(/^=\(B3\*1000\)\+B4: passed the checks/);
    expect(won.stages.find((s) => s.stage === 'vote')?.outcome).toMatch(
      // checked-vote-v15: the two candidates keeping the user's formula whole vote among themselves.
      /^among the passing candidates that keep the user's formula whole: formula-1\.1: 2 of 2 passing candidates/,
    );
    expect(keysOf('cv-mixed').some((k) => k.startsWith('39604/cand-'))).toBe(false);

    const requests = env.llm.log.filter((e) => e.callKey === 'cv-mixed/79-7/cand-1/1');
    const repairPrompt = requests[0].messages[requests[0].messages.length - 1].content;
    expect(repairPrompt).toMatch(
      /input 1: it raised an error:[\s\S]*KeyError: 'Worksheet Before Sheet does not exist.'/,
    );
    const lost = readTaskResult(ours.runDir, '79-7');
    expect(lost.failure?.class).toBe('model');
    expect(lost.stages.find((s) => s.stage === 'cand-1.0')?.outcome).toMatch(/^failed: tc1 crashed/);
    expect(lost.stages.find((s) => s.stage === 'cand-1.1')?.outcome).toMatch(/junk_text/);
    expect(lost.stages.find((s) => s.stage === 'cand-2.0')?.outcome).toBe('no code: reply has no code block');
    // Three Python candidates per task (checked-vote-v9): the third writes nothing, its repair crashes; no repair
    // repeated its reply, so no fourth is asked for.
    expect(lost.stages.find((s) => s.stage === 'cand-3.0')?.outcome).toMatch(/unchanged|empty/);
    expect(keysOf('cv-mixed').some((k) => k.startsWith('79-7/cand-4/'))).toBe(false);
    const noCodeRepair = env.llm.log.find((e) => e.callKey === 'cv-mixed/79-7/cand-2/1')!;
    expect(noCodeRepair.messages[noCodeRepair.messages.length - 1].content).toMatch(
      /could not be run: reply has no code block/,
    );
    // The outputs are the inputs, cell for cell (checked over the answer region, the scored cells).
    for (const n of [1, 2, 3]) {
      const input = path.join(DEV20, 'spreadsheet', '79-7', `${n}_79-7_input.xlsx`);
      const output = path.join(ours.runDir, 'outputs', 'checked_vote_scripted-model', `${n}_79-7_output.xlsx`);
      expect(await readRegion(output, "'Sheet1'!A1:A4")).toEqual(await readRegion(input, "'Sheet1'!A1:A4"));
    }

    // show: every candidate, check and repair is in the trajectory.
    const view = await spreadsheetTaskView(ours.runDir, '79-7');
    const steps = view.trajectory;
    const repair = steps.find((s) => s.stage === 'cand-1.1')!;
    expect(repair.exchanges[0].prompt).toMatch(/KeyError/);
    expect(repair.executions.map((e) => e.label)).toEqual(['cand-1.1-tc1', 'cand-1.1-tc2', 'cand-1.1-tc3']);
    expect(steps.find((s) => s.stage === 'cand-1.0')!.exchanges[0].prompt).toContain("# Answer region: 'Sheet1'!A1:A4");
    // …and every formula candidate, its repair and its executions.
    const formulaSteps = (await spreadsheetTaskView(ours.runDir, '39604')).trajectory;
    const formulaRepairStep = formulaSteps.find((s) => s.stage === 'formula-1.1')!;
    expect(formulaRepairStep.exchanges[0].prompt).toMatch(/#DIV\/0!/);
    expect(formulaRepairStep.exchanges[0].reply).toContain(FORMULA_39604);
    expect(formulaRepairStep.executions.map((e) => e.label)).toEqual([
      'formula-1.1-tc1',
      'formula-1.1-tc2',
      'formula-1.1-tc3',
    ]);
  }, 400_000);

  it('two passing candidates that disagree are a tie: one more is sampled and the majority wins', async () => {
    // Passes the checks (cells changed, no junk) but replaces the quotes with apostrophes: a wrong answer.
    const apostrophes =
      'def solve(wb):\n    for ws in wb.worksheets:\n        for row in ws.iter_rows():\n            for cell in row:\n                if isinstance(cell.value, str):\n                    cell.value = cell.value.replace(\'"\', "\'")';
    const backticks = apostrophes.replace(`"'"`, '"`"');
    script('cv-tie', {
      '79-7/cand-1/0': block(apostrophes),
      '79-7/cand-2/0': block(SOLVE['79-7']),
      '79-7/cand-3/0': block(backticks),
      '79-7/cand-4/0': block(SOLVE['79-7']),
    });
    const ours = await run('cv-tie', 'checked_vote', ['79-7']);
    const result = readTaskResult(ours.runDir, '79-7');
    expect(keysOf('cv-tie')).toEqual(['79-7/cand-1/0', '79-7/cand-2/0', '79-7/cand-3/0', '79-7/cand-4/0']);
    // checked-vote-v7.2: without the fourth sample the earliest, wrong candidate won the 1-1-1 tie.
    expect(result.stages.find((s) => s.stage === 'vote')?.outcome).toMatch(/^cand-2\.0: 2 of 4 passing candidates/);
    expect(result.testCaseResults).toEqual([1, 1, 1]);
  }, 400_000);

  it('a candidate that hangs is stopped by the sandbox timeout, named in the feedback, and repaired', async () => {
    script('cv-hang', {
      '79-7/cand-1/0': block(HANG),
      '79-7/cand-1/1': block(SOLVE['79-7']),
      '79-7/cand-2/0': block(SOLVE['79-7']),
    });
    const ours = await run('cv-hang', 'checked_vote', ['79-7']);
    const result = readTaskResult(ours.runDir, '79-7');
    expect(result.stages.find((s) => s.stage === 'cand-1.0')?.outcome).toMatch(/timed_out/);
    const repair = env.llm.log.find((e) => e.callKey === 'cv-hang/79-7/cand-1/1')!;
    expect(repair.messages[repair.messages.length - 1].content).toMatch(/did not finish within the time limit/);
    expect(result.stages.find((s) => s.stage === 'vote')?.outcome).toMatch(/^cand-1\.1: 2 of 2 passing candidates/);
    expect(result.failure).toBeUndefined();
  }, 400_000);

  it('a repair that repeats the failed formula is not run: a fresh candidate follows, at most two more per task', async () => {
    const broken = excel('=1/0');
    const temperatures: Record<string, number | undefined> = {};
    for (const key of ['formula-1/0', 'formula-1/1'])
      rules.push({
        match: { callKey: new RegExp(`^cv-repeat/39604/${key}$`) },
        reply: (request) => {
          temperatures[key] = request.temperature;
          return broken;
        },
      });
    script('cv-repeat', {
      '39604/formula-2/0': broken,
      '39604/formula-2/1': excel('=2/0'),
      '39604/formula-3/0': broken,
      '39604/formula-3/1': broken,
      '39604/formula-4/0': excel(FORMULA_39604),
      '39604/formula-5/0': excel(FORMULA_39604),
      '39604/formula-6/0': excel(FORMULA_39604),
    });
    const ours = await run('cv-repeat', 'checked_vote', ['39604']);
    const result = readTaskResult(ours.runDir, '39604');
    expect(result.stages.find((s) => s.stage === 'formula-1.1')?.outcome).toBe(
      'no formula: the repair repeats the formula that failed the checks, unchanged',
    );
    // Two repeats, two fresh candidates (4 and 5); a changed repair (2.1) earns none; 4 and 5 agree and win.
    expect(keysOf('cv-repeat')).toEqual([
      '39604/formula-1/0',
      '39604/formula-1/1',
      '39604/formula-2/0',
      '39604/formula-2/1',
      '39604/formula-3/0',
      '39604/formula-3/1',
      '39604/formula-4/0',
      '39604/formula-5/0',
    ]);
    expect(readTaskResult(ours.runDir, '39604').testCaseResults).toEqual([1, 1, 1]);
    expect(result.stages.find((s) => s.stage === 'vote')?.outcome).toMatch(
      /^among the passing candidates that keep the user's formula whole: formula-4\.0: 2 of 2 passing/,
    );
    // The repair was sampled (a repair at temperature 0 mostly repeats); the first reply at the run's temperature.
    expect(temperatures['formula-1/1']).toBe(0.7);
    expect(temperatures['formula-1/0']).not.toBe(0.7);
  }, 400_000);

  it('a formula whose checks name their fix is mended by the harness and checked again, without a model call', async () => {
    // 57105's forum formula: it reads the empty column A for the months (they are in B), sums the dates (L) by the
    // amounts (K), and starts its ranges at row 7, below the payments of rows 4-6. Its checks name all three; the
    // harness makes the swaps itself (checked-vote-v9).
    const forum = excel('=SUMIFS($L$7:$L$57,$K$7:$K$57,">="&$A4,$K$7:$K$57,"<="&EOM($A4,0))');
    script('cv-mend', { '57105/formula-1/0': forum, '57105/formula-2/0': forum, '57105/formula-3/0': forum });
    const ours = await run('cv-mend', 'checked_vote', ['57105']);
    const result = readTaskResult(ours.runDir, '57105');
    expect(result.stages.find((s) => s.stage === 'formula-1.0')?.outcome).toMatch(/: failed: /);
    const mended = result.stages.find((s) => s.stage === 'formula-1.0m1')?.outcome ?? '';
    expect(mended.split(': passed the checks')[0]).toBe(
      `=SUMIFS($K$4:$K$57,$L$4:$L$57,">="&$B4,$L$4:$L$57,"<="&EOMONTH($B4,0)) (the harness's mend: $A4 -> $B4 (empty_reference), $K$7:$K$57 -> $L$4:$L$57 (criteria_mismatch), $L$7:$L$57 -> $K$4:$K$57 (criteria_mismatch))`,
    );
    // …which is the answer's formula on every test case (its ranges start at the data's first row, 4).
    expect(result.testCaseResults).toEqual([1, 1, 1]);
    expect(mended).toMatch(/: passed the checks \(answer cells [0-9a-f]+\)$/);
    // No repair was asked of the model: the mend passed; the second candidate, mended alike, agrees.
    expect(keysOf('cv-mend')).toEqual(['57105/formula-1/0', '57105/formula-2/0']);
    expect(result.stages.find((s) => s.stage === 'vote')?.outcome).toMatch(/^formula-1\.0m1: 2 of 2 passing/);
    expect(result.llmCalls).toBe(2);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  }, 400_000);

  it('a model that never writes code: the inputs stay as they were and the task fails as a model failure', async () => {
    const prose = 'You can use a VBA macro for this.';
    const keys = ['1/0', '1/1', '2/0', '2/1', '3/0', '3/1'];
    script('cv-prose', Object.fromEntries(keys.map((k) => [`599-9/cand-${k}`, prose])));
    const ours = await run('cv-prose', 'checked_vote', ['599-9']);
    const result = readTaskResult(ours.runDir, '599-9');
    expect(result.failure).toEqual({
      class: 'model',
      message: expect.stringMatching(/none of 3 candidate\(s\) passed.*reply has no code block/),
    });
    expect(result.llmCalls).toBe(6);
    expect(outputsOf(ours.runDir, '599-9')).toEqual([1, 2, 3]);
    expect(ours.progress.done).toBe(1);
  }, 400_000);

  it('a model that never writes a usable formula: each reply is fed back, none passes, the inputs stay as they were', async () => {
    const prose = 'You can do this with a VBA macro or by hand.';
    script('cv-noformula', {
      ...Object.fromEntries(['1/1', '2/0', '2/1', '3/0', '3/1'].map((k) => [`39604/formula-${k}`, prose])),
      '39604/formula-1/0': excel('=IF(B4<=20,0,XYZZYQ(B4,0))'),
    });
    const ours = await run('cv-noformula', 'checked_vote', ['39604']);
    const result = readTaskResult(ours.runDir, '39604');
    // A function that does not exist (and is no slip of a real one) is caught before anything runs.
    expect(result.stages.find((s) => s.stage === 'formula-1.0')?.outcome).toBe(
      'no formula: XYZZYQ is not an Excel function',
    );
    const retry = env.llm.log.find((e) => e.callKey === 'cv-noformula/39604/formula-1/1')!;
    expect(retry.messages[retry.messages.length - 1].content).toMatch(
      /could not be used: XYZZYQ is not an Excel function\./,
    );
    expect(result.stages.find((s) => s.stage === 'formula-2.0')?.outcome).toBe(
      'no formula: the reply holds no formula (no line starting with "=")',
    );
    // checked-vote-v4: no Python fallback after the formula candidates; the submission is the unchanged inputs.
    expect(keysOf('cv-noformula').some((k) => k.includes('/cand-'))).toBe(false);
    expect(result.failure?.message).toMatch(/none of 3 candidate\(s\) passed/);
    expect(outputsOf(ours.runDir, '39604')).toEqual([1, 2, 3]);
    expect(result.llmCalls).toBe(6);
  }, 400_000);

  it('an input that cannot be opened fails the task as a dataset error, naming it, with no model call', async () => {
    const dataset = mkdtempSync(path.join(os.tmpdir(), 'cv-bad-'));
    const all = JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as { id: unknown }[];
    writeFileSync(path.join(dataset, 'dataset.json'), JSON.stringify(all.filter((t) => String(t.id) === '39604')));
    mkdirSync(path.join(dataset, 'spreadsheet'));
    cpSync(path.join(DEV20, 'spreadsheet', '39604'), path.join(dataset, 'spreadsheet', '39604'), { recursive: true });
    // A zip header, then garbage: it passes the quick file check and breaks only when opened.
    writeFileSync(
      path.join(dataset, 'spreadsheet', '39604', '1_39604_input.xlsx'),
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 7)]),
    );
    const ours = await run('cv-bad', 'checked_vote', ['39604'], dataset);
    const result = readTaskResult(ours.runDir, '39604');
    expect(result.failure?.class).toBe('dataset');
    expect(result.failure?.message).toMatch(/^task 39604: cannot open 1_39604_input\.xlsx to view it: .*(zip|Zip)/);
    expect(keysOf('cv-bad')).toEqual([]);
    expect(existsSync(path.join(ours.runDir, 'results', '39604.json'))).toBe(true);
    expect(ours.progress.done).toBe(1);
  }, 400_000);

  it('--epochs: each attempt samples its own candidates (distinct call keys), both scored', async () => {
    script('cv-epochs', {
      '39604/formula-1/0': excel(FORMULA_39604),
      '39604/formula-2/0': excel(FORMULA_39604),
      '39604@2/formula-1/0': excel('=IF((B3*1000)<22000,B4-20,B4-30)+999'),
      '39604@2/formula-2/0': excel(FORMULA_39604),
      '39604@2/formula-3/0': excel('=IF((B3*1000)<22000,B4-20,B4-30)+999'),
    });
    const ours = await run('cv-epochs', 'checked_vote', ['39604'], DEV20, 2);
    expect(readTaskResult(ours.runDir, '39604').testCaseResults).toEqual([1, 1, 1]);
    // The wrong value is written by two of three, all keeping the user's formula whole: the vote follows the majority
    // (checks cannot know the answer).
    expect(readTaskResult(ours.runDir, '39604@2').testCaseResults).toEqual([0, 0, 0]);
    expect(keysOf('cv-epochs').sort()).toEqual([
      '39604/formula-1/0',
      '39604/formula-2/0',
      '39604@2/formula-1/0',
      '39604@2/formula-2/0',
      '39604@2/formula-3/0',
    ]);
    const summary = JSON.parse(readFileSync(path.join(ours.runDir, 'summary.json'), 'utf8'));
    expect(summary.overall.soft).toBeCloseTo(0.5, 6);
  }, 400_000);
});
