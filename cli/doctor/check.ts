/** One item of `sheetbench doctor`: what it looked at, whether it is fine, and when not, the exact command that fixes it. */
export interface CheckResult {
  status: 'ok' | 'warn' | 'fail';
  /** What was found, e.g. `node v20.20.2` or `bwrap not found at /usr/bin/bwrap`. */
  detail: string;
  /** The command (or setting) that fixes it; always given for warn and fail. */
  fix?: string;
}

export interface Check {
  name: string;
  run(): Promise<CheckResult>;
}

export const ok = (detail: string): CheckResult => ({ status: 'ok', detail });
export const warn = (detail: string, fix: string): CheckResult => ({ status: 'warn', detail, fix });
export const fail = (detail: string, fix: string): CheckResult => ({ status: 'fail', detail, fix });

/** Runs the checks concurrently, each bounded by `timeoutMs` (a check that hangs fails, naming what it waited for). */
export async function runChecks(
  checks: Check[],
  timeoutMs: number,
): Promise<Array<CheckResult & { name: string; ms: number }>> {
  return Promise.all(
    checks.map(async (check) => {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<CheckResult>((resolve) => {
        timer = setTimeout(
          () =>
            resolve(
              fail(
                `no answer within ${timeoutMs / 1000} s`,
                `run the step by hand to see where it hangs (sheetbench doctor --only "${check.name}")`,
              ),
            ),
          timeoutMs,
        );
      });
      const result = await Promise.race([
        check
          .run()
          .catch((err: unknown) =>
            fail(
              `the check itself failed: ${err instanceof Error ? err.message : String(err)}`,
              'bash scripts/setup.sh',
            ),
          ),
        timedOut,
      ]);
      clearTimeout(timer);
      return { name: check.name, ms: Date.now() - started, ...result };
    }),
  );
}

/** A message that ends with "Fix: …" (the sandbox's and the model's set-up errors), split into what is wrong and the fix. */
export function splitFix(message: string): { detail: string; fix?: string } {
  const at = message.lastIndexOf(' Fix: ');
  if (at < 0) return { detail: message };
  return { detail: message.slice(0, at).replace(/[.:]$/, ''), fix: message.slice(at + 6).replace(/^run `(.+)`/, '$1') };
}
