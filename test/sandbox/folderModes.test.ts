/**
 * Which folders above a sandbox's work dir must be opened to other users (`chmod 0711`), checked as root and as
 * anyone else (run this file as another user too: see the report of issue 33 §7). Folders made mode 700 (umask 077,
 * `mktemp -d`):
 * - a conversation's workspace (the analysis conversations of `serve`/`ask` and of an analysis benchmark run, which
 *   make conversations/<id>/workspace with no chmod): the sandbox binds the workspace itself; folders above it that
 *   its uid may not enter are passed through (lib/sandbox/passThrough.ts), so they need no chmod;
 * - the root of the execution work dirs (activities/workDirs.ts), which the fork server binds as a whole and whose
 *   zygote, as the sandbox's uid, enters to reach each work dir inside: as root it must be enterable by that uid
 *   (executionWorkDir makes it 0711); a root left at 700 stops the fork server. Run as anyone else, the sandbox is
 *   the folder's owner and needs no chmod.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxFactory, type SandboxFactory } from '../../lib/sandbox/index';
import { conversationDir, conversationLayout } from '../../analysis/conversation/layout';
import { executionWorkDir } from '../../activities/workDirs';
import { configSchema } from '../../config/schema';
import { testConfig } from './helpers';

const asRoot = process.getuid?.() === 0;
const base = mkdtempSync(join(tmpdir(), 'sb-folder-modes-'));
chmodSync(base, 0o755);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A folder of mode 700, as `mktemp -d` or a umask of 077 makes it. */
function closedFolder(path: string): string {
  mkdirSync(path, { recursive: true });
  chmodSync(path, 0o700);
  return path;
}

const mode = (path: string) => statSync(path).mode & 0o777;

/** Code runs in a fresh sandbox on `workDir` and the host reads back the file it wrote there. */
async function runsIn(factory: SandboxFactory, workDir: string): Promise<void> {
  const sb = await factory.create({ workDir, warmModules: [] });
  try {
    const r = await sb.execute('open("/job/made.txt", "w").write("x")\nprint("ran")');
    expect(r.error).toBe('');
    expect(r.stdout).toBe('ran\n');
    expect((await sb.readFile('made.txt')).toString()).toBe('x');
    // As root the code ran as the sandbox's own uid (65534), to whom the folders above are closed.
    expect(statSync(join(workDir, 'made.txt')).uid).toBe(asRoot ? 65534 : process.getuid?.());
  } finally {
    await sb.dispose();
  }
}

describe(`folders of mode 700 above a sandbox work dir (${asRoot ? 'as root' : 'not root'})`, () => {
  it("a conversation's workspace: reached without any chmod of the folders above it", async () => {
    const root = closedFolder(join(base, 'runs', 'run-1', 'conversations'));
    chmodSync(join(base, 'runs'), 0o700);
    chmodSync(join(base, 'runs', 'run-1'), 0o700);
    const workspace = closedFolder(conversationLayout(conversationDir(root, 'c1')).workspace);
    chmodSync(join(root, 'c1'), 0o700);
    expect([join(base, 'runs'), root, join(root, 'c1'), workspace].map(mode)).toEqual([0o700, 0o700, 0o700, 0o700]);
    // As the conversations' sandbox is made: the default config (fork server on; the workspace is not in its root).
    const factory = await createSandboxFactory({ ...testConfig('bwrap') }, { warmModules: [] });
    await runsIn(factory, workspace);
  });

  it('the root of the execution work dirs: executionWorkDir opens it (0711), and the fork server works there', async () => {
    const workRoot = closedFolder(join(base, 'work root made by mktemp -d'));
    const config = configSchema.parse({ sandbox: { workRoot } });
    const workDir = await executionWorkDir(config, 'run-1', 'task-1', 'agent');
    expect(mode(workRoot)).toBe(0o711);
    const factory = await createSandboxFactory({ ...testConfig('bwrap'), forkServer: true, workRoot }, {});
    await runsIn(factory, workDir);
  });

  it('why executionWorkDir opens it: a root left at 700 stops the fork server as root only', async () => {
    const workRoot = closedFolder(join(base, 'work root left closed'));
    const factory = await createSandboxFactory({ ...testConfig('bwrap'), forkServer: true, workRoot }, {});
    if (!asRoot) return runsIn(factory, join(workRoot, 'task-1')); // the sandbox is the folder's owner
    const err = await runsIn(factory, join(workRoot, 'task-1')).catch((e: unknown) => e);
    expect(String(err)).toContain("bwrap: Can't chdir to /tmp/.jobs: Permission denied");
  });
});
