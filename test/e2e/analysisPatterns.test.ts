import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pattern } from '../../contracts/conversation';
import { runCases, startAnalysisEnv, type AnalysisEnv, type CaseOutcome as Outcome } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';

/** Every pattern on the same request, each in its own conversation, all at once (real Temporal, sandbox, tool calls). */
describe('each pattern answers a request end to end', () => {
  let a: AnalysisEnv;
  let outcomes = new Map<string, Outcome>();
  const cases: Array<[string, Pattern, string]> = [
    ['direct', 'direct', ''],
    ['react', 'react', ''],
    ['plan_execute', 'plan_execute', ''],
    ['reflection', 'reflection', ''],
    ['iterative', 'iterative', ' [FAILFIRST]'],
    ['tree_of_thoughts', 'tree_of_thoughts', ''],
    ['ensemble', 'ensemble', ''],
    ['auto', 'auto', ' [JIT:plan_execute]'],
    ['react-recovers', 'react', ' [FAILFIRST]'],
  ];

  beforeAll(async () => {
    // Each pattern's own steps, counted exactly: the cross-check that follows them is analysisCrossCheck.test.ts's.
    a = await startAnalysisEnv(salesAnalyst, { conversation: { crossCheck: false } });
    outcomes = await runCases(
      a,
      cases.map(([name, pattern, tag]) => [name, pattern, `What is the total amount in sales.csv?${tag}`]),
      Buffer.from(SALES_CSV),
    );
  }, 420_000);
  afterAll(async () => a?.close());

  const steps = (o: Outcome, kind: string) => o.events.filter((e) => e.type === 'step' && e.data.kind === kind);
  const results = (o: Outcome) => o.events.filter((e) => e.type === 'tool_result').map((e) => e.data.ok);

  it.each(cases.map(([name]) => name))('%s completes with the computed total', (name) => {
    const o = outcomes.get(name)!;
    expect(o.status).toBe('completed');
    expect(o.answer).toContain('**47**');
  });

  it('direct runs code once, then answers', () => {
    expect(results(outcomes.get('direct')!)).toEqual([true]);
  });

  it('plan_execute records the plan as a plan step before any code', () => {
    const o = outcomes.get('plan_execute')!;
    expect(steps(o, 'plan')[0].data.text).toContain('1. Load the data');
    expect(o.events.findIndex((e) => e.type === 'step' && e.data.kind === 'plan')).toBeLessThan(
      o.events.findIndex((e) => e.type === 'code'),
    );
  });

  it('reflection critiques against the checklist and refines when asked to', () => {
    const o = outcomes.get('reflection')!;
    expect(steps(o, 'critique')).toHaveLength(1);
    expect(steps(o, 'critique')[0].data.text).toContain('VERDICT: REVISE');
    expect(results(o)).toEqual([true, true]);
  });

  it('iterative and react recover from failing first code with a fix', () => {
    for (const name of ['iterative', 'react-recovers']) {
      const o = outcomes.get(name)!;
      expect(results(o)).toEqual([false, true]);
      const failed = o.events.find((e) => e.type === 'tool_result' && !e.data.ok)!;
      expect(`${String(failed.data.stderr)} ${String(failed.data.error)}`).toContain('amout');
    }
  });

  it('tree_of_thoughts proposes in parallel branches, evaluates, carries out the best', () => {
    const o = outcomes.get('tree_of_thoughts')!;
    const proposals = steps(o, 'think').filter((e) => String(e.data.agent).startsWith('branch-'));
    expect(proposals.map((e) => e.data.agent).sort()).toEqual(['branch-1', 'branch-2', 'branch-3']);
    expect(steps(o, 'evaluate')[0].data.text).toContain('BEST: 2');
    expect(results(o)).toEqual([true]);
  });

  it('ensemble runs three agents, compares their results, recommends one', () => {
    const o = outcomes.get('ensemble')!;
    const agents = new Set(o.events.filter((e) => e.type === 'tool_call').map((e) => String(e.data.stepId)));
    expect(agents.size).toBe(3);
    expect(steps(o, 'evaluate')).toHaveLength(1);
    expect(o.answer).toMatch(/^\*\*Recommendation\*\* \(agent member-2 of 3/);
  });

  it('auto (JIT) classifies, records the choice, and runs the chosen pattern', () => {
    const o = outcomes.get('auto')!;
    expect(steps(o, 'classify').map((e) => e.data.text)).toEqual([
      expect.stringContaining('PATTERN: plan_execute'),
      'Chose pattern plan_execute.',
    ]);
    expect(steps(o, 'plan')).toHaveLength(1);
  });
});
