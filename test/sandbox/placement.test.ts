/**
 * The sandbox wherever its files are: a runtime or work dir behind a folder the sandbox's uid may not enter works (as
 * root, passed through a mount namespace: passThrough.ts); one it may not read itself, or one that is missing, is
 * refused at once with a message naming the path and the command that fixes it. The attack suite runs on a runtime
 * under a /tmp path with a space.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxFactory, SandboxSetupError } from '../../lib/sandbox/index';
import { shellQuote } from '../../lib/sandbox/reachable';
import { makeWorkRoot, placeRuntimeUnderTmp, runsSandboxed, skipUnlessRoot, testConfig } from './helpers';

describe('a sandbox runtime in a folder the sandbox uid may not enter (mktemp -d, mode 700), worked on as root', () => {
  const placed = placeRuntimeUnderTmp();
  const work = makeWorkRoot();
  beforeAll(() => chmodSync(placed.root, 0o700));
  afterAll(() => (placed.cleanup(), work.cleanup()));

  it('runs sandboxed code: a kernel bwrap starts', async (ctx) => {
    skipUnlessRoot(ctx);
    const factory = await createSandboxFactory(
      { ...testConfig('bwrap'), forkServer: false },
      { warmModules: [], runtime: placed.runtime },
    );
    await runsSandboxed(factory, work.workDir);
  });

  it('runs sandboxed code: a kernel forked from the fork server', async (ctx) => {
    skipUnlessRoot(ctx);
    const factory = await createSandboxFactory(
      { ...testConfig('bwrap'), forkServer: true, workRoot: work.root },
      { warmModules: [], runtime: placed.runtime },
    );
    await runsSandboxed(factory, work.workDir);
  });

  it('an environment the sandbox uid may not read itself is still refused, with the fix', async (ctx) => {
    skipUnlessRoot(ctx);
    const venv = join(placed.root, "chèckout's one/.tools/sandbox-py");
    chmodSync(venv, 0o700);
    try {
      const factory = await createSandboxFactory(
        { ...testConfig('bwrap'), forkServer: false },
        { warmModules: [], runtime: placed.runtime },
      );
      const started = Date.now();
      const err = await factory.create({ workDir: work.workDir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxSetupError);
      const message = (err as Error).message;
      expect(message).toContain(`the sandbox's Python environment ${join(placed.root, 'via link/.tools/sandbox-py')}`);
      expect(message).toContain('has mode 700, so that uid may not read it. Fix: chmod -R a+rX');
      // Refused at once, not retried as a namespace hiccup (those retries go on for 5 s); load stretches "at once".
      expect(Date.now() - started).toBeLessThan(4_500);
    } finally {
      chmodSync(venv, 0o755);
    }
  });
});

describe('a sandbox runtime out of reach', () => {
  const placed = placeRuntimeUnderTmp();
  afterAll(() => placed.cleanup());

  it('a missing environment names its path and the set-up command', async () => {
    const runtime = { ...placed.runtime, python: join(placed.root, 'moved away/bin/python') };
    await expect(createSandboxFactory(testConfig('bwrap'), { runtime })).rejects.toThrow(
      `the sandbox's Python environment is missing: ${runtime.python} does not exist. Fix: run \`bash scripts/setup.sh\``,
    );
  });

  it('paths in fix commands are quoted for the shell (spaces, quotes)', () => {
    expect(shellQuote('/tmp/plain-dir')).toBe('/tmp/plain-dir');
    expect(shellQuote('/tmp/sb ci')).toBe("'/tmp/sb ci'");
    expect(shellQuote("/tmp/it's")).toBe(`'/tmp/it'\\''s'`);
  });
});

describe('work dirs in a folder the sandbox uid may not enter (mode 700), worked on as root', () => {
  const root = mkdtempSync(join(tmpdir(), 'sb closed '));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a kernel bwrap starts uses it', async (ctx) => {
    skipUnlessRoot(ctx);
    const factory = await createSandboxFactory({ ...testConfig('bwrap'), forkServer: false }, { warmModules: [] });
    await runsSandboxed(factory, join(root, 'work'));
  });

  it('the fork server uses a work root there', async (ctx) => {
    skipUnlessRoot(ctx);
    const factory = await createSandboxFactory(
      { ...testConfig('bwrap'), forkServer: true, workRoot: join(root, 'jobs') },
      { warmModules: [] },
    );
    await runsSandboxed(factory, join(root, 'jobs', 'task-1'));
  });
});
