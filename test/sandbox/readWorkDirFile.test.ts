/** readWorkDirFile (Sandbox.readFile): a regular file inside the work dir; a planted FIFO is refused without blocking. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWorkDirFile } from '../../lib/sandbox/hostFiles';
import { makeWorkRoot } from './helpers';

describe('readWorkDirFile', () => {
  let work: ReturnType<typeof makeWorkRoot>;
  beforeEach(() => {
    work = makeWorkRoot();
  });
  afterEach(() => work.cleanup());

  it('reads a regular file, also through a link that stays inside', async () => {
    writeFileSync(join(work.workDir, 'out.txt'), 'ABC');
    symlinkSync('out.txt', join(work.workDir, 'alias.txt'));
    expect((await readWorkDirFile(work.workDir, 'out.txt')).toString()).toBe('ABC');
    expect((await readWorkDirFile(work.workDir, 'alias.txt')).toString()).toBe('ABC');
  });

  it('refuses a link to a host file', async () => {
    symlinkSync(work.answerPath, join(work.workDir, 'out.txt'));
    await expect(readWorkDirFile(work.workDir, 'out.txt')).rejects.toThrow(/resolves outside the sandbox work dir/);
  });

  it('refuses a FIFO without waiting for a writer, and a folder', async () => {
    execFileSync('mkfifo', [join(work.workDir, 'out.txt')]);
    await expect(readWorkDirFile(work.workDir, 'out.txt')).rejects.toThrow(/out\.txt is not a regular file/);
    mkdirSync(join(work.workDir, 'dir'));
    await expect(readWorkDirFile(work.workDir, 'dir')).rejects.toThrow(/dir is not a regular file/);
  });
});
