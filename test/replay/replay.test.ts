import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import proto from '@temporalio/proto';
import { workflowBundle } from '../../workers/workflowBundle';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'histories');

/**
 * Recorded histories of real runs (test/replay/recordHistories.ts) must replay on the current workflow code without
 * determinism errors: a run in flight during a deploy would otherwise get stuck.
 */
describe('recorded workflow histories replay on the current code', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.history.bin'));

  it('has histories of run and task workflows for the single agent and SheetCopilot, from each workflow version, and of the analysis benchmark', () => {
    const names = ['sheetcopilot-run', 'sheetcopilot-task-79-7', 'single-run', 'single-task-39604', 'single-task-599-9'];
    const analysis = ['v1-analysis-task-a01.history.bin', 'v1-conversation-a01.history.bin'];
    expect(files.sort()).toEqual([...analysis, ...['v1', 'v2'].flatMap((v) => names.map((n) => `${v}-${n}.history.bin`))].sort());
  });

  it('has a conversation turn (pattern auto: the sendMessage update, model steps, a tool call, the end of the turn) under its analysis task', () => {
    const events = (f: string) => proto.temporal.api.history.v1.History.decode(readFileSync(path.join(DIR, f))).events ?? [];
    const activities = (f: string) => events(f).flatMap((e) => (e.activityTaskScheduledEventAttributes?.activityType?.name ? [e.activityTaskScheduledEventAttributes.activityType.name] : []));
    expect(activities('v1-conversation-a01.history.bin')).toEqual(expect.arrayContaining(['conversationModelStep', 'conversationToolCall', 'conversationFinishTurn']));
    expect(events('v1-conversation-a01.history.bin').some((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toBe(true);
    expect(events('v1-analysis-task-a01.history.bin').some((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name === 'conversation')).toBe(true);
  });

  it('replays each of them without a determinism error', async () => {
    const histories = files.map((f) => ({ workflowId: f, history: proto.temporal.api.history.v1.History.decode(readFileSync(path.join(DIR, f))) }));
    const results: { workflowId: string; error?: unknown }[] = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) results.push(r);
    expect(results.map((r) => [r.workflowId, r.error ? String(r.error) : null])).toEqual(files.map((f) => [f, null]));
  }, 120_000);
});
