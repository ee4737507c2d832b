import { CliError, EXIT } from './exitCodes';

/** How long workers get to stop after Ctrl-C / SIGTERM before the CLI exits anyway. */
const FORCE_EXIT_MS = 15_000;

/**
 * Ctrl-C or SIGTERM while following a run: stop following (the caller's cleanup stops the in-process workers), and
 * end with the command that resumes the run — it stays on the Temporal server, nothing finished is lost. A second
 * signal, or cleanup taking longer than FORCE_EXIT_MS, exits at once.
 */
export function followInterrupts(runId: string): { signalled: Promise<never>; dispose(): void } {
  let reject!: (err: Error) => void;
  const signalled = new Promise<never>((_, r) => (reject = r));
  signalled.catch(() => undefined); // handled by whoever awaits it; this only keeps it from being unhandled
  let received: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (received) process.exit(sig === 'SIGINT' ? 130 : 143);
    received = sig;
    process.stderr.write(`\n${sig}: stopping this CLI's workers; run ${runId} stays on the Temporal server\n`);
    setTimeout(() => {
      process.stderr.write(
        `workers did not stop within ${FORCE_EXIT_MS / 1000} s; exiting. Resume with: sheetbench resume ${runId}\n`,
      );
      process.exit(EXIT.interrupted);
    }, FORCE_EXIT_MS).unref();
    reject(new CliError(`interrupted (${sig}); resume with: sheetbench resume ${runId}`, EXIT.interrupted));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signalled,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
