import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fail, ok, warn, type Check } from './check';

const run = promisify(execFile);

/** Node and Debian's python3 (the one LibreOffice's UNO bridge and set-up use; never pyenv's). */
export function versionChecks(opts: { nodeVersion?: string; python?: string } = {}): Check[] {
  const nodeVersion = opts.nodeVersion ?? process.version;
  const python = opts.python ?? '/usr/bin/python3';
  return [
    {
      name: 'node',
      run: async () => {
        const [major, minor] = nodeVersion.replace(/^v/, '').split('.').map(Number);
        if (major > 20 || (major === 20 && minor >= 3)) return ok(`node ${nodeVersion} (${process.execPath})`);
        return fail(
          `node ${nodeVersion} is older than 20.3 (the Temporal SDK needs it)`,
          'install Node 20 (Debian: apt-get install nodejs from NodeSource, or nvm install 20)',
        );
      },
    },
    {
      name: 'python',
      run: async () => {
        if (!existsSync(python)) return fail(`${python} not found`, 'sudo apt-get install python3 python3-venv');
        const { stdout } = await run(python, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])']);
        const [major, minor] = stdout.trim().split('.').map(Number);
        if (major === 3 && minor >= 10) return ok(`${python} ${stdout.trim()}`);
        return fail(
          `${python} is Python ${stdout.trim()} (3.10 or newer is needed)`,
          'sudo apt-get install python3 (Debian 12 has 3.11)',
        );
      },
    },
  ];
}

const MiB = 1024 * 1024;

/** Free space where the Temporal state and conversations live; `fsStat` can be replaced (tests simulate a full disk). */
export function diskCheck(
  dirs: string[],
  opts: {
    fsStat?: (dir: string) => Promise<{ bavail: number; bsize: number }>;
    warnMiB?: number;
    failMiB?: number;
  } = {},
): Check {
  const fsStat = opts.fsStat ?? ((dir: string) => statfs(dir));
  const [warnMiB, failMiB] = [opts.warnMiB ?? 1024, opts.failMiB ?? 200];
  return {
    name: 'disk space',
    run: async () => {
      const readings = await Promise.all(
        dirs.map(async (dir) => {
          const where = nearestExisting(dir);
          const s = await fsStat(where);
          return { dir: path.resolve(dir), free: s.bavail * s.bsize };
        }),
      );
      const least = readings.sort((a, b) => a.free - b.free)[0];
      const detail = `${formatBytes(least.free)} free for the state folder ${least.dir}`;
      const fix = `free space on that file system, or move the state: set temporal.stateDir and conversation.dir in sheetbench.config.json to a folder with room (at least ${failMiB} MB)`;
      if (least.free < failMiB * MiB)
        return fail(`${detail} (Temporal's database and conversations need room to grow)`, fix);
      if (least.free < warnMiB * MiB) return warn(`${detail}: a long run may fill it`, fix);
      return ok(detail);
    },
  };
}

/** Can this user create files where runs are written? A probe file is made and removed. */
export function runFolderCheck(runsDir: string): Check {
  return {
    name: 'run folder',
    run: async () => {
      const probe = path.join(runsDir, `.doctor-${process.pid}`);
      try {
        await mkdir(runsDir, { recursive: true });
        await writeFile(probe, 'probe');
        return ok(`${runsDir} is writable`);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        const fix =
          code === 'ENOSPC'
            ? `free space on the file system of ${runsDir}, or give runs another folder: sheetbench run --out DIR`
            : `chown -R "$(id -un)" ${JSON.stringify(runsDir)} (or give runs another folder: sheetbench run --out DIR)`;
        return fail(`cannot write in ${runsDir}: ${code}`, fix);
      } finally {
        await rm(probe, { force: true }).catch(() => undefined); // cleanup of the probe file
      }
    },
  };
}

function nearestExisting(dir: string): string {
  let p = path.resolve(dir);
  while (!existsSync(p) && path.dirname(p) !== p) p = path.dirname(p);
  return p;
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= MiB) return `${Math.round(n / MiB)} MB`;
  return `${Math.round(n / 1024)} KB`;
}
