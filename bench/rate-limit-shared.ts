/**
 * The Temporal-held LLM rate limit (rateLimit/): what it costs per call and whether the provider sees the configured
 * limits. Two "hosts" (two processes, test/rateLimit/limiterClient.ts) share only the dev server; the scripted model
 * answers after --latency ms; one in-process worker runs the rate-limit workflow.
 *
 *   node --import tsx bench/rate-limit-shared.ts [--calls 20] [--latency 200] [--concurrent 3] [--rpm 12] [--window 4000]
 *
 * Prints: wall time, observed max concurrency and max requests per window at the provider (scripted server log) vs
 * configured, and — with limits that never bind — the overhead of a permit (acquire + release) per call.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startE2E, startInProcessWorkers, type E2EEnv } from '../test/helpers/e2e';
import { TEST_NAMESPACE } from '../test/helpers/temporalServer';
import { intervalOf, maxOverlap, maxStartsPerWindow } from '../test/helpers/requestIntervals';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '20' },
    latency: { type: 'string', default: '200' },
    concurrent: { type: 'string', default: '3' },
    rpm: { type: 'string', default: '12' },
    window: { type: 'string', default: '4000' },
  },
});
const CALLS_EACH = Number(args.calls) / 2;
const CLIENT = path.join(import.meta.dirname, '../test/rateLimit/limiterClient.ts');

/** Runs the two "hosts"; returns every call's wall time as its host saw it. */
async function twoHosts(env: E2EEnv, limits: object): Promise<number[]> {
  const argv = [
    env.temporal.address,
    TEST_NAMESPACE,
    env.config.temporal.taskQueue,
    env.llm.url,
    String(CALLS_EACH),
    JSON.stringify(limits),
  ];
  const outputs = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', CLIENT, ...argv], {
            stdio: ['ignore', 'pipe', 'inherit'],
            env: { ...process.env, REPORT_CALL_MS: '1' },
          });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`a client exited with ${code}`))));
        }),
    ),
  );
  return outputs.flatMap((o) => JSON.parse(/CALL_MS (.*)/.exec(o)![1]) as number[]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const env = await startE2E(
  { rules: [], fallback: 'ok', latencyMs: Number(args.latency) },
  { config: { recalc: { engine: 'none' } } },
);
const workers = await startInProcessWorkers(env, { recalc: false });
const running = workers.run();
try {
  const limited = {
    maxConcurrent: Number(args.concurrent),
    requestsPerMinute: Number(args.rpm),
    windowMs: Number(args.window),
  };
  await twoHosts(env, limited);
  const calls = env.llm.log.filter((e) => e.status === 200).map(intervalOf);
  const starts = calls.map((c) => c.start).sort((a, b) => a - b);
  console.log(`limited: ${calls.length} calls from 2 processes`);
  console.log(`  max concurrent at the provider: ${maxOverlap(calls)} (configured ${limited.maxConcurrent})`);
  console.log(
    `  max requests started per ${limited.windowMs} ms window: ${maxStartsPerWindow(starts, limited.windowMs)} (configured ${limited.requestsPerMinute})`,
  );
  console.log(`  first → last request: ${starts.at(-1)! - starts[0]} ms`);

  const before = env.llm.log.length;
  // Limits that never bind: what remains is the cost of asking the workflow for a permit and giving it back.
  const wall = await twoHosts(env, { maxConcurrent: 10_000, requestsPerMinute: 1_000_000 });
  const served = env.llm.log
    .slice(before)
    .filter((e) => e.status === 200)
    .map((e) => e.durationMs);
  console.log(
    `unbound limits: ${served.length} calls; median wall per call at the host ${median(wall)} ms vs ${median(served)} ms at the provider`,
  );
  console.log(`  permit overhead (acquire + release + HTTP), median: ${median(wall) - median(served)} ms per call`);
} finally {
  await workers.shutdown();
  await running;
  await env.close();
}
