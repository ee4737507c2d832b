import { spawn } from 'node:child_process';
import path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** bin/sheetbench as a user runs it, in `cwd` with `env`; resolves when it exits. */
export function runCli(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(path.join(REPO, 'bin/sheetbench'), args, { cwd: opts.cwd, env: opts.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
