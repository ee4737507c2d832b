import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { expect, type TestContext } from 'vitest';
import {
  createSandboxFactory,
  defaultRuntime,
  type FactoryConfig,
  type FactoryExtras,
  type SandboxFactory,
  type SandboxRuntime,
} from '../../lib/sandbox/index';

export const testConfig = (backend: FactoryConfig['backend'] = 'bwrap'): FactoryConfig => ({
  backend,
  executionTimeoutMs: 10_000,
  memoryMiB: 1024,
  maxProcesses: 64,
  dockerImage: 'sheetbench-sandbox:test',
});

/** No background pandas import: tests measure and assert behaviour, not warm-up. */
export function bwrapFactory(extras: FactoryExtras = { warmModules: [] }) {
  return createSandboxFactory(testConfig('bwrap'), extras);
}

/**
 * A world-searchable temp root holding `work/` (the sandbox work dir) and, next to it (outside the work dir),
 * an answer file the sandbox must never reach.
 */
export function makeWorkRoot(): { root: string; workDir: string; answerPath: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'sb-test-'));
  chmodSync(root, 0o755);
  const workDir = join(root, 'work');
  mkdirSync(workDir);
  const answerPath = join(root, '1_999_answer.xlsx');
  writeFileSync(answerPath, 'SECRET-ANSWER-CONTENT');
  return { root, workDir, answerPath, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * The checkout's sandbox runtime (Python environment + kernel scripts) placed where CI systems and `mktemp -d` put
 * checkouts: under /tmp, in a folder whose name has a space, a quote and non-ASCII characters, reached through a symlink. The
 * environment is hard-linked (`cp -al`, a second or two; copied when /tmp is another file system).
 */
export function placeRuntimeUnderTmp(): { runtime: SandboxRuntime; root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'sb ci ü-'));
  chmodSync(root, 0o755);
  const real = join(root, "chèckout's one");
  mkdirSync(join(real, '.tools'), { recursive: true });
  mkdirSync(join(real, 'lib/sandbox'), { recursive: true });
  const checkout = defaultRuntime();
  const venv = dirname(dirname(checkout.python));
  const linked = spawnSync('cp', ['-al', venv, join(real, '.tools/sandbox-py')]);
  if (linked.status !== 0) execFileSync('cp', ['-a', venv, join(real, '.tools/sandbox-py')]);
  for (const script of [checkout.kernel, checkout.zygote])
    copyFileSync(script, join(real, 'lib/sandbox', basename(script)));
  const via = join(root, 'via link');
  symlinkSync(real, via);
  return {
    root,
    runtime: {
      python: join(via, '.tools/sandbox-py/bin', basename(checkout.python)),
      kernel: join(via, 'lib/sandbox/kernel.py'),
      zygote: join(via, 'lib/sandbox/zygote.py'),
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Runs code in a fresh sandbox of `factory` on `workDir`, as root: it runs as uid 1000 inside (pandas imports), the
 * file it writes reaches the host owned by the sandbox's host uid (65534), and the host reads what it wrote.
 */
export async function runsSandboxed(factory: SandboxFactory, workDir: string): Promise<void> {
  const sb = await factory.create({ workDir });
  try {
    const r = await sb.execute(
      'import os, pandas\nopen("/job/made.txt", "w").write("x")\nprint(os.getuid(), len(pandas.__version__) > 0)',
    );
    expect(r.error).toBe('');
    expect(r.stdout).toBe('1000 True\n');
    expect(statSync(join(workDir, 'made.txt')).uid).toBe(65534);
    expect((await sb.readFile('made.txt')).toString()).toBe('x');
  } finally {
    await sb.dispose();
  }
}

/**
 * Skips the test, with the reason shown, unless the tests run as root: only a root worker hands the sandbox to
 * another uid (65534) that may not enter the folders above a checkout or work dir; run as anyone else, the sandbox is
 * that user, who can enter them, so there is nothing to pass through.
 */
export function skipUnlessRoot(ctx: TestContext): void {
  if (process.getuid?.() !== 0)
    ctx.skip(
      'needs root: only a root worker runs the sandbox as an unprivileged uid that may not enter a mode-700 folder',
    );
}
