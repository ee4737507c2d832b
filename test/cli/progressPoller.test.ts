import { describe, expect, it } from 'vitest';
import { pollProgress } from '../../cli/progressPoller';

/** A question that stays unanswered until its signal aborts it (as a gRPC call given the signal does). */
function pendingUntilAborted(log: string[]) {
  return (signal: AbortSignal) =>
    new Promise<number>((_, reject) => {
      log.push('asked');
      signal.addEventListener('abort', () => {
        log.push('aborted');
        reject(new Error('cancelled'));
      });
    });
}

describe('pollProgress', () => {
  it('stop() aborts the question in flight and resolves only after it settled; nothing is asked after', async () => {
    const log: string[] = [];
    const poller = pollProgress(pendingUntilAborted(log), () => log.push('progress'), 10);
    await new Promise((r) => setTimeout(r, 50));
    expect(log).toEqual(['asked']); // one question at a time: the pending one is not overlapped
    await poller.stop();
    log.push('stopped');
    await new Promise((r) => setTimeout(r, 50));
    expect(log).toEqual(['asked', 'aborted', 'stopped']);
  });

  it('reports each answer and asks again after the interval', async () => {
    let n = 0;
    const seen: number[] = [];
    const poller = pollProgress(
      () => Promise.resolve(++n),
      (p) => seen.push(p),
      5,
    );
    await new Promise((r) => setTimeout(r, 80));
    await poller.stop();
    const count = seen.length;
    expect(count).toBeGreaterThanOrEqual(2);
    expect(seen.slice(0, 2)).toEqual([1, 2]);
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toHaveLength(count);
  });

  it('a failing question is skipped, not thrown: polling goes on', async () => {
    let n = 0;
    const seen: number[] = [];
    const poller = pollProgress(
      () => (++n === 1 ? Promise.reject(new Error('busy')) : Promise.resolve(n)),
      (p) => seen.push(p),
      5,
    );
    await new Promise((r) => setTimeout(r, 60));
    await poller.stop();
    expect(seen[0]).toBe(2);
  });
});
