/**
 * Overhead of the LLM path with an instant scripted model: provider + response cache + real HTTP, at the run's
 * concurrency. Prints requests/s and latency percentiles for misses (server answers) and hits (cache only).
 * Run: node --import tsx bench/llm-scripted.ts [requests] [concurrency]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cachedComplete, callKeyOf, OpenAiProvider, ResponseCache } from '../lib/llm';
import { duplicatesAnswered, startScriptedServer } from '../lib/scriptedLlm';

const total = Number(process.argv[2] ?? 1000);
const concurrency = Number(process.argv[3] ?? 32);
const prompt = 'Instruction: put the sum of column A in B1.\n'.repeat(100);

const server = await startScriptedServer({ script: { rules: [], fallback: '```python\nprint("done")\n```' } });
const dir = await mkdtemp(path.join(tmpdir(), 'llm-bench-'));
const cache = new ResponseCache(dir);
const provider = new OpenAiProvider({ baseUrl: server.url, requestTimeoutMs: 30_000 });

async function pass(label: string): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  async function lane(): Promise<void> {
    for (let i = next++; i < total; i = next++) {
      const t = performance.now();
      await cachedComplete(
        provider,
        cache,
        { model: 'bench', messages: [{ role: 'user', content: `${prompt}${i}` }] },
        { callKey: callKeyOf(['bench', i, 'solve', 0]) },
      );
      latencies.push(performance.now() - t);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
  console.log(
    `${label}: ${total} calls in ${seconds.toFixed(2)} s = ${(total / seconds).toFixed(0)} calls/s; p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms`,
  );
}

await pass(`miss (server), concurrency ${concurrency}`);
await pass(`hit (cache),   concurrency ${concurrency}`);
console.log(
  `server requests: ${server.log.length} (expected ${total}); call keys answered twice: ${duplicatesAnswered(server.log).length}`,
);
await server.close();
await rm(dir, { recursive: true, force: true });
