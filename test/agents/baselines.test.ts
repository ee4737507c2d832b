import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../lib/scriptedLlm';
import type { WorkerSet } from '../../workers/createWorkers';
import { startE2E, type E2EEnv } from '../helpers/e2e';
import {
  byCallKey,
  executionLabels,
  outputsOf,
  pathsIn,
  python,
  readTaskResult,
  requestsOf,
  runAgentOn,
  startInProcessWorkers,
} from './harness';

/**
 * The official multi-round settings end to end: real Temporal, real sandbox (bwrap), real LibreOffice recalc, scripted
 * model. 39604: explore (sets kernel state) → a failing solution → the fix, which reads the state of round 1.
 */
let env: E2EEnv;
let workers: WorkerSet;
let running: Promise<void>;

const FORMULA = '=IF(B4<=20,0,IF((B3*1000)<22000,B4-20,B4-30))';

function rowExecScript() {
  return [
    ...byCallKey('39604', {
      'main/0': (r: ScriptedRequest) =>
        python(
          `import openpyxl\nwb = openpyxl.load_workbook('${pathsIn(r).input}')\nexplored = wb['before']['B3'].value\nprint('B3 is', explored)`,
          'Let me look first.',
        ),
      'main/2': (r: ScriptedRequest) =>
        python(
          `import openpyxl\nwb2 = openpyxl.load_workbook('${pathsIn(r).input}')\nws = wb2['Before Sheet']\nws['C4'] = '${FORMULA}'\nwb2.save('${pathsIn(r).output}')`,
        ),
      'main/4': (r: ScriptedRequest) =>
        python(
          `import openpyxl\nwb2 = openpyxl.load_workbook('${pathsIn(r).input}')\nws = wb2['before']\nws['C4'] = '${FORMULA}'\nwb2.save('${pathsIn(r).output}')\nprint('saved; state from round 1:', globals().get('explored'))`,
          'The sheet is called before.',
        ),
    }),
  ];
}

function oneShot(task: string) {
  return byCallKey(task, {
    'main/0': (r: ScriptedRequest) =>
      python(
        `import openpyxl\nwb = openpyxl.load_workbook('${pathsIn(r).input}')\nfor ws in wb.worksheets:\n    for row in ws.iter_rows():\n        for c in row:\n            if isinstance(c.value, str):\n                c.value = c.value.replace('"', '')\nwb.save('${pathsIn(r).output}')`,
      ),
  });
}

beforeAll(async () => {
  env = await startE2E(
    { rules: [...rowExecScript(), ...oneShot('79-7')] },
    { config: { spreadsheetbench: { maxSteps: 5 } } },
  );
  workers = await startInProcessWorkers(env);
  running = workers.run();
}, 120_000);

afterAll(async () => {
  await workers?.shutdown();
  await running;
  await env?.close();
}, 60_000);

describe('row_exec', () => {
  it('explores, sees its error, fixes it in a persistent kernel, stops on the fresh output, replays tc2..3', async () => {
    const run = await runAgentOn(env, 'row_exec', ['39604']);
    const requests = requestsOf(env.llm.log, run.runId, '39604');
    expect(requests.map((r) => r.callKey!.split('/').slice(-2).join('/'))).toEqual(['main/0', 'main/2', 'main/4']);
    const [first, second, third] = requests;
    expect(first.messages).toHaveLength(1);
    const prompt = first.messages[0].content;
    expect(prompt).toMatch(/^You are a spreadsheet expert who can manipulate spreadsheets through Python code/);
    for (const field of [
      'instruction',
      'spreadsheet_path',
      'spreadsheet_content',
      'instruction_type',
      'answer_position',
      'output_path',
    ]) {
      expect(prompt).toContain(`### ${field}\n`);
    }
    expect(prompt).toContain('Sheet Name: before');
    expect(prompt).toContain('### output_path\n/mnt/data/outputs/multi_row_exec_scripted-model/1_39604_output.xlsx');
    expect(prompt).toMatch(/generate Python code for the final solution/);
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages[2].content).toContain('B3 is 18.11');
    expect(third.messages).toHaveLength(5);
    expect(third.messages[4].content).toMatch(/^Traceback[\s\S]*KeyError: 'Worksheet Before Sheet does not exist.'$/);

    const result = readTaskResult(run.runDir, '39604');
    // Test cases 2 and 3 run in one execute stage (one activity, a fresh sandbox each).
    expect(result.stages.map((s) => s.stage)).toEqual([
      'prepare',
      'round-1',
      'round-2',
      'round-3',
      'execute',
      'recalc',
      'score',
    ]);
    expect(result.stages.find((s) => s.stage === 'round-2')?.outcome).toBe('execution failed');
    expect(result.llmCalls).toBe(3);
    expect(executionLabels(run.runDir, '39604')).toEqual(['final-tc2', 'final-tc3', 'round-1', 'round-2', 'round-3']);
    expect(outputsOf(run.runDir, '39604')).toEqual([1, 2, 3]);
    expect(result.failure).toBeUndefined();
    expect(result.testCaseResults).toEqual([1, 1, 1]);
  });
});

describe.each([
  ['react_exec', false],
  ['row_react_exec', true],
])('%s', (agent, preview) => {
  it(`sends the ReAct prompt ${preview ? 'with' : 'without'} the preview and stops after the solving round`, async () => {
    const run = await runAgentOn(env, agent, ['79-7']);
    const requests = requestsOf(env.llm.log, run.runId, '79-7');
    expect(requests).toHaveLength(1);
    const prompt = requests[0].messages[0].content;
    expect(prompt).toContain('can be generate through 5 rounds of interaction');
    expect(prompt.includes('### spreadsheet_content')).toBe(preview);
    expect(prompt).toContain(`/mnt/data/outputs/multi_${agent}_scripted-model/1_79-7_output.xlsx`);
    const result = readTaskResult(run.runDir, '79-7');
    expect(result.stages.filter((s) => s.stage.startsWith('round-'))).toHaveLength(1);
    expect(outputsOf(run.runDir, '79-7')).toEqual([1, 2, 3]);
    expect(result.testCaseResults).toEqual([1, 1, 1]);
  });
});
