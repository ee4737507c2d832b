import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunLayout } from '../../lib/runStore/runLayout';
import { loadAnalysisSuite } from '../../benchmarks/analysis/dataset';
import { summarizeAnalysisRun } from '../../benchmarks/analysis/finalize';
import { recordRequestResult } from '../../benchmarks/analysis/result';
import { groundedCell } from '../../benchmarks/analysis/summaryLines';
import type { AnalysisRun } from '../../benchmarks/analysis/run';
import type { RunManifest } from '../../lib/runStore/manifest';
import type { TurnSummary } from '../../contracts/conversation';

const SUITE = path.resolve(__dirname, '../../data/analysis');

async function context(runDir: string): Promise<AnalysisRun> {
  const suite = await loadAnalysisSuite(SUITE);
  // Only the fields the result needs: the run folder and pattern, and the dataset with the answers.
  const manifest = { runId: 'r', agent: 'react', datasetDir: SUITE } as RunManifest;
  const task = (id: string) => suite.tasks.find((t) => t.id === id)!;
  return { manifest, layout: new RunLayout(runDir), tasks: suite.tasks, task };
}

/** A conversation folder whose turn t1 ended with `status`, an optional error (where) and answer. */
function turn(
  runDir: string,
  status: TurnSummary['status'],
  opts: { where?: string; answer?: string; grounding?: { total: number; grounded: number }; name?: string } = {},
) {
  const dir = path.join(runDir, 'conversations', opts.name ?? `c-${status}-${opts.where ?? 'none'}`);
  mkdirSync(path.join(dir, 'workspace'), { recursive: true });
  const events = [
    { type: 'turn_started', data: {} },
    ...(opts.answer ? [{ type: 'answer', data: { text: opts.answer } }] : []),
    ...(opts.grounding
      ? [{ type: 'grounding', data: { answerOffset: 0, numbers: [], inCode: 0, produced: 9, ...opts.grounding } }]
      : []),
    ...(opts.where ? [{ type: 'error', data: { message: 'it broke', where: opts.where } }] : []),
    { type: 'turn_ended', data: { status } },
  ].map((e, i) => JSON.stringify({ seq: i + 1, at: '', turnId: 't1', key: `t1:${i}`, ...e }));
  writeFileSync(path.join(dir, 'events.jsonl'), `${events.join('\n')}\n`);
  const summary: TurnSummary = {
    turnId: 't1',
    status,
    pattern: 'react',
    startedAt: '',
    usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.01 },
    steps: 2,
    toolCalls: 1,
    ...(opts.where ? { error: 'it broke' } : {}),
  };
  return { dir, summary };
}

describe('an analysis request result', () => {
  it('scores a completed turn against the answer file, and a budget-stopped turn as a wrong answer', async () => {
    const runDir = mkdtempSync(path.join(os.tmpdir(), 'sb-ares-'));
    const ctx = await context(runDir);
    expect(
      await recordRequestResult(ctx, {
        taskId: 'a01',
        wallMs: 1,
        turn: turn(runDir, 'completed', { answer: 'The total is **1,988**.' }),
      }),
    ).toMatchObject({ status: 'scored', pass: true, costUsd: 0.01, steps: 2 });
    expect(JSON.parse(readFileSync(path.join(runDir, 'results', 'a01.json'), 'utf8'))).toMatchObject({
      status: 'scored',
      pass: true,
    });
    expect(
      await recordRequestResult(ctx, { taskId: 'a01', wallMs: 1, turn: turn(runDir, 'failed', { where: 'budget' }) }),
    ).toMatchObject({ status: 'scored', pass: false, reason: 'turn failed: it broke' });
  });

  it('records a turn failed by the model endpoint or the sandbox as a failed request with its class, not a wrong answer', async () => {
    const runDir = mkdtempSync(path.join(os.tmpdir(), 'sb-ares-'));
    const ctx = await context(runDir);
    expect(
      await recordRequestResult(ctx, { taskId: 'a01', wallMs: 1, turn: turn(runDir, 'failed', { where: 'model' }) }),
    ).toMatchObject({ status: 'failed', failure: { class: 'llm', message: 'turn failed (model): it broke' } });
    expect(
      await recordRequestResult(ctx, { taskId: 'a01', wallMs: 1, turn: turn(runDir, 'failed', { where: 'workflow' }) }),
    ).toMatchObject({ status: 'failed', failure: { class: 'internal' } });
  });

  it('records a skipped request with its reason, never as passed', async () => {
    const runDir = mkdtempSync(path.join(os.tmpdir(), 'sb-ares-'));
    expect(
      await recordRequestResult(await context(runDir), { taskId: 'a07', wallMs: 0, skipped: 'no data server' }),
    ).toMatchObject({ status: 'skipped', pass: false, reason: 'no data server', steps: 0 });
  });

  it("carries the answer's grounded numbers into the result, the summary per pattern, the printed lines and the report", async () => {
    const runDir = mkdtempSync(path.join(os.tmpdir(), 'sb-ares-'));
    const ctx = await context(runDir);
    ctx.manifest.llm = { model: 'scripted' } as RunManifest['llm'];
    const a01 = await recordRequestResult(ctx, {
      taskId: 'a01',
      wallMs: 1,
      turn: turn(runDir, 'completed', {
        answer: 'The total is **1,988**.',
        grounding: { total: 1, grounded: 1 },
        name: 'a01',
      }),
    });
    expect(a01.grounding).toEqual({ total: 1, grounded: 1 });
    await recordRequestResult(ctx, {
      taskId: 'a02',
      wallMs: 1,
      turn: turn(runDir, 'completed', {
        answer: 'About 12 and 50.',
        grounding: { total: 3, grounded: 2 },
        name: 'a02',
      }),
    });
    await recordRequestResult(ctx, {
      taskId: 'a03',
      wallMs: 1,
      turn: turn(runDir, 'completed', { answer: 'No numbers.', name: 'a03' }),
    });
    const summary = await summarizeAnalysisRun(ctx);
    expect(summary.byPattern.react).toMatchObject({ scored: 3, numbers: 4, groundedNumbers: 3, groundedShare: 0.75 });
    expect(groundedCell(summary.total)).toBe('75.0% (3/4)');
    expect(groundedCell({ numbers: 0, groundedNumbers: 0, groundedShare: null })).toBe('-');
  });
});
