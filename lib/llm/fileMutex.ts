import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

/** A holder that has kept the mutex this long has crashed (critical sections take milliseconds). */
const STALE_AFTER_MS = 10_000;

/**
 * A mutual-exclusion lock between processes on one host: whoever creates the lock file (O_EXCL) holds it.
 * A lock left by a dead process (same host, pid gone) or older than STALE_AFTER_MS is broken.
 */
export async function withFileMutex<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
  await acquire(lockPath);
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => undefined); // already released (or taken over as stale)
  }
}

async function acquire(lockPath: string): Promise<void> {
  const owner = JSON.stringify({ pid: process.pid, host: hostname() });
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(owner);
      await handle.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await isStale(lockPath)) await breakLock(lockPath);
    else await sleep(2 + Math.random() * 8);
  }
}

async function isStale(lockPath: string): Promise<boolean> {
  let text: string;
  let info: Stats;
  try {
    [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false; // released meanwhile: try to take it again
    throw err;
  }
  if (Date.now() - info.mtimeMs > STALE_AFTER_MS) return true;
  const owner = lockOwner(text);
  return owner?.host === hostname() && owner.pid !== undefined && !isProcessAlive(owner.pid);
}

/** What a holder writes into the lock file (another process, maybe another version: both fields optional). */
const lockOwnerSchema = z.looseObject({ pid: z.number().optional(), host: z.string().optional() });

/**
 * The owner a lock file names, or undefined when its text is not an owner. Not an error: the holder creates the file
 * and then writes its owner, so a half-written owner is an ordinary moment of a live lock; a lock that stays
 * unreadable is broken by age (STALE_AFTER_MS) like any other.
 */
export function lockOwner(text: string): z.output<typeof lockOwnerSchema> | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = lockOwnerSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Move the stale lock aside; if another process replaced it in the meantime we moved a live lock, so put it back
 * with link() (which fails if yet another holder exists, leaving that one in place).
 */
async function breakLock(lockPath: string): Promise<void> {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(lockPath, aside);
  } catch {
    return;
  }
  const stillStale = await isStale(aside);
  if (!stillStale) await link(aside, lockPath).catch(() => undefined); // another process took the lock meanwhile: it is theirs
  await unlink(aside).catch(() => undefined); // cleanup of the set-aside lock
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
