import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Grounding } from '../../analysis/grounding/types';
import { REVISE_ANSWER_LEAD, REVISE_NUMBERS_LEAD } from '../../analysis/conversation/prompts';
import type { Pattern } from '../../contracts/conversation';
import { runCases, startAnalysisEnv, type AnalysisEnv, type CaseOutcome } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';

/**
 * Right answers, not only grounded ones, end to end (real Temporal, sandbox and tools; the scripted analyst): a JIT
 * answer that counted rows for a total, or that disagrees with the table it saved, is revised once with the evidence;
 * a right answer is left untouched; one still wrong after its revision is shown with a note and the saved table.
 */
describe('computed-but-wrong answers', () => {
  let a: AnalysisEnv;
  let outcomes = new Map<string, CaseOutcome>();
  const question = (tag: string) => `What is the total amount per region in sales.csv? ${tag} [JIT:react]`;
  const cases: Array<[string, Pattern, string]> = [
    ['count', 'auto', question('[TALLY]')],
    ['wrong-table', 'auto', question('[WRONGTABLE]')],
    ['right', 'auto', question('[TABLE]')],
    ['stubborn', 'auto', question('[STUBBORN]')],
  ];

  beforeAll(async () => {
    a = await startAnalysisEnv(salesAnalyst);
    outcomes = await runCases(a, cases, Buffer.from(SALES_CSV));
  }, 420_000);
  afterAll(async () => a?.close());

  const revises = (o: CaseOutcome) => o.events.filter((e) => e.type === 'step' && e.data.kind === 'revise');
  const grounding = (o: CaseOutcome) => o.events.find((e) => e.type === 'grounding')?.data as unknown as Grounding;
  /** The revise instructions the model was sent in the conversation whose question carries `tag`. */
  const instructionsFor = (tag: string) =>
    new Set(
      a.env.llm.log
        .filter((e) => e.messages.some((m) => m.role === 'user' && m.content.includes(tag)))
        .flatMap((e) =>
          e.messages
            .filter((m) => m.content.startsWith(REVISE_ANSWER_LEAD) || m.content.startsWith(REVISE_NUMBERS_LEAD))
            .map((m) => m.content),
        ),
    );

  it('counting rows for a total per region is caught (although its counts are grounded) and revised to the sums', () => {
    const o = outcomes.get('count')!;
    expect(o.status).toBe('completed');
    expect(revises(o)).toHaveLength(1);
    expect(String(revises(o)[0].data.text)).toMatch(/counted rows \(value_counts\)/);
    const sent = [...instructionsFor('[TALLY]')];
    expect(sent).toHaveLength(1);
    expect(sent[0].startsWith(REVISE_ANSWER_LEAD)).toBe(true);
    expect(sent[0]).toContain('`value_counts`');
    // The scripted model, like the 0.5B, repeats its counts unless the revision's first step must run code.
    expect(o.answer).toBe('North: **15**, south: **32**.');
    expect(grounding(o)).toMatchObject({ total: 2, grounded: 2 });
  });

  it('an answer disagreeing with the table it saved is revised from the table, quoted with the rows it got wrong', () => {
    const o = outcomes.get('wrong-table')!;
    expect(o.status).toBe('completed');
    expect(revises(o)).toHaveLength(1);
    expect(String(revises(o)[0].data.text)).toContain('disagree with the saved table viz/by_region.csv');
    const sent = [...instructionsFor('[WRONGTABLE]')];
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('you wrote 1000 for north, the table has 15');
    expect(sent[0]).toContain('south,32');
    expect(o.answer).toBe('North: **15**, south: **32**.');
  });

  it('an answer still wrong after its one revision ends the turn with a note under it quoting the saved table', () => {
    const o = outcomes.get('stubborn')!;
    expect(o.status).toBe('completed');
    expect(revises(o)).toHaveLength(1);
    expect(instructionsFor('[STUBBORN]').size).toBe(1);
    expect(o.answer.startsWith('North: **1000**, south: **2000**.\n\n> **Check failed:**')).toBe(true);
    expect(o.answer).toContain('viz/by_region.csv');
    expect(o.answer).toContain('south,32');
    // The grounding still covers the model's own text only.
    expect(grounding(o)).toMatchObject({ answerOffset: 0, total: 2, grounded: 0 });
  });

  it('a right answer passes untouched: no revise step, no request to revise, one answer', () => {
    const o = outcomes.get('right')!;
    expect(o.status).toBe('completed');
    expect(revises(o)).toHaveLength(0);
    expect(instructionsFor('[TABLE]').size).toBe(0);
    expect(o.answer).toBe('North sold **15** and south **32**: **47** in total.');
    expect(o.answer).not.toContain('Check failed');
    expect(grounding(o)).toMatchObject({ total: 3, grounded: 3 });
  });
});
