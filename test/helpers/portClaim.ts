import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that no other test (in this run or any other on the machine) is given while the claim is
 * held, so a server can be started, stopped and started again on it (a Temporal restart) without a race.
 *
 * Why a port picked by `listen(0)` then closed is not enough: the kernel hands out ports from its ephemeral range to
 * every `listen(0)` and outgoing connection, so between the close and the server's bind (or between a stop and a
 * restart) another process can get the same port. Claimed ports come from below that range, which the kernel never
 * hands out by itself, and each claim is held as a Linux abstract unix socket named after the port: the kernel lets
 * one process bind that name and drops it when the process ends, so a crashed test never leaves a stale claim.
 */
export interface PortClaim {
  port: number;
  /** Gives the port back (the server on it should be stopped first). */
  release(): void;
}

const CLAIM_PREFIX = '\0sheetbench-test-port-';
/** Lowest port claimed: above the usual fixed service ports (the test cluster's 17233 among them). */
const RANGE_LOW = 20_000;

export async function claimPort([low, high] = claimablePorts()): Promise<PortClaim> {
  const size = high - low + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = low + ((start + i) % size);
    const claim = await holdClaim(port);
    if (!claim) continue;
    if (await bindable(port)) return { port, release: () => claim.close() };
    // A program outside the tests listens there: leave it.
    claim.close();
  }
  throw new Error(`no claimable TCP port left in ${low}-${high} (every one claimed or in use)`);
}

/** The ports below the kernel's ephemeral range (from RANGE_LOW), or above it when it starts too low. */
export function claimablePorts(): [number, number] {
  const [ephemeralLow, ephemeralHigh] = ephemeralRange();
  if (ephemeralLow - 1 - RANGE_LOW >= 1_000) return [RANGE_LOW, ephemeralLow - 1];
  if (65_535 - ephemeralHigh >= 1_000) return [ephemeralHigh + 1, 65_535];
  throw new Error(
    `the kernel's ephemeral port range ${ephemeralLow}-${ephemeralHigh} leaves no 1000 ports free for test servers`,
  );
}

function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low, high];
  } catch {
    // Not Linux (no /proc): the IANA dynamic range is the default elsewhere.
  }
  return [49_152, 65_535];
}

/** The abstract socket naming `port`, held by this process; undefined when another process holds it. */
function holdClaim(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' ? resolve(undefined) : reject(err),
    );
    server.listen(`${CLAIM_PREFIX}${port}`, () => {
      // The claim lasts as long as the process, but does not keep it alive.
      server.unref();
      resolve(server);
    });
  });
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
