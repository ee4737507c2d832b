/** takeWorkDirOutput: only a regular file inside the work dir, with no other hard link, is copied out to the host. */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeWorkDirOutput } from '../../lib/sandbox/hostFiles';
import { makeWorkRoot } from './helpers';

describe('takeWorkDirOutput', () => {
  let work: ReturnType<typeof makeWorkRoot>;
  let target: string;
  beforeEach(() => {
    work = makeWorkRoot();
    target = join(work.root, 'outputs', 'out.xlsx');
  });
  afterEach(() => work.cleanup());

  const take = (rel: string) => takeWorkDirOutput(work.workDir, rel, target);
  const refusedWith = async (rel: string, why: RegExp) => {
    const taken = await take(rel);
    expect(taken.taken).toBe(false);
    expect(taken.taken ? '' : taken.problem).toMatch(why);
    expect(existsSync(target)).toBe(false);
  };

  it('copies a regular file (its folder made)', async () => {
    writeFileSync(join(work.workDir, 'out.xlsx'), 'PRODUCED');
    expect(await take('out.xlsx')).toEqual({ taken: true });
    expect(readFileSync(target, 'utf8')).toBe('PRODUCED');
  });

  it('reports no output when there is none', async () => {
    expect(await take('out.xlsx')).toEqual({ taken: false });
  });

  it('refuses a symlink to a host file, and a dangling one', async () => {
    symlinkSync(work.answerPath, join(work.workDir, 'out.xlsx'));
    await refusedWith('out.xlsx', /^the output out\.xlsx is a link; not taken$/);
    symlinkSync('/nonexistent', join(work.workDir, 'dangling.xlsx'));
    await refusedWith('dangling.xlsx', /dangling\.xlsx is a link/);
  });

  it('refuses a file reached through a linked folder', async () => {
    symlinkSync(work.root, join(work.workDir, 'up'));
    await refusedWith('up/1_999_answer.xlsx', /lies outside the work folder/);
  });

  it('refuses a hard link (another name for a file)', async () => {
    linkSync(work.answerPath, join(work.workDir, 'out.xlsx'));
    await refusedWith('out.xlsx', /has other hard links/);
  });

  it('refuses a FIFO without blocking, and a folder', async () => {
    execFileSync('mkfifo', [join(work.workDir, 'out.xlsx')]);
    await refusedWith('out.xlsx', /is not a regular file/);
    mkdirSync(join(work.workDir, 'dir.xlsx'));
    await refusedWith('dir.xlsx', /is not a regular file/);
  });

  it('refuses a path outside the work dir', async () => {
    await expect(take('../1_999_answer.xlsx')).rejects.toThrow(/outside the sandbox work dir/);
    expect(existsSync(target)).toBe(false);
  });
});
