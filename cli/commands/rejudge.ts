import type { Command } from 'commander';
import { benchmarkNamed } from '../../benchmarks';
import { NotJudgedError, UnfinishedRejudgeError, recordRejudgeSettings, startRejudge } from '../../client/startRejudge';
import { CliError, EXIT } from '../exitCodes';
import { openRun, startWorkers } from './run';

/**
 * `sheetbench rejudge RUN [--judge-model M] [--all]`: judge a run again without re-running its agent: a DSBench run's
 * recorded answers, a SpreadsheetBench 2 run's Visualization charts (from its recorded outputs). A rejudge killed
 * mid-way is resumed by the next `rejudge RUN` under its tag (client/startRejudge.ts).
 */
export function registerRejudgeCommand(program: Command): void {
  program
    .command('rejudge <run>')
    .description(
      'Judge a finished run again without re-running its agent: DSBench answers, SpreadsheetBench 2 Visualization charts ' +
        '(unparseable, failed or unjudged ones; all with --all or --judge-model)',
    )
    .option('--judge-model <model>', 'judge with this model (re-judges every answered question)')
    .option('--all', 're-judge every answered question')
    .option('--no-worker', 'do not start an in-process worker')
    .action(async (run: string, flags: { judgeModel?: string; all?: boolean; worker: boolean }) => {
      const { client, session, config, runDir, manifest } = await openRun(run);
      try {
        const started = await startRejudge(client, config, manifest, runDir, {
          judgeModel: flags.judgeModel,
          all: flags.all,
        }).catch((err: unknown) => {
          const usage = err instanceof NotJudgedError || err instanceof UnfinishedRejudgeError;
          throw usage ? new CliError(err.message, EXIT.usage) : err;
        });
        if (!started) {
          process.stdout.write(
            'nothing to re-judge (no unparseable, failed, unjudged or missing judgments; use --all)\n',
          );
          return;
        }
        process.stderr.write(
          started.resumed
            ? `resuming the unfinished rejudge ${started.tag}: ${started.count} tasks of run ${manifest.runId}\n`
            : `re-judging ${started.count} tasks of run ${manifest.runId}\n`,
        );
        const workers = flags.worker ? await startWorkers(session, config, { recalc: false }) : undefined;
        const running = workers?.run();
        try {
          await started.handle.result();
          await recordRejudgeSettings(manifest, runDir, started.tag);
        } finally {
          await workers?.shutdown();
          await running;
        }
        // The benchmark says what its rewritten summary is.
        const lines = await benchmarkNamed(manifest.benchmark).summaryLines(runDir);
        if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
      } finally {
        await client.connection.close();
      }
    });
}
