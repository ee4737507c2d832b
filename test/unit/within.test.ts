import { describe, expect, it } from 'vitest';
import { within } from '../helpers/wait';

describe('within: a bounded wait that names what it waited for', () => {
  it('passes the value through, or fails naming the wait and what the diagnosis found', async () => {
    expect(await within(Promise.resolve(7), 1000, 'seven')).toBe(7);
    await expect(
      within(new Promise(() => undefined), 50, 'the run to finish', () => 'run RUNNING, 3 tasks in flight'),
    ).rejects.toThrow('waited 0 s for the run to finish; run RUNNING, 3 tasks in flight');
    await expect(
      within(new Promise(() => undefined), 50, 'x', () => Promise.reject(new Error('no server'))),
    ).rejects.toThrow('(diagnosis failed: Error: no server)');
  });
});
