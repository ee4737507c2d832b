import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';

/**
 * Loads, before a worker takes any task, what its first model call would otherwise load on the event loop while the
 * first replies arrive: Node's fetch (undici is compiled and initialised on first use), its HTTP/1 parser (a
 * WebAssembly module compiled on the first connection) and the OpenAI client. One request to a server of its own on
 * loopback; nothing leaves the host. In a loaded run (bench/reply-to-cache.ts --profile true) the worker's longest
 * event-loop stall was there in every run, 0.37-1.6 s at load 12-17 on 2 cores: the window a fresh worker (after a
 * crash) holds a delivered reply before caching it. Never fails: a warm-up that cannot run (no loopback) only leaves
 * that loading to the first call, as before.
 */
export async function warmHttpClient(): Promise<void> {
  await loadHttpClient().catch(() => undefined); // best-effort, see above: the worker works the same without it
}

async function loadHttpClient(): Promise<void> {
  new OpenAI({ apiKey: 'warm-up', baseURL: 'http://127.0.0.1/v1' }); // constructed only: no request
  const server = createServer((_req, res) => res.end('{}'));
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5_000) })).text();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve)); // resolves with an error when it never listened: nothing to close
  }
}
