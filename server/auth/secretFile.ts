import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A sign-in set-up problem that must stop the server from starting (it would otherwise be open or broken). */
export class AuthSetupError extends Error {
  override name = 'AuthSetupError';
}

/** A random secret of `bytes` bytes, URL-safe (24 bytes = 192 bits = 32 characters). */
export const randomSecret = (bytes = 24): string => randomBytes(bytes).toString('base64url');

/**
 * Reads a secret file, refusing one that other users could read (a token in a 0644 file is no token), or creates it
 * with mode 0600 in a 0700 folder. The file is reused on restart, so login links and sessions survive it.
 */
export async function readOrCreateSecret(
  file: string,
  create: () => string = randomSecret,
): Promise<{ value: string; created: boolean }> {
  const existing = await readSecret(file);
  if (existing !== undefined) return { value: existing, created: false };
  const value = create();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return { value, created: true };
  } catch (err) {
    // Another process created it between our read and write: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { value: (await readSecret(file))!, created: false };
    throw new AuthSetupError(`cannot create ${file}: ${(err as Error).message}`);
  }
}

/** Replaces a secret file atomically (mode 0600). */
export async function writeSecret(file: string, value: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${value}\n`, { mode: 0o600 });
  await rename(tmp, file);
}

async function readSecret(file: string): Promise<string | undefined> {
  const info = await stat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw new AuthSetupError(`cannot read ${file}: ${err.message}`);
  });
  if (!info) return undefined;
  checkPrivate(file, info.mode, info.uid);
  const value = (await readFile(file, 'utf8')).trim();
  if (!value) throw new AuthSetupError(`${file} is empty: delete it to get a new one, or write a secret into it`);
  return value;
}

/** Refuses a secret file that group or others may read or write, or that another user owns. */
export function checkPrivate(file: string, mode: number, uid: number): void {
  if (mode & 0o077) {
    throw new AuthSetupError(
      `${file} has mode ${(mode & 0o777).toString(8)}: other users could read it. Fix: chmod 600 '${file}'`,
    );
  }
  const me = process.getuid?.();
  if (me !== undefined && uid !== me)
    throw new AuthSetupError(
      `${file} belongs to uid ${uid}, not to this user (uid ${me}): the server only trusts its own secret files`,
    );
}
