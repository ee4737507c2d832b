import { describe, expect, it, vi } from 'vitest';
import { warmHttpClient } from '../../lib/llm/warmHttpClient';

/** Open TCP servers and sockets of this process. */
const tcp = () => process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP')).length;

describe('warmHttpClient', () => {
  it('makes its one loopback request and leaves no server or socket open behind it (a CLI would not exit)', async () => {
    const before = tcp();
    await expect(warmHttpClient()).resolves.toBeUndefined();
    // Closed handles leave the list on a later turn of the loop.
    await vi.waitFor(() => expect(tcp()).toBe(before), { timeout: 2_000 });
  });

  it('leaves fetch working for the calls after it', async () => {
    await warmHttpClient();
    const response = await fetch('data:text/plain,after');
    expect(await response.text()).toBe('after');
  });
});
