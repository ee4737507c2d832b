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
import {
  evaluateV2Outputs,
  RecalculatedCopies,
  v2ResultJson,
  type V2Evaluation,
} from '../../benchmarks/spreadsheetbench2';
import { createRecalculator } from '../../lib/recalc';

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

function formatV2(e: V2Evaluation): string {
  const line = (name: string, r: V2Evaluation['result'] | V2Evaluation['categories'][string]) =>
    `${name}: ${r.total_tests} tasks (${r.missing_outputs} outputs missing), accuracy ${pct(r.accuracy)}, regression ${pct(r.regression_accuracy)}, modification ${pct(r.modification_accuracy)}`;
  return [line('overall', e.result), ...Object.entries(e.categories).map(([c, r]) => `  ${line(c, r)}`)].join('\n');
}

interface EvalOptions {
  dataset: string;
  outputs: string;
  out: string;
  mode: string;
  tasks?: string;
  recalc?: boolean;
}

/** `--recalc`: inputs, answers and outputs scored as recalculated copies (LibreOffice, cached by content). */
async function evaluateV2(opts: EvalOptions): Promise<V2Evaluation | null> {
  if (!opts.recalc) return evaluateV2Outputs(opts.dataset, opts.outputs);
  const recalculator = createRecalculator('libreoffice');
  try {
    const recalculated = new RecalculatedCopies(recalculator);
    const evaluation = await evaluateV2Outputs(opts.dataset, opts.outputs, { recalculated });
    if (evaluation)
      process.stderr.write(
        `recalculated ${recalculated.made} workbooks, reused ${recalculated.reused} from ${recalculated.dir}\n`,
      );
    return evaluation;
  } finally {
    await recalculator.close();
  }
}

/** SpreadsheetBench 2 folders: evaluation.py's result file at <out>, per-category totals and dataset problems beside it. */
async function evalV2(opts: EvalOptions) {
  const evaluation = await evaluateV2(opts);
  if (!evaluation) return false;
  if (opts.mode !== 'official' || opts.tasks)
    throw new CliError(
      'a SpreadsheetBench 2 dataset is scored in official mode over all its tasks (no --mode strict, no --tasks)',
      EXIT.usage,
    );
  await writeText(opts.out, v2ResultJson(evaluation.result));
  const { categories, problems } = evaluation;
  await writeText(
    `${opts.out}.summary.json`,
    JSON.stringify({ benchmark: 'spreadsheetbench2', categories, problems }, null, 2),
  );
  for (const p of problems) process.stderr.write(`dataset problem: ${p}\n`);
  process.stdout.write(`${formatV2(evaluation)}\nwrote ${opts.out} and ${opts.out}.summary.json\n`);
  return true;
}

export function registerEvalCommands(program: Command): void {
  program
    .command('eval')
    .description(
      'score {N}_{id}_output.xlsx (SpreadsheetBench 2: <id>_output.xlsx) exactly as the official evaluation.py (no Temporal needed)',
    )
    .requiredOption('--dataset <dir>', 'dataset folder with dataset.json and spreadsheet/')
    .requiredOption('--outputs <dir>', 'folder holding {N}_{id}_output.xlsx')
    .requiredOption('--out <file>', 'official-shape JSON result; the summary goes to <out>.summary.json')
    .option('--mode <mode>', 'official (parity, quirks included) or strict (documented fixes)', 'official')
    .option('--tasks <ids>', 'comma-separated task ids to score')
    .option(
      '--recalc',
      'SpreadsheetBench 2: score recalculated copies of inputs, answers and outputs (LibreOffice; cached by content, your files untouched)',
    )
    .action(async (opts: EvalOptions) => {
      const mode = parseMode(opts.mode);
      await requireDir(opts.dataset, 'dataset');
      await requireDir(opts.outputs, 'outputs');
      if (await evalV2(opts)) return;
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
