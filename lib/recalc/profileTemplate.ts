/**
 * A LibreOffice profile after its first start (registry caches, extension and font caches, the graphics tests soffice
 * runs once per profile) is kept as a template in the user's cache folder, one per LibreOffice installation, and a new
 * instance's profile starts as a copy of it: a start on a fresh profile costs ≈ 0.9 CPU-s, on a copied one ≈ 0.25
 * (measured on LibreOffice 25.2, one conversion each). The template only saves work: an instance whose copied profile
 * does not start throws the template away and starts on a fresh profile, as without one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { userCacheDir } from '../runStore/fileStamp';

/** Files of a running or crashed instance that a copy must not carry. */
const NOT_COPIED = new Set(['.lock']);

export class ProfileTemplate {
  constructor(readonly dir: string) {}

  /** The template for the LibreOffice that `sofficePath` runs (its resolved program file, size and mtime). */
  static forSoffice(sofficePath: string, root = userCacheDir('libreoffice-profile')): ProfileTemplate {
    const program = resolveProgram(sofficePath);
    const s = program ? statSync(program, { throwIfNoEntry: false }) : undefined;
    const identity = `${program ?? sofficePath}\0${s?.size ?? ''}\0${s?.mtimeMs ?? ''}`;
    return new ProfileTemplate(path.join(root, createHash('sha256').update(identity).digest('hex').slice(0, 16)));
  }

  /** Copies the template into `profileDir` when there is a template and no profile there yet; true if it did. */
  async seed(profileDir: string): Promise<boolean> {
    if ((await namesIn(profileDir)).length || !(await namesIn(this.dir)).length) return false;
    try {
      await cp(this.dir, profileDir, { recursive: true, filter: (src) => !NOT_COPIED.has(path.basename(src)) });
      return true;
    } catch {
      await rm(profileDir, { recursive: true, force: true }); // a partial copy: the instance starts fresh
      return false;
    }
  }

  /** Keeps a copy of `profileDir` (of an instance that started and stopped cleanly) as the template, if none is kept. */
  async keep(profileDir: string): Promise<void> {
    if ((await namesIn(this.dir)).length) return;
    const staging = `${this.dir}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(path.dirname(this.dir), { recursive: true });
      await cp(profileDir, staging, { recursive: true, filter: (src) => !NOT_COPIED.has(path.basename(src)) });
      await rename(staging, this.dir); // fails when another instance kept one first: theirs is as good
    } catch {
      // best-effort: without a template the next instance starts on a fresh profile, as before
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  /** Throws the template away (an instance did not start on a copy of it). */
  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

async function namesIn(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []); // absent or unreadable: treated as empty
}

/** The program file a command name runs (searched on PATH when it holds no slash), symlinks resolved. */
function resolveProgram(command: string): string | undefined {
  const candidates = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '').split(':').map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      return realpathSync(candidate);
    } catch {
      // not there: the next PATH entry
    }
  }
  return undefined;
}
