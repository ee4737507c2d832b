import { describe, expect, it } from 'vitest';
import { duration, formatProgress } from '../../cli/progressBar';
import type { RunProgress } from '../../contracts/run';

const base: RunProgress = {
  runId: 'r',
  total: 10,
  done: 4,
  running: 2,
  pending: 4,
  failed: 1,
  passRateSoft: 0.5,
  passRateHard: 0.25,
  usage: { inputTokens: 1000, outputTokens: 234 },
  costUsd: 0.0123,
  llmCalls: 6,
  paused: false,
  startedAtMs: 1_000_000,
  elapsedMs: 5_000,
  etaMs: null,
  reservedUsd: 0,
  waitingCalls: 0,
};

describe('progress line', () => {
  it('computes elapsed time and ETA from the client clock while the run is live', () => {
    // 120 s since start, 4 of 10 done: 30 s a task, 6 left → 3 minutes.
    const line = formatProgress(base, 1_000_000 + 120_000);
    expect(line).toBe(
      '[##########--------------] 4/10 | running 2 | soft 50.0% hard 25.0% | tokens 1234 | $0.0123 | elapsed 2m00s | eta 3m00s | failed 1',
    );
  });
  it('uses the recorded elapsed time once the run is over, and shows a pause', () => {
    const over = formatProgress(
      { ...base, done: 10, running: 0, pending: 0, elapsedMs: 3_723_000, paused: true, pauseReason: 'budget reached' },
      9e12,
    );
    expect(over).toContain('elapsed 1h02m');
    expect(over).toContain('eta 0m00s');
    expect(over).toContain('PAUSED (budget reached)');
  });
  it('shows the cached and reasoning tokens among the tokens when the provider reported them', () => {
    const line = formatProgress(
      { ...base, usage: { inputTokens: 1000, outputTokens: 234, cachedInputTokens: 512, reasoningTokens: 100 } },
      1_000_000 + 120_000,
    );
    expect(line).toContain('| tokens 1234 (512 cached in, 100 reasoning out) |');
  });
  it('formats durations', () => {
    expect(duration(59_400)).toBe('0m59s');
    expect(duration(-5)).toBe('0m00s');
  });
});
