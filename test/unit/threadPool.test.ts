import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { ThreadPool } from '../../lib/threads/threadPool';

const JOBS = new URL('../helpers/threadJobs.ts', import.meta.url);

describe('ThreadPool: TypeScript functions off the event loop', () => {
  const pool = new ThreadPool(2);
  afterAll(() => pool.close());

  it('runs a job in a worker thread, not on the calling thread, and returns its result', async () => {
    const r = await pool.run<{ tag: string; threadId: number }>(JOBS, 'whereAmI', 'a');
    expect(r.tag).toBe('a');
    expect(r.threadId).not.toBe(threadId);
    expect(r.threadId).toBeGreaterThan(0);
  });

  it('runs more jobs than threads, on at most `size` threads', async () => {
    const rs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => pool.run<{ tag: string; threadId: number }>(JOBS, 'whereAmI', `j${i}`)),
    );
    expect(rs.map((r) => r.tag)).toEqual(['j0', 'j1', 'j2', 'j3', 'j4', 'j5']);
    expect(new Set(rs.map((r) => r.threadId)).size).toBeLessThanOrEqual(2);
  });

  it("rejects with the job's error: name, message and the thread's stack", async () => {
    const err = await pool.run(JOBS, 'fails', 'no such sheet').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'RangeError', message: 'no such sheet' });
    expect((err as Error).stack).toContain('threadJobs.ts');
  });

  it('a thread that dies fails its job, and the next job runs on a fresh thread', async () => {
    await expect(pool.run(JOBS, 'dies', null)).rejects.toThrow(/worker thread exited \(code 3\)/);
    await expect(pool.run(JOBS, 'whereAmI', 'after')).resolves.toMatchObject({ tag: 'after' });
  });
});
