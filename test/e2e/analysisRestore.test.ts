import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationEvent } from '../../analysis/conversation/events';
import { SECOND_PROGRAM_AGENT } from '../../analysis/conversation/crossCheckPrompts';
import { conversationDir, conversationLayout } from '../../analysis/conversation/layout';
import { startAnalysisEnv, waitForTurn, type AnalysisEnv } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';
import { kernelProcesses } from '../helpers/sandboxProcesses';
import { waitUntil } from '../helpers/wait';

/**
 * The kernel of a conversation is killed between two turns (real Temporal, sandbox, scripted analyst): the second
 * turn's python_execute restores the state from the first turn's cells and reports it; a restore over its budget
 * reports stateReset with the lost names, and the turn still ends.
 */
describe('restored sessions', () => {
  let a: AnalysisEnv;
  const turns = new Map<string, ConversationEvent[]>();

  async function twoTurns(name: string, first: string): Promise<void> {
    const svc = a.server.service;
    const conv = await svc.create({ title: name, pattern: 'react' });
    await svc.upload(conv.id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
    const one = await svc.send(conv.id, { text: `What is the total amount in sales.csv? ${first}` });
    turns.set(
      `${name}:1`,
      (await waitForTurn(a, conv.id, one.turnId, 300_000)).filter((e) => e.turnId === one.turnId),
    );
    const workspace = conversationLayout(conversationDir(svc.root, conv.id)).workspace;
    const kernels = kernelProcesses(workspace);
    expect(kernels.length, `${name}: the first turn's kernel is running`).toBeGreaterThan(0);
    for (const pid of kernels) process.kill(pid, 'SIGKILL');
    await waitUntil(() => kernelProcesses(workspace).length === 0, 10_000, 'the killed kernel to be gone');
    const two = await svc.send(conv.id, { text: 'Now double it. [USEVAR]' });
    turns.set(
      `${name}:2`,
      (await waitForTurn(a, conv.id, two.turnId, 300_000)).filter((e) => e.turnId === two.turnId),
    );
  }

  beforeAll(async () => {
    a = await startAnalysisEnv(salesAnalyst, { analysis: { restoreBudgetMs: 6_000 } });
    await Promise.all([twoTurns('restored', '[SETUP]'), twoTurns('over-budget', '[SLOWSETUP]')]);
  }, 600_000);
  afterAll(async () => a?.close());

  /** The analysis's tool results (the cross-check's second program, which runs after each answer, left out). */
  const results = (key: string) => {
    const events = turns.get(key)!;
    const second = new Set(
      events.filter((e) => e.type === 'code' && e.data.agent === SECOND_PROGRAM_AGENT).map((e) => e.data.callId),
    );
    return events.filter((e) => e.type === 'tool_result' && !second.has(e.data.callId)).map((e) => e.data);
  };

  it('the second turn uses a variable the first defined, after its kernel was killed, and reports the restore', () => {
    const [first] = results('restored:1');
    expect(first).toMatchObject({ ok: true, stdout: '47\n' });
    const second = results('restored:2');
    expect(second).toHaveLength(1);
    // One cell restored: the first turn's analysis, not its second program (a check, re-run by nobody).
    expect(second[0]).toMatchObject({ ok: true, stdout: '94\n', restored: { cells: 1, turns: ['t1'] } });
    expect(second[0].stateReset).toBeUndefined();
    expect(String(second[0].notice)).toMatch(/restored by re-running 1 earlier cell/);
    const end = turns.get('restored:2')!;
    expect(end.at(-1)!.data.status).toBe('completed');
    expect(String(end.find((e) => e.type === 'answer')!.data.text)).toContain('**94**');
  });

  it('a restore that exceeds its budget reports stateReset with the lost names; the model re-creates them and the turn ends', () => {
    const [lost, redone] = results('over-budget:2');
    expect(lost).toMatchObject({ ok: false, stateReset: true, lostVariables: ['df', 'pd', 'total'] }); // `time` was imported before the interrupt
    expect(String(lost.notice)).toMatch(/restore budget of 6 s ran out during cell 1 of 1 \(turn t1/);
    expect(String(lost.error ?? lost.stderr)).toMatch(/NameError/);
    expect(redone).toMatchObject({ ok: true, stdout: '47\n94\n' });
    expect(turns.get('over-budget:2')!.at(-1)!.data.status).toBe('completed');
  });
});
