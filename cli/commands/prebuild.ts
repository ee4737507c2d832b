import type { Command } from 'commander';
import { SCORE_WORK } from '../../activities/spreadsheetbench/score';
import type { PrebuiltModule } from '../../lib/threads/prebuiltModule';
import { buildBundle, freshBundle } from '../../lib/prebuilt/entryBundle.mjs';

/**
 * Every module the workers run in worker threads, loaded from a prebuilt bundle (lib/threads/prebuiltModule.ts).
 * Named here, not through the activities' registry, whose import costs the set-up seconds of CPU; test/threads/
 * prebuiltModule.test.ts checks that every PrebuiltModule of the source tree is listed.
 */
export const PREBUILT_THREAD_MODULES: PrebuiltModule[] = [SCORE_WORK];

/** The entry points bin/entry.mjs runs from a bundle (lib/prebuilt/entryBundle.mjs): the CLI and the standalone worker. */
export const PREBUILT_ENTRIES = ['cli/main.ts', 'workers/main.ts'];

/** `sheetbench prebuild`: the worker threads' bundles, built where stale (the set-up runs it). */
export function registerPrebuildCommand(program: Command): void {
  program
    .command('prebuild')
    .description(
      "build the bundles the CLI, the standalone worker and the workers' threads start from (each rebuilt only when a source changed; `npm run setup` runs it; the CLI and the worker also build theirs when they start; without a bundle a module loads through tsx, more slowly)",
    )
    .option('--quiet', 'print only the bundles built')
    .action(async (flags: { quiet?: boolean }) => {
      for (const module of PREBUILT_THREAD_MODULES) {
        const { built, reason } = await module.buildIfStale();
        if (built) process.stdout.write(`built ${module.bundlePath} (the bundle ${reason})\n`);
        else if (!flags.quiet) process.stdout.write(`fresh ${module.bundlePath}\n`);
      }
      for (const entry of PREBUILT_ENTRIES) {
        const fresh = freshBundle(entry);
        if ('file' in fresh) {
          if (!flags.quiet) process.stdout.write(`fresh ${fresh.file}\n`);
        } else process.stdout.write(`built ${await buildBundle(entry)} (the bundle of ${entry}: ${fresh.stale})\n`);
      }
    });
}
