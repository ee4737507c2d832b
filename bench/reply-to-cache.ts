/**
 * The window in which a delivered model reply can still be paid for twice: a loaded run (dev20 tasks repeated, real
 * sandbox, recalculation and scoring, the worker in this process, the scripted model in its own process), measuring
 *   - the worker's event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution): p50, p99, max;
 *   - the worker's main thread as the scheduler counts it: time on a CPU and time runnable but waiting for one (the
 *     part of the loop's delay that is the machine's load, not code holding the loop);
 *   - reply-to-cache: from the reply leaving the scripted server (its log: start + duration, written as the reply is
 *     sent) to the cache entry being on disk (the entry's mtime; the entry carries the reply's x-request-id, which
 *     names the log entry): p50, p99, max.
 * With --profile, a CPU profile of this process over the run prints the functions that held the event loop longest.
 *
 *   node --import tsx bench/reply-to-cache.ts [--tasks 40] [--concurrency 8] [--latency 300] [--recalc libreoffice|none]
 *     [--agent single] [--profile true]
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { RunProgress } from '../contracts/run';
import { startBenchmarkRun, startE2EWith, startInProcessWorkers } from '../test/helpers/e2e';
import { replyToCacheMs } from '../test/helpers/replyToCache';
import { percentile, round } from './harness-histories';
import { startModelProcess } from './modelProcess';
import { startProfile, type CpuProfileSummary } from './cpuProfile';
import { buildSyntheticDataset } from './syntheticDataset';
import { mainThreadSched, schedBetween } from './mainThreadSched';

const { values: args } = parseArgs({
  options: {
    tasks: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '8' },
    latency: { type: 'string', default: '300' },
    recalc: { type: 'string', default: 'libreoffice' },
    agent: { type: 'string', default: 'single' },
    profile: { type: 'string', default: 'false' },
  },
});

async function main(): Promise<void> {
  const tasks = Number(args.tasks);
  const dataset = buildSyntheticDataset(Math.ceil(tasks / 20), tasks);
  const recalc = args.recalc === 'none' ? 'none' : 'libreoffice';
  const model = await startModelProcess('dev20', Number(args.latency));
  const env = await startE2EWith(model, {
    config: { run: { concurrency: Number(args.concurrency) }, recalc: { engine: recalc } },
  });
  const workers = await startInProcessWorkers(env);
  const running = workers.run();
  try {
    const run = await startBenchmarkRun(env, { dataset: dataset.dir, agent: args.agent });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const profile = args.profile === 'true' ? await startProfile() : undefined;
    delay.enable();
    const sched0 = mainThreadSched();
    const t0 = Date.now();
    const final = (await run.handle.result()) as RunProgress;
    const wallMs = Date.now() - t0;
    const sched = schedBetween(sched0, mainThreadSched());
    delay.disable();
    const hot = await profile?.stop();
    const windows = replyToCacheMs(run.runDir, await model.readLog());
    const ms = (ns: number) => round(ns / 1e6);
    console.log(
      JSON.stringify(
        {
          command: `node --import tsx bench/reply-to-cache.ts ${process.argv.slice(2).join(' ')}`.trim(),
          tasks: final.total,
          done: final.done,
          failed: final.failed,
          agent: args.agent,
          recalc,
          concurrency: Number(args.concurrency),
          modelLatencyMs: Number(args.latency),
          wallS: round(wallMs / 1000),
          mainThreadS: { cpu: round(sched.cpuMs / 1000), runQueueWait: round(sched.runQueueWaitMs / 1000) },
          loadAverage: loadavg().map(round),
          eventLoopDelayMs: {
            p50: ms(delay.percentile(50)),
            p99: ms(delay.percentile(99)),
            max: ms(delay.max),
            mean: ms(delay.mean),
          },
          replyToCacheMs: {
            replies: windows.length,
            p50: round(percentile(windows, 50)),
            p99: round(percentile(windows, 99)),
            max: round(Math.max(0, ...windows)),
          },
          ...(hot ? { loopHeld: hot.stalls, topSelfTime: summaryLines(hot) } : {}),
        },
        null,
        2,
      ),
    );
  } finally {
    await workers.shutdown();
    await running;
    await env.close();
  }
}

function summaryLines(summary: CpuProfileSummary): string[] {
  return summary.top.map((f) => `${round(f.selfMs)} ms self  ${f.name}  ${f.where}  [${f.callers.join('; ')}]`);
}

await main();
