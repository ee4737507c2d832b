import type { Config } from '../../config/schema';
import { checkSandboxRuntime } from '../../lib/sandbox/index';
import { dockerAvailable } from '../../lib/sandbox/docker';
import { CliError, EXIT } from '../exitCodes';
import { ok, runChecks, splitFix, type Check } from './check';
import { sofficeOnPath } from './recalc';
import { bubblewrapCheck } from './sandbox';

/** What `run`, `serve` and `ask` add to a start-up failure: where to look next. */
export const DOCTOR_HINT = "Run `sheetbench doctor` to check this machine's set-up item by item, each with its fix.";

/**
 * The quick part of `sheetbench doctor` (well under a second), before `run`, `resume`, `serve` or `ask` starts anything:
 * a machine that cannot isolate code, has no sandbox environment, no LibreOffice (for recalculation) or no embedded model
 * is refused with the cause and its fix, instead of starting tasks that would all fail for a reason the user did not cause.
 */
export async function assertReadyToStart(config: Config, opts: { recalc: boolean }): Promise<void> {
  const checks: Check[] = [];
  const docker = config.sandbox.backend === 'auto' && (await dockerAvailable()).ok;
  if (config.sandbox.backend === 'bwrap' || (config.sandbox.backend === 'auto' && !docker)) {
    checks.push(bubblewrapCheck(), {
      name: 'sandbox environment',
      run: () =>
        checkSandboxRuntime().then(
          () => ok('installed'),
          (err: Error) => ({ status: 'fail' as const, ...withFix(err.message) }),
        ),
    });
  }
  if (opts.recalc && config.recalc.engine === 'libreoffice') checks.push(sofficeOnPath());
  // An endpoint is checked by the model preflight (key, model name); an embedded model must be installed.
  // The embedded model's check (and the LLM client under it) is loaded only when it is needed: every command that opens
  // a Temporal session passes here.
  if (!config.llm.baseUrl && !config.llm.apiKey) checks.push((await import('./model')).modelCheck(config.llm));
  const failed = (await runChecks(checks, 15_000)).filter((r) => r.status === 'fail');
  if (!failed.length) return;
  const lines = failed.map((r) => `${r.name}: ${r.detail}${r.fix ? `. Fix: ${r.fix}` : ''}`);
  throw new CliError(`refusing to start: ${lines.join('; ')}\n${DOCTOR_HINT}`, EXIT.config);
}

function withFix(message: string): { detail: string; fix: string } {
  const { detail, fix } = splitFix(message);
  return { detail, fix: fix ?? 'bash scripts/setup.sh' };
}
