/**
 * CPU-seconds to start a scoring thread and load its module (activities/spreadsheetbench/scoreWork.ts), counted by the
 * kernel (bench/kindCgroups.ts: this process and everything it starts, tsx's esbuild service included), user and
 * system apart: through tsx (registered in the thread, every import compiled) and from the prebuilt bundle
 * (lib/threads/prebuiltModule.ts; its freshness check included), interleaved. Each start is a fresh one-thread pool
 * whose first job loads the module and fails at once (no run folder), then ends.
 *
 *   node --import tsx bench/thread-start-cpu.ts [--runs 5]
 */
import { parseArgs } from 'node:util';
import { SCORE_WORK } from '../activities/spreadsheetbench/score';
import { PrebuiltModule } from '../lib/threads/prebuiltModule';
import { ThreadPool } from '../lib/threads/threadPool';
import { KindCgroups } from './kindCgroups';
import { loadAverage } from './processCpu';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(args.runs);
const MODES = {
  tsx: () => SCORE_WORK.source,
  bundle: () => new PrebuiltModule(SCORE_WORK.source), // a new one: its freshness is checked again, as in a new process
};
type Mode = keyof typeof MODES;

async function main(): Promise<void> {
  const built = await SCORE_WORK.buildIfStale();
  if (built.built) console.log(`built the bundle first (it ${built.reason})`);
  const groups = KindCgroups.enter();
  const totals: Record<Mode, { user: number; sys: number; wallMs: number }> = {
    tsx: { user: 0, sys: 0, wallMs: 0 },
    bundle: { user: 0, sys: 0, wallMs: 0 },
  };
  const load = loadAverage();
  try {
    for (let i = 0; i < RUNS; i++)
      for (const mode of Object.keys(MODES) as Mode[]) {
        const before = sumUsage(groups);
        const t0 = performance.now();
        await startOnce(mode);
        const after = sumUsage(groups);
        totals[mode].user += after.user - before.user;
        totals[mode].sys += after.sys - before.sys;
        totals[mode].wallMs += performance.now() - t0;
      }
  } finally {
    await groups.leave();
  }
  const per = (s: number) => Math.round((s / RUNS) * 1000) / 1000;
  console.log(`node --import tsx bench/thread-start-cpu.ts --runs ${RUNS} (per thread start; load ${load})`);
  console.table(
    Object.entries(totals).map(([mode, t]) => ({
      mode,
      cpuS: per(t.user + t.sys),
      userS: per(t.user),
      sysS: per(t.sys),
      wallMs: Math.round(t.wallMs / RUNS),
    })),
  );
}

async function startOnce(mode: Mode): Promise<void> {
  const pool = new ThreadPool(1);
  const failed = await pool
    .run(MODES[mode](), 'scoreAndRecord', { runDir: '/nonexistent-run', taskId: 'none' })
    .then(() => undefined)
    .catch((err: Error) => err);
  if (!failed) throw new Error('scoring a run that does not exist should have failed');
  await pool.close();
}

function sumUsage(groups: KindCgroups): { user: number; sys: number } {
  const all = Object.values(groups.usage());
  return { user: all.reduce((n, u) => n + u.user, 0), sys: all.reduce((n, u) => n + u.sys, 0) };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
