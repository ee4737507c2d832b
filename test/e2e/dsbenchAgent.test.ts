import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, type Script } from '../../lib/scriptedLlm';
import { runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DSBENCH_SAMPLE_SCRIPT } from '../helpers/dsbenchScript';
import { writeDsbenchReport } from '../../benchmarks/dsbench/report';

const SAMPLE = path.resolve(__dirname, '../../data/dsbench-sample');

/** Round 0 explores the workbook with code; round 1 answers from what the execution printed. */
const AGENT_SCRIPT: Script = {
  rules: [
    DSBENCH_SAMPLE_SCRIPT.rules[0],
    {
      name: 'explore',
      match: { callKey: /00000101_question2\/agent\/0$/ },
      reply:
        "Let me read the workbook.\n```python\nimport os\nimport pandas as pd\nprint(sorted(os.listdir('.')))\nprint(int(pd.read_excel('model.xlsx', sheet_name='Costs')['Amount'].sum()))\n```",
    },
    {
      name: 'answer from output',
      match: { callKey: /00000101_question2\/agent\/1$/ },
      reply: (r) => `The total of all costs is ${r.lastUser.trim().split('\n').at(-1)}.`,
    },
    { name: 'theory', match: { callKey: /00000103_question1\/agent\/0$/ }, reply: 'B' },
  ],
};

describe('DSBench agent setting end to end', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: Awaited<ReturnType<typeof runToEnd>>;

  beforeAll(async () => {
    env = await startE2E(AGENT_SCRIPT, { config: { recalc: { engine: 'none' } } });
    run = await startBenchmarkRun(env, {
      dataset: SAMPLE,
      agent: 'agent',
      tasks: ['00000101_question2', '00000103_question1'],
    });
    final = await runToEnd(env, run);
  }, 240_000);
  afterAll(async () => env?.close());

  const result = (id: string) => JSON.parse(readFileSync(path.join(run.runDir, 'results', `${id}.json`), 'utf8'));

  it('answers from code it ran on the workbooks (a multi-round ReAct loop), and the judge scores it', () => {
    expect(final.done).toBe(2);
    expect(result('00000101_question2')).toMatchObject({
      verdict: 'correct',
      predicted: 'The total of all costs is 14500.',
      llmCalls: 3,
    });
    expect(result('00000103_question1')).toMatchObject({ verdict: 'correct', llmCalls: 2 });
  });

  it('gives the agent the workbooks as files (never the answer workbook) and the guessing sentence', () => {
    const execution = readFileSync(
      path.join(run.runDir, 'tasks', '00000101_question2', 'agent', 'execution-0.txt'),
      'utf8',
    );
    expect(execution).toBe("['model.xlsx']\n14500\n");
    const first = env.llm.log.find((e) => e.callKey?.endsWith('00000101_question2/agent/0'))!;
    expect(first.messages[0].role).toBe('system');
    expect(first.messages[1].content).toContain('The workbook files are in the current working directory: model.xlsx.');
    expect(first.messages[1].content).toContain('you must guess an option');
    expect(first.messages[1].content).not.toContain('ANSWERS');
    const second = env.llm.log.find((e) => e.callKey?.endsWith('00000101_question2/agent/1'))!;
    expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  });

  it('writes summary, report and Inspect log for the agent run', async () => {
    const summary = JSON.parse(readFileSync(path.join(run.runDir, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ agent: 'agent', dsbench: { accuracy: 1, questions: 2 } });
    const written = await writeDsbenchReport({ runDir: run.runDir });
    expect(readFileSync(written.markdown, 'utf8')).toContain('DSBench agent');
  });
});
