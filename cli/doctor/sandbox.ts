import { z } from 'zod';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readlink, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bwrapArgs, BWRAP } from '../../lib/sandbox/bwrap';
import {
  createSandboxFactory,
  defaultRuntime,
  SandboxSetupError,
  SandboxUnavailableError,
  type SandboxRuntime,
} from '../../lib/sandbox/index';
import { sandboxHostUser } from '../../lib/sandbox/processLauncher';
import { REPO_ROOT } from '../../config/paths';

/** What the version probe prints: each pinned package's installed version, or null when it is missing. */
const installedVersionsSchema = z.record(z.string(), z.string().nullable());

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON: the schema check above reports the line
  }
}
import { fail, ok, splitFix, type Check } from './check';

const NAMESPACES = ['net', 'pid', 'mnt', 'user', 'ipc', 'uts'];
const INSTALL_BWRAP = 'sudo apt-get install bubblewrap (or bash scripts/setup.sh)';

/** bubblewrap present and really isolating: a hardened sandbox's namespaces differ from this process's, one by one. */
export function bubblewrapCheck(opts: { bwrap?: string } = {}): Check {
  const bwrap = opts.bwrap ?? BWRAP;
  return {
    name: 'bubblewrap',
    run: async () => {
      if (!existsSync(bwrap))
        return fail(`bwrap not found at ${bwrap}: generated code cannot run isolated`, INSTALL_BWRAP);
      const owner = sandboxHostUser();
      const args = bwrapArgs({
        workDir: tmpdir(),
        workDirInside: '/job',
        readOnly: [],
        tmpMiB: 1,
        env: { PATH: '/usr/bin' },
      });
      const inside = await new Promise<{ out: string; err: string; code: number | null }>((resolve) => {
        execFile(
          bwrap,
          [...args, '/usr/bin/readlink', ...NAMESPACES.map((ns) => `/proc/self/ns/${ns}`)],
          { timeout: 10_000, ...(owner ?? {}) },
          (error, out, err) =>
            resolve({ out: String(out), err: String(err), code: error ? ((error as { code?: number }).code ?? 1) : 0 }),
        );
      });
      if (inside.code !== 0) {
        return fail(
          `bwrap cannot start a sandbox here: ${inside.err.trim() || `exit ${inside.code}`}`,
          /user namespace|setting up uid map|Operation not permitted/i.test(inside.err)
            ? 'allow unprivileged user namespaces: sudo sysctl -w kernel.unprivileged_userns_clone=1 user.max_user_namespaces=15000'
            : INSTALL_BWRAP,
        );
      }
      const theirs = inside.out.trim().split('\n');
      const ours = await Promise.all(NAMESPACES.map((ns) => readlink(`/proc/self/ns/${ns}`)));
      const shared = NAMESPACES.filter((ns, i) => theirs[i] === ours[i]);
      if (shared.length)
        return fail(
          `a bwrap sandbox shares the ${shared.join(', ')} namespace(s) with this process: it does not isolate`,
          INSTALL_BWRAP,
        );
      return ok(`${bwrap}: own ${NAMESPACES.join(', ')} namespaces${owner ? `, run as uid ${owner.uid}` : ''}`);
    },
  };
}

/** The pinned packages of lib/sandbox/requirements.txt, as `name → version`. */
export function pinnedPackages(file = path.join(REPO_ROOT, 'lib/sandbox/requirements.txt')): Record<string, string> {
  const pins = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => /^([A-Za-z0-9_.-]+)==([^\s#]+)/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null);
  return Object.fromEntries(pins.map((m) => [m[1], m[2]]));
}

/** The sandbox's own environment, run in a real sandbox: it imports pandas and openpyxl, and every pin has its version. */
export function sandboxEnvironmentCheck(opts: { runtime?: SandboxRuntime } = {}): Check {
  return {
    name: 'sandbox environment',
    run: async () => {
      const runtime = opts.runtime ?? defaultRuntime();
      const pins = pinnedPackages();
      const work = await mkdtemp(path.join(tmpdir(), 'sheetbench-doctor-'));
      await chmod(work, 0o755);
      try {
        const factory = await createSandboxFactory(
          {
            backend: 'bwrap',
            executionTimeoutMs: 60_000,
            memoryMiB: 2048,
            maxProcesses: 64,
            dockerImage: '',
            forkServer: false,
          },
          { warmModules: [], runtime },
        );
        const sandbox = await factory.create({ workDir: path.join(work, 'job') });
        try {
          const code = `import json, importlib.metadata as md\nimport pandas, openpyxl\nv = {}\nfor n in ${JSON.stringify(Object.keys(pins))}:\n    try: v[n] = md.version(n)\n    except md.PackageNotFoundError: v[n] = None\nprint(json.dumps(v))`;
          const result = await sandbox.execute(code, { timeoutMs: 60_000 });
          if (result.error)
            return fail(
              `the sandbox's Python cannot import its packages: ${result.error.trim().split('\n').pop()}`,
              rebuildCommand(runtime),
            );
          const last = result.stdout.trim().split('\n').pop() ?? '';
          const parsed = installedVersionsSchema.safeParse(safeJson(last));
          if (!parsed.success)
            return fail(
              `the sandbox's Python printed no package list (last line: ${JSON.stringify(last.slice(0, 200))})`,
              rebuildCommand(runtime),
            );
          const found = parsed.data;
          const wrong = Object.entries(pins)
            .filter(([name, version]) => found[name] !== version)
            .map(([name, version]) => `${name} ${found[name] ?? 'missing'} (pinned ${version})`);
          if (wrong.length)
            return fail(
              `the sandbox's environment differs from lib/sandbox/requirements.txt: ${wrong.join(', ')}`,
              rebuildCommand(runtime),
            );
          return ok(
            `${Object.keys(pins).length} pinned packages import in a sandbox (pandas ${found.pandas}, openpyxl ${found.openpyxl}); environment ${path.dirname(path.dirname(runtime.python))}`,
          );
        } finally {
          await sandbox.dispose();
        }
      } catch (err) {
        const { detail, fix } = splitFix((err as Error).message);
        // No sandbox at all: the environment cannot be tried, and it is bubblewrap that is missing, not the environment.
        if (err instanceof SandboxUnavailableError && !(err instanceof SandboxSetupError))
          return fail(`cannot be tried without a sandbox: ${detail}`, INSTALL_BWRAP);
        return fail(detail, fix ?? rebuildCommand(runtime));
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}

function rebuildCommand(runtime: SandboxRuntime): string {
  const venv = path.dirname(path.dirname(runtime.python));
  return venv === path.join(REPO_ROOT, '.tools/sandbox-py')
    ? 'rm -rf .tools/sandbox-py && bash scripts/setup.sh'
    : `rebuild ${venv} from lib/sandbox/requirements.txt (or unset SHEETBENCH_SANDBOX_PYTHON)`;
}
