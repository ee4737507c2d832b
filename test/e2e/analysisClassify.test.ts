/**
 * The JIT (auto) pattern's classify step only chooses a pattern: a tool call the model returns in reply to it (it was
 * offered no tools) is neither run nor shown as a call; the chosen pattern then works as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnalysisEnv, waitForTurn, type AnalysisEnv } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';

describe('the classify step never runs a tool', () => {
  let a: AnalysisEnv;
  afterAll(async () => a?.close());
  beforeAll(async () => {
    // The classify step and the pattern's steps, counted exactly (the cross-check: analysisCrossCheck.test.ts).
    a = await startAnalysisEnv(salesAnalyst, { conversation: { crossCheck: false } });
  }, 180_000);

  it('a tool call in the reply to classify is dropped; direct then runs its one code', async () => {
    const svc = a.server.service;
    const conv = await svc.create({ title: 'classify', pattern: 'auto' });
    await svc.upload(conv.id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
    const { turnId } = await svc.send(conv.id, {
      text: 'What is the total amount in sales.csv? [JIT:direct] [CLASSIFYTOOL]',
    });
    const events = (await waitForTurn(a, conv.id, turnId, 180_000)).filter((e) => e.turnId === turnId);
    expect(events.at(-1)!.data.status).toBe('completed');
    expect(String(events.find((e) => e.type === 'answer')?.data.text)).toContain('**47**');
    // Only direct's call: nothing from the classifier, and its code never ran.
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.data.callId)).not.toContain('sneaky');
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(1);
    await expect(svc.resolveFile(conv.id, 'classify_ran.txt')).rejects.toThrow();
    const classify = events.find(
      (e) => e.type === 'step' && e.data.kind === 'classify' && e.data.agent === 'classifier',
    )!;
    expect(String(classify.data.text)).toContain('PATTERN: direct');
  }, 240_000);
});
