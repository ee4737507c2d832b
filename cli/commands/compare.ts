import type { Command } from 'commander';
import { benchmarkNamed } from '../../benchmarks';
import {
  compareRunOutcomes,
  judgeSettingsText,
  loadRunOutcomes,
  PairingError,
  RunOutcomesError,
  type Comparison,
  type PairComparison,
  type RunMetrics,
} from '../../benchmarks/report/comparison';
import type { Interval } from '../../benchmarks/report/statistics';
import { readManifest } from '../../lib/runStore/manifest';
import { unpricedModelsOf } from '../../client/runPrices';
import { CliError, EXIT } from '../exitCodes';
import { findRunFolder } from '../runRef';

/** `sheetbench compare RUN [RUN...] [--json] [--partial]`: metrics with intervals, a leaderboard, paired statistics. */
export function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .description(
      'one run: its metrics with 95% intervals, pass@k and pass^k; several: a leaderboard, and each paired with the first (paired table by hard outcome, McNemar exact p, paired bootstrap interval of the soft difference, cost and tokens)',
    )
    .argument('<runs...>', 'run folders or run ids; the first is the baseline A of every pair')
    .option('--json', 'print the comparison as JSON (the contract scripts read)')
    .option('--partial', 'compare runs still in progress on the attempts recorded so far')
    .action(async (runs: string[], flags: { json?: boolean; partial?: boolean }) => {
      const dirs = await Promise.all(runs.map(findRunFolder));
      const comparison = await compareFolders(dirs, flags.partial ?? false);
      const unknown = await unknownCostLines(dirs);
      process.stdout.write(
        flags.json
          ? `${JSON.stringify(comparison, null, 2)}\n`
          : `${[...comparisonText(comparison), ...unknown].join('\n')}\n`,
      );
    });
}

/** Runs whose models had no known price: their costs above count those calls as $0. */
async function unknownCostLines(dirs: string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const dir of dirs) {
    const unpriced = await unpricedModelsOf(dir);
    if (unpriced.length)
      lines.push(`cost unknown for ${unpriced.join(', ')} in ${dir}: no price was known, its calls are counted as $0`);
  }
  return lines;
}

async function compareFolders(dirs: string[], partial: boolean): Promise<Comparison> {
  const outcomes = [];
  for (const dir of dirs) {
    try {
      const manifest = await readManifest(dir);
      const benchmark = benchmarkNamed(manifest.benchmark);
      const run = await loadRunOutcomes(dir, {
        exclude: benchmark.knownBad?.(manifest.edition),
        judge: await benchmark.judgeSettings?.(dir, manifest),
      });
      if (run.inProgress && !partial) {
        throw new CliError(
          `run ${manifest.runId} (${dir}) is still in progress (${run.inProgress}): compare it when it has finished, or pass --partial to compare the attempts recorded so far`,
          EXIT.failure,
        );
      }
      outcomes.push(run);
    } catch (err) {
      if (err instanceof RunOutcomesError) throw new CliError(err.message, EXIT.notFound);
      if (err instanceof CliError) throw err;
      throw new CliError(`cannot read run ${dir}: ${(err as Error).message}`, EXIT.notFound);
    }
  }
  try {
    return compareRunOutcomes(outcomes);
  } catch (err) {
    if (err instanceof PairingError) throw new CliError(`refusing to compare: ${err.message}`, EXIT.mismatch);
    throw err;
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const interval = (i: Interval) => `${pct(i.mean)} [${pct(i.ci95[0])}, ${pct(i.ci95[1])}]`;
const signedPp = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pp`;
const diffInterval = (i: Interval) => `${signedPp(i.mean)} [${signedPp(i.ci95[0])}, ${signedPp(i.ci95[1])}]`;
const usd = (x: number) => `${x < 0 ? '−' : ''}$${Math.abs(x).toFixed(4)}`;
const ks = (r: Record<string, number>, name: string) =>
  Object.entries(r)
    .map(([k, v]) => `${name}${k} ${pct(v)}`)
    .join('  ');

export function comparisonText(c: Comparison): string[] {
  const lines = c.runs.length === 1 ? metricsText(c.runs[0]) : [...leaderboard(c.runs), ...judgeLines(c.runs)];
  for (const pair of c.pairs) lines.push('', ...pairText(pair));
  return lines;
}

/** Each run's judge settings under the leaderboard (runs of a benchmark with a judge). */
function judgeLines(runs: RunMetrics[]): string[] {
  return runs.filter((m) => m.judge).map((m) => `judge of ${m.runId}: ${judgeSettingsText(m.judge!)}`);
}

function metricsText(m: RunMetrics): string[] {
  return [
    `run ${m.runId}: ${m.benchmark}${m.edition ? ` ${m.edition}` : ''}, ${m.agent} × ${m.model}, ${m.scoringMode} scoring; ${m.tasks} tasks${m.epochs > 1 ? ` × ${m.epochs} epochs (${m.attempts} attempts)` : ''}${m.inProgress ? ` — in progress: ${m.inProgress}` : ''}`,
    `  soft ${interval(m.soft)}   hard ${interval(m.hard)}   (95% intervals: task bootstrap)`,
    `  ${ks(m.passAt, 'pass@')}`,
    `  ${ks(m.passHat, 'pass^')}`,
    `  cost ${usd(m.costUsd)}  tokens ${m.tokens.input} in / ${m.tokens.output} out  LLM calls ${m.llmCalls}`,
    ...(m.judge ? [`  judge: ${judgeSettingsText(m.judge)}`] : []),
    ...m.byGroup.map((g) => `  ${g.group} (${g.tasks}): soft ${interval(g.soft)}  hard ${interval(g.hard)}`),
    ...(Object.keys(m.failureClasses).length
      ? [
          `  failures: ${Object.entries(m.failureClasses)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        ]
      : []),
    ...(m.withoutExcluded
      ? [
          `  without ${m.withoutExcluded.tasks.length} ${m.withoutExcluded.why} (${m.withoutExcluded.tasks.join(', ')}): soft ${interval(m.withoutExcluded.soft)}  hard ${interval(m.withoutExcluded.hard)}`,
        ]
      : []),
  ];
}

function leaderboard(runs: RunMetrics[]): string[] {
  const ranked = [...runs].sort((x, y) => y.hard.mean - x.hard.mean || y.soft.mean - x.soft.mean);
  const header = [
    '#',
    'run',
    'agent',
    'model',
    'tasks',
    'epochs',
    'soft [95%]',
    'hard [95%]',
    'pass@1',
    'pass@K',
    'cost',
  ];
  const rows = ranked.map((m, i) => {
    const k = String(m.epochs);
    return [
      String(i + 1),
      m.runId,
      m.agent,
      m.model,
      String(m.tasks),
      k,
      interval(m.soft),
      interval(m.hard),
      pct(m.passAt['1'] ?? 0),
      `${pct(m.passAt[k] ?? 0)} (k=${k})`,
      usd(m.costUsd),
    ];
  });
  return align([header, ...rows]);
}

function pairText(p: PairComparison): string[] {
  const t = p.hard;
  const ids = (xs: string[]) => (xs.length ? xs.join(', ') : '—');
  return [
    `A = ${p.a}, B = ${p.b}: ${p.tasks} paired tasks (a task passes when it passes on more than half its attempts)`,
    ...(p.judgeDiffers
      ? [`  warning: A and B were judged differently (${p.judgeDiffers.join('; ')}): scores may differ for that alone`]
      : []),
    ...align([
      ['', 'B passes', 'B fails'],
      ['A passes', String(t.bothPass), String(t.aOnly)],
      ['A fails', String(t.bOnly), String(t.neither)],
    ]).map((l) => `  ${l}`),
    `  only A passes: ${ids(t.taskIds.aOnly)}`,
    `  only B passes: ${ids(t.taskIds.bOnly)}`,
    `  McNemar exact two-sided p = ${t.mcnemarP.toPrecision(3)}`,
    `  soft B − A ${diffInterval(p.softDiff)}   hard B − A ${diffInterval(p.hardDiff)}   (paired bootstrap over tasks)`,
    `  cost B − A ${usd(p.costUsd.diff)} (A ${usd(p.costUsd.a)}, B ${usd(p.costUsd.b)})   tokens B − A ${p.tokens.diff >= 0 ? '+' : ''}${p.tokens.diff} (A ${p.tokens.a}, B ${p.tokens.b})`,
    ...p.byGroup.map(
      (g) =>
        `  ${g.group} (${g.tasks}): both ${g.hard.bothPass}, only A ${g.hard.aOnly}, only B ${g.hard.bOnly}, neither ${g.hard.neither}; p = ${g.hard.mcnemarP.toPrecision(3)}; soft B − A ${diffInterval(g.softDiff)}`,
    ),
    ...(p.onlyA.length || p.onlyB.length ? [`  not paired: only in A ${ids(p.onlyA)}; only in B ${ids(p.onlyB)}`] : []),
  ];
}

function align(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}
