/**
 * The sandbox wherever its files are: a runtime the sandbox's uid cannot reach, or one that is missing, is refused at
 * once with a message naming the path and the command that fixes it (before, bwrap failed with "Can't find source
 * path … Permission denied" on the first execution). The attack suite runs on a runtime under a /tmp path with a space.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxFactory, SandboxSetupError } from '../../lib/sandbox/index';
import { shellQuote } from '../../lib/sandbox/reachable';
import { makeWorkRoot, placeRuntimeUnderTmp, testConfig } from './helpers';

const asRoot = process.getuid?.() === 0;

describe('a sandbox runtime out of reach', () => {
  const placed = placeRuntimeUnderTmp();
  const work = makeWorkRoot();
  afterAll(() => (placed.cleanup(), work.cleanup()));

  it.runIf(asRoot)(
    'a checkout folder others may not enter (mktemp -d, mode 700) is named with the chmod that fixes it',
    async () => {
      chmodSync(placed.root, 0o700);
      try {
        const factory = await createSandboxFactory(
          { ...testConfig('bwrap'), forkServer: false },
          { warmModules: [], runtime: placed.runtime },
        );
        const started = Date.now();
        const err = await factory.create({ workDir: work.workDir }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(SandboxSetupError);
        const message = (err as Error).message;
        expect(message).toContain(
          `the sandbox's Python environment ${join(placed.root, 'via link/.tools/sandbox-py')}`,
        );
        expect(message).toContain(`${placed.root} has mode 700`);
        expect(message).toContain(`Fix: chmod o+x ${shellQuote(placed.root)}`);
        expect(Date.now() - started).toBeLessThan(2000);
      } finally {
        chmodSync(placed.root, 0o755);
      }
    },
  );

  it.runIf(asRoot)('the fork server refuses the same way', async () => {
    chmodSync(placed.root, 0o700);
    try {
      const factory = await createSandboxFactory(
        { ...testConfig('bwrap'), forkServer: true, workRoot: work.root },
        { warmModules: [], runtime: placed.runtime },
      );
      await expect(factory.create({ workDir: work.workDir })).rejects.toThrow(/has mode 700.*Fix: chmod o\+x/);
    } finally {
      chmodSync(placed.root, 0o755);
    }
  });

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

describe('work dirs out of reach', () => {
  it.runIf(asRoot)('a work dir below a folder the sandbox uid may not enter is refused with the fix', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sb closed '));
    try {
      const factory = await createSandboxFactory({ ...testConfig('bwrap'), forkServer: false }, { warmModules: [] });
      await expect(factory.create({ workDir: join(root, 'work') })).rejects.toThrow(
        `the sandbox work dir ${join(root, 'work')} is out of the sandbox's reach`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
