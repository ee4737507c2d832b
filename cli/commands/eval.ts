/** `sheetbench eval` (official-shape scoring of an outputs folder) and `sheetbench health` (benchmark-health report). */
import { mkdir, writeFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { CliError, EXIT } from '../exitCodes';
import {
  benchmarkHealth,
  evaluateOutputs,
  officialJson,
  type ScoreSummary,
} from '../../benchmarks/spreadsheetbench/scoring';

const modeSchema = z.enum(['official', 'strict']);

async function requireDir(dir: string, what: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined); // no such folder: the usage error below
  if (!info?.isDirectory()) throw new CliError(`${what} ${dir} is not a folder`, EXIT.usage);
}

function parseMode(raw: string) {
  const parsed = modeSchema.safeParse(raw);
  if (!parsed.success) throw new CliError(`--mode must be official or strict, got ${JSON.stringify(raw)}`, EXIT.usage);
  return parsed.data;
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

function formatSummary(s: ScoreSummary): string {
  const lines = [`overall: ${s.tasks} tasks, soft ${pct(s.soft)}, hard ${pct(s.hard)}`];
  for (const [type, g] of Object.entries(s.byType))
    lines.push(`  ${type}: ${g.tasks} tasks, soft ${pct(g.soft)}, hard ${pct(g.hard)}`);
  return lines.join('\n');
}

async function writeText(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, text);
}

export function registerEvalCommands(program: Command): void {
  program
    .command('eval')
    .description(
      'score {N}_{id}_output.xlsx files exactly as the official SpreadsheetBench evaluation.py (no Temporal needed)',
    )
    .requiredOption('--dataset <dir>', 'dataset folder with dataset.json and spreadsheet/')
    .requiredOption('--outputs <dir>', 'folder holding {N}_{id}_output.xlsx')
    .requiredOption('--out <file>', 'official-shape JSON result; the summary goes to <out>.summary.json')
    .option('--mode <mode>', 'official (parity, quirks included) or strict (documented fixes)', 'official')
    .option('--tasks <ids>', 'comma-separated task ids to score')
    .action(async (opts: { dataset: string; outputs: string; out: string; mode: string; tasks?: string }) => {
      const mode = parseMode(opts.mode);
      await requireDir(opts.dataset, 'dataset');
      await requireDir(opts.outputs, 'outputs');
      const tasks = opts.tasks
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const { results, verdicts, summary } = await evaluateOutputs({
        datasetDir: opts.dataset,
        outputsDir: opts.outputs,
        mode,
        tasks,
      });
      await writeText(opts.out, officialJson(results));
      await writeText(`${opts.out}.summary.json`, JSON.stringify({ mode, summary, verdicts }, null, 2));
      process.stdout.write(`${formatSummary(summary)}\nwrote ${opts.out} and ${opts.out}.summary.json\n`);
    });

  program
    .command('health')
    .description(
      'benchmark-health report: null-agent passes, vacuous/unparseable answer positions, uncached answer formulas, self-failing answers',
    )
    .requiredOption('--dataset <dir>', 'dataset folder with dataset.json and spreadsheet/')
    .option('--out <file>', 'write the report as JSON')
    .option('--mode <mode>', 'official or strict', 'official')
    .action(async (opts: { dataset: string; out?: string; mode: string }) => {
      const mode = parseMode(opts.mode);
      await requireDir(opts.dataset, 'dataset');
      const report = await benchmarkHealth(opts.dataset, mode);
      if (opts.out) await writeText(opts.out, JSON.stringify(report, null, 2));
      const ap = report.answerPositions;
      process.stdout.write(
        [
          `${report.tasks} tasks (${mode} mode)`,
          `null agent (output = input): soft ${pct(report.nullAgent.summary.soft)}, hard ${pct(report.nullAgent.summary.hard)}; passing: ${report.nullAgent.passing.map((p) => `${p.id} [${p.test_case_results}]`).join(', ') || 'none'}`,
          `answer positions: ${ap.unparseable.length} unparseable (${ap.unparseable.map((x) => x.id).join(', ') || '-'}), ${ap.vacuous.length} vacuous (${ap.vacuous.map((x) => x.id).join(', ') || '-'})`,
          `answers with uncached target formulas: ${report.uncachedAnswerFormulas.map((x) => `${x.id}#${x.testCase} (${x.count})`).join(', ') || 'none'}`,
          `answers failing against themselves: ${report.answerSelfFailures.map((x) => `${x.id}#${x.testCase}`).join(', ') || 'none'}`,
          opts.out ? `wrote ${opts.out}` : '',
        ]
          .filter(Boolean)
          .join('\n') + '\n',
      );
    });
}
