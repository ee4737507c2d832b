import type { Command } from 'commander';
import { CliError, EXIT } from '../exitCodes';
import { RunFolderError } from '../../benchmarks/spreadsheetbench/report/load';
import { readManifest } from '../../lib/runStore/manifest';
import { benchmarkNamed } from '../../benchmarks';
import { findRunFolder } from '../runRef';

/** `sheetbench report RUN_DIR [--compare OTHER_RUN_DIR] [--out DIR]`. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      'write report.md, a self-contained report.html, transcript pages and an Inspect AI eval log for a run folder',
    )
    .argument('<run>', 'run folder (e.g. runs/<run-id>) or run id (its folder is found through Temporal)')
    .option('--compare <other-run-dir>', 'a baseline run folder to compare against (fixed/broken tasks, deltas)')
    .option('--out <dir>', 'where to write the report (default: the run folder)')
    .action(async (run: string, opts: { compare?: string; out?: string }) => {
      const runDir = await findRunFolder(run);
      try {
        // A folder without a readable run.json is reported on as SpreadsheetBench's report reads it (it names what is missing).
        const benchmark = benchmarkNamed(
          (await readManifest(runDir).catch(() => ({ benchmark: 'spreadsheetbench' }))).benchmark,
        );
        const written = await benchmark.writeReport({ runDir, compareDir: opts.compare, outDir: opts.out });
        console.log(`report: ${written.finishedTasks} finished, ${written.pendingTasks} pending tasks`);
        console.log(
          `  ${written.markdown}\n  ${written.html}${written.inspectLog ? `\n  ${written.inspectLog} (Inspect eval log)` : ''}`,
        );
        if (written.transcriptPages !== undefined) console.log(`  ${written.transcriptPages} transcript pages`);
      } catch (err) {
        if (err instanceof RunFolderError) {
          const missingRun = err.file.endsWith('run.json') && err.message.includes('file is missing');
          throw new CliError(`cannot report on ${runDir}: ${err.message}`, missingRun ? EXIT.notFound : EXIT.failure);
        }
        throw err;
      }
    });
}
