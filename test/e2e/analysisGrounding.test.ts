import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Grounding } from '../../analysis/grounding/types';
import { REVISE_NUMBERS_LEAD } from '../../analysis/conversation/prompts';
import type { Pattern } from '../../contracts/conversation';
import { runCases, startAnalysisEnv, waitForTurn, type AnalysisEnv, type CaseOutcome } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';

type Outcome = CaseOutcome & { grounding: Grounding };

/**
 * Grounded numbers end to end (real Temporal, sandbox and tools; the scripted analyst): each turn's answer gets a
 * grounding event and debug record; JIT asks once to revise an answer with an invented number.
 */
describe('grounded numbers', () => {
  let a: AnalysisEnv;
  let outcomes = new Map<string, Outcome>();
  const cases: Array<[string, Pattern, string]> = [
    ['table', 'react', '[TABLE]'],
    ['invented', 'react', '[INVENT]'],
    ['rounded', 'react', '[ROUND]'],
    ['revised', 'auto', '[INVENT] [JIT:react]'],
    ['no-numbers', 'react', '[NONUM]'],
    ['code-only', 'react', '[CODEANSWER]'],
    ['silent', 'react', '[SILENT]'],
  ];

  beforeAll(async () => {
    a = await startAnalysisEnv(salesAnalyst);
    const ran = await runCases(
      a,
      cases.map(([name, pattern, tag]) => [name, pattern, `What is the total amount in sales.csv? ${tag}`]),
      Buffer.from(SALES_CSV),
    );
    outcomes = new Map(
      [...ran].map(([name, o]) => [
        name,
        { ...o, grounding: o.events.find((e) => e.type === 'grounding')?.data as unknown as Grounding },
      ]),
    );
  }, 420_000);
  afterAll(async () => a?.close());

  const unfound = (o: Outcome) => o.grounding.numbers.filter((n) => !n.grounded).map((n) => n.text);

  it('an answer whose numbers all come from stdout or a table is fully grounded, each with its source', () => {
    const o = outcomes.get('table')!;
    expect(o.status).toBe('completed');
    expect(o.grounding).toMatchObject({ total: 3, grounded: 3, answerOffset: 0 });
    const source = (text: string) => o.grounding.numbers.find((n) => n.text === text)!.source!;
    expect(source('15')).toMatchObject({
      kind: 'table',
      tool: 'python_execute',
      file: 'viz/by_region.csv',
      excerpt: 'north,15',
    });
    expect(source('32')).toMatchObject({ kind: 'table', file: 'viz/by_region.csv', excerpt: 'south,32' });
    expect(source('47')).toMatchObject({ kind: 'stdout', excerpt: '47' });
    const callIds = o.events.filter((e) => e.type === 'tool_result').map((e) => e.data.callId);
    expect(callIds).toContain(source('47').callId);
    // The offsets point at the numbers in the answer text.
    for (const n of o.grounding.numbers)
      expect(o.answer.slice(o.grounding.answerOffset + n.start, o.grounding.answerOffset + n.end)).toBe(n.text);
  });

  it('an answer with one invented number marks exactly that number (react does not revise)', () => {
    const o = outcomes.get('invented')!;
    expect(unfound(o)).toEqual(['12%']);
    expect(o.grounding).toMatchObject({ total: 2, grounded: 1 });
    expect(o.events.some((e) => e.type === 'step' && e.data.kind === 'revise')).toBe(false);
  });

  it('formatting and rounding: 1,234.5 from 1234.49, 12% from 0.1204', () => {
    const o = outcomes.get('rounded')!;
    const stdout = String(o.events.find((e) => e.type === 'tool_result')!.data.stdout);
    expect(stdout).toContain('1234.49\n');
    expect(stdout).toContain('0.1204');
    expect(o.grounding).toMatchObject({ total: 2, grounded: 2 });
  });

  it('JIT asks the model once to revise an answer with an invented number, recorded as a step; the revised answer is grounded', () => {
    const o = outcomes.get('revised')!;
    expect(o.status).toBe('completed');
    const revise = o.events.filter((e) => e.type === 'step' && e.data.kind === 'revise');
    expect(revise).toHaveLength(1);
    expect(String(revise[0].data.text)).toContain('12%');
    expect(o.answer).not.toContain('12%');
    expect(o.grounding).toMatchObject({ total: 1, grounded: 1 });
    // One request to revise, naming the invented number (the calls after it carry it in their transcript).
    const asked = a.env.llm.log.filter(
      (e) => e.answered && e.messages.some((m) => m.role === 'user' && m.content.startsWith(REVISE_NUMBERS_LEAD)),
    );
    expect(asked.length).toBeGreaterThan(0);
    const instructions = new Set(
      asked.flatMap((e) => e.messages.filter((m) => m.content.startsWith(REVISE_NUMBERS_LEAD)).map((m) => m.content)),
    );
    expect([...instructions]).toEqual([expect.stringContaining('12%')]);
  });

  it('the grounding is in the debug record and on the answer message of the conversation view', async () => {
    const o = outcomes.get('invented')!;
    const { steps } = await a.json<{ steps: Array<{ kind: string; grounding?: Grounding }> }>(
      `/api/conversations/${o.id}/debug`,
    );
    expect(steps.at(-1)).toMatchObject({ kind: 'grounding', grounding: { total: 2, grounded: 1 } });
    const view = await a.json<{ messages: Array<{ role: string; grounding?: Grounding }> }>(
      `/api/conversations/${o.id}`,
    );
    expect(view.messages.find((m) => m.role === 'assistant')!.grounding).toMatchObject({ total: 2, grounded: 1 });
  });

  it('bad input gets a clear note and the conversation goes on: no numbers, numbers only in code, code that wrote nothing', async () => {
    expect(outcomes.get('no-numbers')!.grounding).toMatchObject({
      total: 0,
      note: 'The answer states no numbers: nothing to check.',
    });
    expect(outcomes.get('code-only')!.grounding).toMatchObject({
      total: 0,
      inCode: 1,
      note: expect.stringMatching(/outside its code/),
    });
    const silent = outcomes.get('silent')!;
    expect(silent.status).toBe('completed');
    expect(silent.grounding).toMatchObject({
      total: 1,
      grounded: 0,
      note: expect.stringMatching(/printed and wrote nothing/),
    });
    const { turnId } = await a.server.service.send(silent.id, { text: 'And the total? [TABLE]' });
    const next = (await waitForTurn(a, silent.id, turnId)).filter((e) => e.turnId === turnId);
    expect(next.at(-1)!.data.status).toBe('completed');
    expect(next.find((e) => e.type === 'grounding')!.data).toMatchObject({ total: 3, grounded: 3 });
  });
});
