import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPUTED_LEAD, REPLACED_NOTE } from '../../analysis/grounding/computedAnswer';
import type { Grounding } from '../../analysis/grounding/types';
import { REVISE_ANSWER_LEAD } from '../../analysis/conversation/prompts';
import type { Pattern } from '../../contracts/conversation';
import { requiredCallNudge } from '../../lib/llm/textActions';
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';
import { runCases, startAnalysisEnv, type AnalysisEnv, type CaseOutcome } from '../helpers/analysis';
import { instructionReply, isSecondProgram, SALES_CSV } from '../helpers/analysisModel';

/**
 * The failure modes of the embedded models, end to end through the text protocol (real Temporal, sandbox and tools;
 * a scripted model that writes text, never native tool calls): code described in prose where a tool call is required,
 * a right table saved and then wrong numbers retyped, rows counted for a total. And a right answer left untouched.
 */
const LOAD = "import pandas as pd\ndf = pd.read_csv('sales.csv')";
const BY_REGION = `${LOAD}\nby_region = df.groupby('region', as_index=False)['amount'].sum()\nsave_table(by_region, id='by_region', title='Sales by region')\nprint(df['amount'].sum())`;
const TOTAL = `${LOAD}\nprint(df['amount'].sum())`;
const SUMS_PRINTED = `${LOAD}\nsums = df.groupby('region')['amount'].sum()\nprint(sums.to_string())\nprint(sums.sum())`;
const COUNTS = `${LOAD}\nprint(df['region'].value_counts().to_string())`;

const python = (code: string): ScriptedReply => ({ text: `Running it.\n\`\`\`python\n${code}\n\`\`\`` });

/** A small model speaking the text protocol, steered by tags in the question. */
function smallModel(r: ScriptedRequest): ScriptedReply {
  if (r.tools.length) throw new Error('the text protocol must not send native tools');
  const instructed = instructionReply(r);
  if (instructed) return instructed;
  const question = r.messages.find((m) => m.role === 'user')?.content ?? '';
  const last = r.messages.at(-1)!;
  const revising = r.messages.some((m) => m.role === 'user' && m.content.startsWith(REVISE_ANSWER_LEAD));
  if (last.role === 'user' && last.content.startsWith('Result of ')) return { text: answerFor(question, revising) };
  // The cross-check's second program prints the sums per region it computed; the stubborn model counts rows there too,
  // and a total question goes through the prose path like the first program.
  if (isSecondProgram(r) && !question.includes('[PROSE]') && !question.includes('[STUBBORNTALLY]'))
    return python(SUMS_PRINTED);
  if (question.includes('[PROSE]'))
    return last.content === requiredCallNudge([pythonSpec])
      ? python(TOTAL)
      : { text: 'You can read sales.csv with pandas and sum its amount column.' };
  if (question.includes('[TALLY]')) return python(revising ? BY_REGION : COUNTS);
  if (question.includes('[STUBBORNTALLY]')) return python(revising ? `${COUNTS}\n# again` : COUNTS);
  return python(BY_REGION);
}

function answerFor(question: string, revising: boolean): string {
  if (question.includes('[PROSE]')) return 'The total amount is **47**.';
  if (question.includes('[RETYPE]')) return 'North: **1000**, south: **2000**.';
  if (question.includes('[TALLY]') && revising) return 'North: **15**, south: **32**.';
  if (question.includes('TALLY]')) return 'North: **2**, south: **1**.';
  return 'North sold **15** and south **32**.';
}

const pythonSpec = {
  type: 'function' as const,
  function: { name: 'python_execute', description: '', parameters: {} },
};

describe('small-model answers through the text protocol', () => {
  let a: AnalysisEnv;
  let outcomes = new Map<string, CaseOutcome>();
  const cases: Array<[string, Pattern, string]> = [
    ['prose', 'direct', 'What is the total amount in sales.csv? [PROSE]'],
    ['retype', 'react', 'What is the total amount per region in sales.csv? [RETYPE]'],
    ['right', 'react', 'What is the total amount per region in sales.csv? [RIGHT]'],
    ['tally', 'auto', 'What is the total amount per region in sales.csv? [TALLY] [JIT:react]'],
    ['stubborn-tally', 'auto', 'What is the total amount per region in sales.csv? [STUBBORNTALLY] [JIT:react]'],
  ];

  beforeAll(async () => {
    a = await startAnalysisEnv(smallModel, { conversation: { toolCalling: 'text' } });
    outcomes = await runCases(a, cases, Buffer.from(SALES_CSV));
  }, 420_000);
  afterAll(async () => a?.close());

  const results = (o: CaseOutcome) => o.events.filter((e) => e.type === 'tool_result');
  const grounding = (o: CaseOutcome) => o.events.find((e) => e.type === 'grounding')?.data as unknown as Grounding;
  const requestsFor = (tag: string) =>
    a.env.llm.log.filter((e) => e.messages.some((m) => m.role === 'user' && m.content.includes(tag)));

  it('code described in prose where a run is required: asked once more, the code it then writes runs', () => {
    const o = outcomes.get('prose')!;
    expect(o.status).toBe('completed');
    // The first program's requests (the second program of the cross-check writes prose too, and is nudged the same way).
    const nudged = requestsFor('[PROSE]').filter(
      (e) => !isSecondProgram(e) && e.messages.at(-1)?.content === requiredCallNudge([pythonSpec]),
    );
    expect(nudged).toHaveLength(1);
    // The first program's run, then the second program's (which agrees: the answer stands).
    expect(results(o)).toHaveLength(2);
    expect(results(o)[0].data).toMatchObject({ tool: 'python_execute', ok: true, stdout: '47\n' });
    expect(o.answer).toBe('The total amount is **47**.');
  });

  it('the right table saved, wrong numbers retyped: the answer shows the table the code computed', () => {
    const o = outcomes.get('retype')!;
    expect(o.status).toBe('completed');
    expect(o.answer).toContain(`${COMPUTED_LEAD} (the table the code saved, \`viz/by_region.csv\`)`);
    expect(o.answer).toContain('| north | 15 |');
    expect(o.answer).toContain('| south | 32 |');
    expect(o.answer).toContain(REPLACED_NOTE);
    expect(o.answer).not.toContain('1000');
    expect(o.answer).not.toContain('Check failed');
    expect(grounding(o)).toMatchObject({ total: 2, grounded: 2 });
  });

  it('a right answer is left as the model wrote it', () => {
    const o = outcomes.get('right')!;
    expect(o.answer).toBe('North sold **15** and south **32**.');
    expect(grounding(o)).toMatchObject({ total: 2, grounded: 2 });
  });

  it('rows counted for a total: caught, revised with code required, answered with the sums', () => {
    const o = outcomes.get('tally')!;
    expect(o.events.filter((e) => e.type === 'step' && e.data.kind === 'revise')).toHaveLength(1);
    // The count, the revision's sums, then the second program's sums (which agree with the revised answer).
    expect(results(o).map((r) => r.data.ok)).toEqual([true, true, true]);
    expect(o.events.filter((e) => e.type === 'step' && e.data.kind === 'cross_check')).toHaveLength(1);
    expect(o.answer).toBe('North: **15**, south: **32**.');
  });

  it('rows still counted after the revision: the counts are not dressed up as the answer, the note says why', () => {
    const o = outcomes.get('stubborn-tally')!;
    expect(o.answer.startsWith('North: **2**, south: **1**.\n\n> **Check failed:**')).toBe(true);
    expect(o.answer).toContain('counted rows (`value_counts`)');
    expect(o.answer).not.toContain(COMPUTED_LEAD);
  });
});
