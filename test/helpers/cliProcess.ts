import { spawn } from 'node:child_process';
import path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/sheetbench as a user would, collecting its output and exit code. */
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

/** A bin/sheetbench run a test kills: its stderr so far, its exit, kill -9 of its whole process group. */
export interface KillableCli {
  exited: Promise<number | null>;
  stderr(): string;
  kill9(): void;
}

/**
 * `bin/sheetbench ARGS` in a process group of its own, so that kill -9 takes its in-process worker (its sandboxes and
 * LibreOffice) with it, as a user's kill of the command would.
 */
export function spawnKillableCli(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): KillableCli {
  const child = spawn(path.join(REPO, 'bin/sheetbench'), args, { cwd: opts.cwd, env: opts.env, detached: true });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { exited, stderr: () => stderr, kill9: () => process.kill(-child.pid!, 'SIGKILL') };
}
