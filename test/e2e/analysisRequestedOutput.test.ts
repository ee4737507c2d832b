import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_LEAD, REQUESTED_OUTPUT_LEAD } from '../../analysis/conversation/prompts';
import type { Pattern } from '../../contracts/conversation';
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';
import { runCases, startAnalysisEnv, type AnalysisEnv, type CaseOutcome } from '../helpers/analysis';
import { instructionReply, SALES_CSV } from '../helpers/analysisModel';

/**
 * A chart or table the question asks for and the turn did not save, end to end (the scripted OpenAI-compatible server
 * speaking the text protocol of the embedded models, real Temporal, sandbox and tools): like the 1.5B under `direct` on
 * the suite's a10 and a14, the model prints the totals and answers; the turn then asks it once to save the output with
 * the helper, and the saved chart or table is the turn's. A turn that saved it is not asked; a model that still saves
 * nothing is asked once only and its answer stands.
 */
const LOAD = "import pandas as pd\ndf = pd.read_csv('sales.csv')";
const SUMS = `${LOAD}\ntotals = df.groupby('region', as_index=False)['amount'].sum()\nprint(totals.to_string(index=False))`;
const SAVE_CHART = "save_chart(totals, kind='bar', x='region', y='amount', title='Total amount by region')";
const SAVE_TABLE = "save_table(totals, title='Total amount by region')";

const python = (code: string): ScriptedReply => ({ text: `Running it.\n\`\`\`python\n${code}\n\`\`\`` });
const asked = (r: ScriptedRequest) =>
  r.messages.some((m) => m.role === 'user' && m.content.startsWith(REQUESTED_OUTPUT_LEAD));

/** A small model: prints the totals (saving what the tag says), answers from them; asked to save, does (unless stubborn). */
function model(r: ScriptedRequest): ScriptedReply {
  const question = r.messages.find((m) => m.role === 'user')?.content ?? '';
  const last = r.messages.at(-1)!;
  const instructed = instructionReply(r);
  if (instructed) return instructed;
  // Like the 1.5B asked for a10's chart: call after call that does nothing (each a little different), never answering.
  if (asked(r) && question.includes('[ENDLESS]')) return python(`raise ValueError('not yet ${r.messages.length}')`);
  const placeholderAsked = r.messages.some((m) => m.role === 'user' && m.content.startsWith(PLACEHOLDER_LEAD));
  if (last.role === 'user' && last.content.startsWith('Result of ')) {
    // Like the 1.5B on a09: the count computed, not printed, a placeholder answered (until asked).
    if (question.includes('[PLACEHOLDER]') && !placeholderAsked)
      return { text: 'The number of regions is **[insert the count here]**.' };
    if (question.includes('[PLACEHOLDER]')) return { text: 'There are **2** regions.' };
    return { text: 'North **15**, south **32**.' };
  }
  if (question.includes('[PLACEHOLDER]'))
    return python(placeholderAsked ? 'print(count)' : `${LOAD}\ncount = df['region'].nunique()`);
  if (asked(r) && !question.includes('[STUBBORN]'))
    return python(`${SUMS}\n${question.includes('table') ? SAVE_TABLE : SAVE_CHART}`);
  if (asked(r)) return python(`${SUMS}\n# printed again`);
  if (question.includes('[SAVES]') || question.includes('[BOTH]')) return python(`${SUMS}\n${SAVE_CHART}`);
  return python(SUMS);
}

describe('a chart or table asked for and not saved: asked for once', () => {
  let a: AnalysisEnv;
  let outcomes = new Map<string, CaseOutcome>();
  const chart = (tag: string) => `Make a bar chart of the total amount by region from sales.csv. ${tag}`;
  const cases: Array<[string, Pattern, string]> = [
    ['chart', 'direct', chart('[CHART]')],
    ['table', 'direct', `Make a table of the total amount per region from sales.csv. [TABLE]`],
    ['saved', 'direct', chart('[SAVES]')],
    ['both', 'direct', 'Make a table of the total amount per region and a bar chart of it from sales.csv. [BOTH]'],
    ['stubborn', 'direct', chart('[STUBBORN]')],
    ['react', 'react', chart('[REACT]')],
    ['numbers', 'direct', 'What is the total amount per region in sales.csv? [NUMBERS]'],
    ['placeholder', 'direct', 'How many regions are in sales.csv? [PLACEHOLDER]'],
    ['endless', 'direct', chart('[ENDLESS]')],
  ];

  beforeAll(async () => {
    a = await startAnalysisEnv(model, { conversation: { toolCalling: 'text' } });
    outcomes = await runCases(a, cases, Buffer.from(SALES_CSV));
  }, 600_000);
  afterAll(async () => a?.close());

  const requests = (o: CaseOutcome) => o.events.filter((e) => e.type === 'step' && e.data.kind === 'revise');
  const sentFor = (tag: string) =>
    a.env.llm.log
      .filter((e) => e.messages.some((m) => m.role === 'user' && m.content.includes(tag)))
      .flatMap((e) => e.messages.filter((m) => m.role === 'user' && m.content.startsWith(REQUESTED_OUTPUT_LEAD)))
      .map((m) => m.content);
  const saved = (o: CaseOutcome) =>
    o.events.filter((e) => e.type === 'visualization').map((e) => (e.data as { output: { type: string } }).output.type);

  it('direct printed the totals for a bar chart: asked once to save it with save_chart(kind bar), the chart is saved', () => {
    const o = outcomes.get('chart')!;
    expect(o.status).toBe('completed');
    expect(requests(o).map((e) => String(e.data.text))).toEqual([
      'The question asks for a chart and this turn saved none: the model is asked once to save it.',
    ]);
    const sent = new Set(sentFor('[CHART]'));
    expect(sent.size).toBe(1);
    expect([...sent][0]).toContain("save_chart(df, kind='bar'");
    expect(saved(o)).toEqual(['bar_chart']);
    expect(o.answer).toBe('North **15**, south **32**.');
  });

  it('a table asked for: asked for with save_table, the table is saved', () => {
    const o = outcomes.get('table')!;
    expect([...new Set(sentFor('[TABLE]'))]).toEqual([expect.stringContaining('save_table(df, title=...)')]);
    expect(saved(o)).toEqual(['table']);
  });

  it('a turn that saved the chart is not asked', () => {
    const o = outcomes.get('saved')!;
    expect(requests(o)).toHaveLength(0);
    expect(sentFor('[SAVES]')).toHaveLength(0);
    expect(saved(o)).toEqual(['bar_chart']);
  });

  it('a table and a chart asked for, the chart saved: asked once for the table, both are saved', () => {
    const o = outcomes.get('both')!;
    expect(requests(o).map((e) => String(e.data.text))).toEqual([
      'The question asks for a table and this turn saved none: the model is asked once to save it.',
    ]);
    expect([...new Set(sentFor('[BOTH]'))]).toEqual([expect.stringContaining('save_table(df, title=...)')]);
    // Each execution's outputs list the turn's saved outputs so far: the chart is listed again beside the table.
    const byId = new Map(
      o.events
        .filter((e) => e.type === 'visualization')
        .map((e) => (e.data as { output: { id: string; type: string } }).output)
        .map((out) => [out.id, out.type]),
    );
    expect([...byId]).toEqual([
      ['bar-1', 'bar_chart'],
      ['table-1', 'table'],
    ]);
  });

  it('a model that still saves nothing is asked once only; its answer stands', () => {
    const o = outcomes.get('stubborn')!;
    expect(o.status).toBe('completed');
    expect(new Set(sentFor('[STUBBORN]')).size).toBe(1);
    expect(requests(o)).toHaveLength(1);
    expect(saved(o)).toEqual([]);
    expect(o.answer).toBe('North **15**, south **32**.');
  });

  it('every pattern, not only direct: react is asked too', () => {
    expect(saved(outcomes.get('react')!)).toEqual(['bar_chart']);
    expect(new Set(sentFor('[REACT]')).size).toBe(1);
  });

  it('a question asking for numbers only asks for no output', () => {
    const o = outcomes.get('numbers')!;
    expect(requests(o)).toHaveLength(0);
    expect(sentFor('[NUMBERS]')).toHaveLength(0);
  });

  it('a placeholder where the value should be (a09: the count computed, never printed): asked once to print it; answered', () => {
    const o = outcomes.get('placeholder')!;
    expect(o.status).toBe('completed');
    expect(requests(o).map((e) => String(e.data.text))).toEqual([
      'The answer has a placeholder ([insert the count here]) where its value should be: the model is asked once to compute and print it.',
    ]);
    const sent = a.env.llm.log
      .filter((e) => e.messages.some((m) => m.content.includes('[PLACEHOLDER]')))
      .flatMap((e) => e.messages.filter((m) => m.role === 'user' && m.content.startsWith(PLACEHOLDER_LEAD)))
      .map((m) => m.content);
    expect(new Set(sent).size).toBe(1);
    expect(o.answer).toBe('There are **2** regions.');
  });

  it('a model that keeps calling tools when asked gets two code runs, then an answer step without tools; the turn completes', () => {
    const o = outcomes.get('endless')!;
    expect(o.status).toBe('completed');
    const afterAsk = a.env.llm.log.filter(
      (e) =>
        e.messages.some((m) => m.content.includes('[ENDLESS]')) && asked({ messages: e.messages } as ScriptedRequest),
    );
    expect(afterAsk).toHaveLength(3);
    // The first run, the ask's two (then the cross-check's second program, if it runs).
    const runs = o.events.filter((e) => e.type === 'tool_result').map((e) => e.data.ok);
    expect(runs.slice(0, 3)).toEqual([true, false, false]);
    expect(saved(o)).toEqual([]);
  });
});
