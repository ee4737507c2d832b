import { copyFileSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { recalcActivities, type RecalcWorkbookResult } from '../../activities/recalc/index';
import type { Recalculator, RecalcResult } from '../../lib/recalc/types';

/** An engine that "recalculates" by appending a mark, or answers with a scripted failure for some files. */
function fakeEngine(failures: Record<string, string> = {}) {
  const calls: string[] = [];
  const engine: Recalculator = {
    engine: 'libreoffice',
    async recalc(input, output): Promise<RecalcResult> {
      calls.push(path.basename(input));
      const error = failures[path.basename(input)];
      if (error) return { ok: false, engine: 'libreoffice', durationMs: 1, error };
      copyFileSync(input, output);
      writeFileSync(output, `${readFileSync(output, 'utf8')}+recalc`);
      return { ok: true, engine: 'libreoffice', durationMs: 1 };
    },
    close: async () => {},
  };
  return { engine, calls };
}

function workbooks(...names: string[]): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-recalc-batch-'));
  return names.map((n) => {
    writeFileSync(path.join(dir, n), n);
    return path.join(dir, n);
  });
}

const env = () =>
  new MockActivityEnvironment({ startToCloseTimeoutMs: 60_000, currentAttemptScheduledTimestampMs: Date.now() });

describe("a task's outputs recalculated in one activity", () => {
  it('recalculates each in place, in order, and reports each (a missing one or one the engine cannot open is a verdict, not a failure)', async () => {
    const [a, b, c] = workbooks('1_t_output.xlsx', '2_t_output.xlsx', '3_t_output.xlsx');
    const { engine, calls } = fakeEngine({ '3_t_output.xlsx': 'load error: not a workbook' });
    const acts = recalcActivities(async () => engine);
    const missing = path.join(path.dirname(a), 'absent.xlsx');
    const results = await env().run<[{ paths: string[] }], RecalcWorkbookResult[], typeof acts.recalcWorkbooks>(
      acts.recalcWorkbooks,
      { paths: [a, missing, b, c] },
    );
    expect(results.map((r) => [r.ok, r.error])).toEqual([
      [true, undefined],
      [false, `no workbook at ${missing}`],
      [true, undefined],
      [false, 'load error: not a workbook'],
    ]);
    expect(calls).toEqual(['1_t_output.xlsx', '2_t_output.xlsx', '3_t_output.xlsx']);
    expect(readFileSync(a, 'utf8')).toBe('1_t_output.xlsx+recalc');
    expect(readFileSync(c, 'utf8')).toBe('3_t_output.xlsx');
    expect(existsSync(`${c}.recalc.xlsx`)).toBe(false);
  });

  it('an engine crash fails the whole activity retryably, naming the workbook', async () => {
    const [a, b] = workbooks('1_t_output.xlsx', '2_t_output.xlsx');
    const { engine } = fakeEngine({ '2_t_output.xlsx': 'engine crashed' });
    const err = await env()
      .run(recalcActivities(async () => engine).recalcWorkbooks, { paths: [a, b] })
      .catch((e: unknown) => e as Error & { type?: string; nonRetryable?: boolean });
    expect(err).toMatchObject({ type: 'RecalcFailed', nonRetryable: false });
    expect((err as Error).message).toContain(b);
  });
});
