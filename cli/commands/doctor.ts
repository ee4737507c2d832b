import type { Command } from 'commander';
import path from 'node:path';
import { loadConfig } from '../../config/load';
import { REPO_ROOT } from '../../config/paths';
import type { Config } from '../../config/schema';
import { fail, runChecks, type Check } from '../doctor/check';
import { modelCheck } from '../doctor/model';
import { diskCheck, runFolderCheck, versionChecks } from '../doctor/platform';
import { libreOfficeCheck } from '../doctor/recalc';
import { bubblewrapCheck, sandboxEnvironmentCheck } from '../doctor/sandbox';
import { temporalCheck } from '../doctor/temporal';
import { EXIT } from '../exitCodes';

const CHECK_TIMEOUT_MS = 60_000;

/** The checks in the order they are printed (they run concurrently). */
export function doctorChecks(config: Config, opts: { runsDir: string }): Check[] {
  return [
    ...versionChecks(),
    bubblewrapCheck(),
    sandboxEnvironmentCheck(),
    libreOfficeCheck(),
    temporalCheck(config),
    modelCheck(config.llm),
    diskCheck([config.temporal.stateDir, config.conversation.dir]),
    runFolderCheck(opts.runsDir),
  ];
}

/** `sheetbench doctor`: in seconds, whether this machine can run sheetbench, and for each item that cannot, the fix. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      "check this machine's set-up: Node and Python, bubblewrap isolation, the sandbox's packages, LibreOffice, Temporal, the model, disk space, the run folder; each item says ok or the command that fixes it",
    )
    .option('--runs <dir>', 'the folder runs are written to', 'runs')
    .option('--only <names>', 'only these checks (comma-separated names as printed)')
    .option('--json', 'print the results as JSON')
    .action(async (flags: { runs: string; only?: string; json?: boolean }) => {
      const started = Date.now();
      let checks: Check[];
      try {
        checks = doctorChecks(loadConfig(), { runsDir: path.resolve(flags.runs) });
      } catch (err) {
        checks = [
          {
            name: 'configuration',
            run: async () =>
              fail(
                (err as Error).message,
                'fix sheetbench.config.json (or the file SHEETBENCH_CONFIG names) and the environment variables it mentions',
              ),
          },
        ];
      }
      const only = flags.only?.split(',').map((s) => s.trim().toLowerCase());
      const results = await runChecks(
        only ? checks.filter((c) => only.includes(c.name.toLowerCase())) : checks,
        CHECK_TIMEOUT_MS,
      );
      if (flags.json) process.stdout.write(`${JSON.stringify({ checkout: REPO_ROOT, results }, null, 2)}\n`);
      else {
        const width = Math.max(...results.map((r) => r.name.length));
        const lines = [`sheetbench doctor — checkout ${REPO_ROOT}`];
        for (const r of results) {
          lines.push(
            `  ${r.status === 'ok' ? 'ok  ' : r.status === 'warn' ? 'WARN' : 'FAIL'}  ${r.name.padEnd(width)}  ${r.detail}`,
          );
          if (r.fix) lines.push(`        ${' '.repeat(width)}  fix: ${r.fix}`);
        }
        const count = (s: string) => results.filter((r) => r.status === s).length;
        lines.push(
          `${count('ok')} ok, ${count('warn')} warnings, ${count('fail')} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      if (results.some((r) => r.status === 'fail')) process.exitCode = EXIT.failure;
    });
}
