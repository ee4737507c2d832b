/**
 * As root, with a TMPDIR the sandbox's uid may not enter (a root shell's `mktemp -d`, pam_tmpdir's /tmp/user/0: mode
 * 700): the default work root, the fork server's FIFO folder and a checkout placed there are all behind that folder.
 * They are passed through (lib/sandbox/passThrough.ts) onto stand-ins the uid can reach, which must not themselves be
 * made under that TMPDIR (before, bwrap failed with "Can't find source path <TMPDIR>/sheetbench-binds-…/dir-0:
 * Permission denied"). Its own file: the stand-ins' folder is chosen once per process, and here TMPDIR is closed first.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxFactory, SandboxSetupError } from '../../lib/sandbox/index';
import { standInParentFor } from '../../lib/sandbox/passThrough';
import { placeRuntimeUnderTmp, runsSandboxed, skipUnlessRoot, testConfig } from './helpers';

/** A uid other than the one running the tests (whose own mode-700 folder it may enter): 65534 as root. */
const OTHER_ID = process.getuid?.() === 65534 ? 65533 : 65534;
const OTHER = { uid: OTHER_ID, gid: OTHER_ID };

const openTmp = tmpdir();
const closedTmp = mkdtempSync(join(openTmp, 'sb closed tmpdir ')); // mode 700, root's
const savedTmpdir = process.env.TMPDIR;
process.env.TMPDIR = closedTmp;
const placed = placeRuntimeUnderTmp(); // under the closed TMPDIR
afterAll(() => {
  placed.cleanup();
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(closedTmp, { recursive: true, force: true });
});

describe('a TMPDIR the sandbox uid may not enter (mode 700), worked on as root', () => {
  it('the test is set up as described: tmpdir() is the closed folder', () => {
    expect(tmpdir()).toBe(closedTmp);
  });

  it('a kernel bwrap starts runs code, checkout and work dir both under that TMPDIR', async (ctx) => {
    skipUnlessRoot(ctx);
    const factory = await createSandboxFactory(
      { ...testConfig('bwrap'), forkServer: false },
      { warmModules: [], runtime: placed.runtime },
    );
    await runsSandboxed(factory, join(tmpdir(), 'sheetbench-work', 'bwrap-kernel'));
  });

  it('the fork server (default work root and FIFO folder under that TMPDIR) runs Python and node', async (ctx) => {
    skipUnlessRoot(ctx);
    const factory = await createSandboxFactory(
      { ...testConfig('bwrap'), forkServer: true },
      { warmModules: [], runtime: placed.runtime },
    );
    const jobs = join(tmpdir(), 'sheetbench-work');
    await runsSandboxed(factory, join(jobs, 'forked-kernel'));
    const node = await factory.create({ workDir: join(jobs, 'node-job'), language: 'node' });
    try {
      const r = await node.execute('require("fs").writeFileSync("/job/n.txt", "y"); console.log(process.getuid())');
      expect(r.error).toBe('');
      expect(r.stdout).toBe('1000\n');
      expect((await node.readFile('n.txt')).toString()).toBe('y');
    } finally {
      await node.dispose();
    }
  });
});

describe('where the stand-ins go', () => {
  it('the first folder the uid may enter, skipping closed ones', async () => {
    expect(await standInParentFor([closedTmp, openTmp], OTHER)).toBe(openTmp);
  });

  it('none it may enter: refused, naming each folder, its mode and the fix', async () => {
    const inside = join(closedTmp, 'open inside');
    mkdirSync(inside, { mode: 0o755, recursive: true });
    const err = await standInParentFor([closedTmp, inside, join(closedTmp, 'missing')], OTHER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxSetupError);
    const message = (err as Error).message;
    expect(message).toContain(`${closedTmp} has mode 700`);
    expect(message).toContain(`may enter none of ${closedTmp}, ${inside}, ${join(closedTmp, 'missing')}`);
    expect(message).toContain("Fix: set TMPDIR to a folder every user may enter (TMPDIR=/tmp), or chmod o+x '");
  });
});
