import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sandboxPythonPath } from '../../lib/sandbox/paths';

export interface SandboxEnvironment {
  python?: string;
  packages?: Record<string, string>;
}

const SCRIPT = `import json, sys, importlib.metadata as m
out = {}
for name in sys.argv[1:]:
    try: out[name] = m.version(name)
    except Exception: pass
print(json.dumps({"python": sys.version.split()[0], "packages": out}))`;

let cached: Promise<SandboxEnvironment> | undefined;

/** The sandbox interpreter's version and the allowed packages' versions (asked once per worker; {} when unknown). */
export function sandboxEnvironment(packages: string[]): Promise<SandboxEnvironment> {
  cached ??= promisify(execFile)(sandboxPythonPath(), ['-c', SCRIPT, ...packages], { timeout: 30_000 })
    .then(({ stdout }) => JSON.parse(stdout) as SandboxEnvironment)
    .catch(() => ({}));
  return cached;
}
