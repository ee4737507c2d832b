import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationLayout } from '../../analysis/conversation/layout';
import { repeatedFailure } from '../../analysis/conversation/repeatedCall';

const CODE = "s = df['price'].rolling(7).mean()\nprint(s.loc[last_date])";
const KEY_ERROR = (cell: number) =>
  `Traceback (most recent call last):\n  File "<cell ${cell}>", line 2, in <module>\nKeyError: '2024-02-29'`;

/** A conversation folder whose turn t1 recorded these tool calls, one step each, by their agents. */
function recorded(
  calls: Array<{ agent: string; args: unknown; ok: boolean; error?: string; tool?: string }>,
): ReturnType<typeof conversationLayout> {
  const layout = conversationLayout(mkdtempSync(path.join(os.tmpdir(), 'sb-repeat-')));
  calls.forEach((c, i) => {
    const stepId = `t1-s${i + 1}`;
    const step = { stepId, turnId: 't1', index: i + 1, kind: 'act', agent: c.agent, inputTokens: 0, outputTokens: 0 };
    mkdirSync(path.join(layout.debug, `${stepId}.tools`), { recursive: true });
    const timing = { modelMs: 0, executionMs: 0, toolsMs: 0, waitingMs: 0 };
    writeFileSync(path.join(layout.debug, `${stepId}.json`), JSON.stringify({ ...step, costUsd: 0, timing }));
    const result = c.ok ? { success: true, stdout: '1\n' } : { success: false, error: c.error };
    const record = { callId: 'action_0', tool: c.tool ?? 'python_execute', args: c.args, result, ok: c.ok };
    writeFileSync(
      path.join(layout.debug, `${stepId}.tools`, 'action_0.json'),
      JSON.stringify({ ...record, durationMs: 5 }),
    );
  });
  return layout;
}

const call = (agent: string, error: string, stepId = 't1-s9') => ({
  turnId: 't1',
  agent,
  stepId,
  callId: 'action_0',
  tool: 'python_execute',
  args: { code: CODE },
  error,
});

describe('a failing call the same agent already made and saw fail', () => {
  it('is named a repeat: how often, since which step, nothing differed, the same error (cells numbered apart)', async () => {
    const layout = recorded([
      { agent: 'second-program', args: { code: CODE }, ok: false, error: KEY_ERROR(5) },
      { agent: 'second-program', args: { code: CODE }, ok: false, error: KEY_ERROR(8) },
    ]);
    const note = await repeatedFailure(layout, call('second-program', KEY_ERROR(11)));
    expect(note).toMatch(/^You sent this exact call 3 times in this turn \(first in step t1-s1\)/);
    expect(note).toContain('nothing differed');
    expect(note).toContain('with the same error');
    expect(note).toContain('Running it unchanged cannot succeed');
  });

  it('says so without claiming the same error when the error changed', async () => {
    const layout = recorded([{ agent: 'main', args: { code: CODE }, ok: false, error: KEY_ERROR(5) }]);
    const note = await repeatedFailure(layout, call('main', 'NameError: name df is not defined'));
    expect(note).toMatch(/2 times .*failed again\./);
    expect(note).not.toContain('same error');
  });

  it("is no repeat: other code, a call that succeeded, another agent's call, another tool, or the call itself (a retry)", async () => {
    const layout = recorded([
      { agent: 'main', args: { code: `${CODE}\n` }, ok: false, error: KEY_ERROR(1) },
      { agent: 'main', args: { code: CODE }, ok: true },
      { agent: 'second-program', args: { code: CODE }, ok: false, error: KEY_ERROR(3) },
      { agent: 'main', args: { code: CODE }, ok: false, error: KEY_ERROR(4), tool: 'node_execute' },
      { agent: 'main', args: { code: CODE }, ok: false, error: KEY_ERROR(5) },
    ]);
    expect(await repeatedFailure(layout, call('main', KEY_ERROR(6), 't1-s5'))).toBeUndefined();
    expect(await repeatedFailure(layout, call('main', KEY_ERROR(6)))).toMatch(/2 times .*first in step t1-s5/);
  });
});
