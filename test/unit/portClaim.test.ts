import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimablePorts, claimPort, type PortClaim } from '../helpers/portClaim';

/** The claim name another process holds (the same abstract socket name as portClaim's). */
const claimName = (port: number) => `\0sheetbench-test-port-${port}`;

describe('test port claims', () => {
  it('come from outside the kernel ephemeral range, which listen(0) and outgoing connections draw from', () => {
    const [ephemeralLow, ephemeralHigh] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    const [low, high] = claimablePorts();
    expect(high < ephemeralLow || low > ephemeralHigh).toBe(true);
    expect(high - low).toBeGreaterThanOrEqual(999);
  });

  it('never give a held port twice, and give a released one again', async () => {
    const claims: PortClaim[] = [];
    for (let i = 0; i < 50; i++) claims.push(await claimPort());
    expect(new Set(claims.map((c) => c.port)).size).toBe(50);
    // A held claim cannot be taken again (the abstract socket name is in use), a released one can.
    const held = claims[0];
    await expect(bindName(claimName(held.port))).rejects.toMatchObject({ code: 'EADDRINUSE' });
    held.release();
    const retaken = await bindName(claimName(held.port));
    retaken.close();
    for (const claim of claims.slice(1)) claim.release();
  });

  it('is dropped when the holding process dies, so a crashed test leaves no stale claim', async () => {
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { claimPort } from ${JSON.stringify(path.resolve('test/helpers/portClaim.ts'))};
         const claim = await claimPort(); console.log(claim.port); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const port = await new Promise<number>((resolve) => holder.stdout.once('data', (d: Buffer) => resolve(Number(d))));
    await expect(bindName(claimName(port))).rejects.toMatchObject({ code: 'EADDRINUSE' });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    (await bindName(claimName(port))).close();
  });

  it('skips a port another program listens on without a claim, and says so when none is left', async () => {
    const base = claimablePorts()[0];
    const squatters: net.Server[] = [];
    try {
      // A window of five free ports; four taken by a program that claims nothing: the claim lands on the fifth.
      const window = await freeWindow(base, 5);
      for (const port of window.slice(0, 4)) squatters.push(await listenTcp(port));
      const claim = await claimPort([window[0], window[4]]);
      expect(claim.port).toBe(window[4]);
      await expect(claimPort([window[0], window[3]])).rejects.toThrow(/no claimable TCP port left/);
      claim.release();
    } finally {
      for (const s of squatters) s.close();
    }
  });
});

/** `size` consecutive ports from `from` up that nobody listens on or claims now. */
async function freeWindow(from: number, size: number): Promise<number[]> {
  for (let low = from; ; low += size) {
    const ports = Array.from({ length: size }, (_, i) => low + i);
    const free = await Promise.all(
      ports.map((p) =>
        listenTcp(p).then(
          (s) => (s.close(), true),
          () => false,
        ),
      ),
    );
    const unclaimed = await Promise.all(
      ports.map((p) =>
        bindName(claimName(p)).then(
          (s) => (s.close(), true),
          () => false,
        ),
      ),
    );
    if (free.every(Boolean) && unclaimed.every(Boolean)) return ports;
  }
}

function bindName(name: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(name, () => resolve(server));
  });
}

function listenTcp(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
