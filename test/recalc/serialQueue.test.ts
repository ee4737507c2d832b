import { describe, it, expect } from 'vitest';
import { SerialQueue } from '../../lib/recalc/serialQueue';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SerialQueue', () => {
  it('never runs two jobs at once and keeps arrival order', async () => {
    const queue = new SerialQueue();
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const job = (i: number, ms: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      await sleep(ms);
      order.push(i);
      running--;
      return i * 10;
    };
    const results = await Promise.all([job(0, 30), job(1, 5), job(2, 15), job(3, 0)].map((j) => queue.run(j)));
    expect(results).toEqual([0, 10, 20, 30]);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(1);
    expect(queue.pending).toBe(0);
  });

  it('keeps going after a job fails, and the failure reaches its caller', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(async () => {
      throw new Error('boom');
    });
    const next = queue.run(async () => 'after');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
  });

  it('counts queued and running jobs, and drain() waits for them', async () => {
    const queue = new SerialQueue();
    let finished = 0;
    for (let i = 0; i < 3; i++)
      void queue.run(async () => {
        await sleep(5);
        finished++;
      });
    expect(queue.pending).toBe(3);
    await queue.drain();
    expect(finished).toBe(3);
    expect(queue.pending).toBe(0);
  });
});
