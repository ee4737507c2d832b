/**
 * One shell command of the scaffold in a sandbox: shell_step.py (run by the sandbox's kernel) checks its syntax
 * (`bash -n`, as SWE-REX does before running), runs it with bash in the task's work folder under the time limit
 * (the whole process group killed at the limit), and returns the output's head, tail and length plus the shell's state
 * (working folder, exported variables) for the next step.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Sandbox } from '../../../lib/sandbox/types';
import type { ShellState } from './episodeFiles';

const PROGRAM = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'shell_step.py'), 'utf8');

const stepReplySchema = z.union([
  z.object({ syntaxError: z.literal(true), bashStdout: z.string(), bashStderr: z.string() }),
  z.object({
    syntaxError: z.literal(false),
    timedOut: z.boolean(),
    exitCode: z.number().nullable(),
    whole: z.string().nullable(),
    head: z.string(),
    tail: z.string(),
    length: z.number().int(),
    blank: z.boolean(),
    state: z.object({ cwd: z.string().optional(), exports: z.string().optional() }),
  }),
]);
export type ShellStepReply = z.infer<typeof stepReplySchema>;

export interface ShellStepParams {
  command: string;
  timeoutS: number;
  maxObservation: number;
  state: ShellState;
  /** Upstream tool scripts placed on PATH (name → text). */
  tools: Record<string, string>;
  /** The configuration's env_variables. */
  env: Record<string, string>;
}

/** Seconds the sandbox's own limit leaves beyond the command's, for start-up, the syntax check and reading back. */
const SANDBOX_GRACE_S = 30;

export class ShellStepError extends Error {
  override name = 'ShellStepError';
}

export async function runShellStep(sandbox: Sandbox, p: ShellStepParams): Promise<ShellStepReply> {
  const params = {
    command: p.command,
    timeoutS: p.timeoutS,
    maxObservation: p.maxObservation,
    cwd: p.state.cwd ?? sandbox.workDirInside,
    exports: p.state.exports ?? '',
    tools: p.tools,
    env: p.env,
    jobDir: sandbox.workDirInside,
  };
  const code = `PARAMS = ${JSON.stringify(JSON.stringify(params))}\n${PROGRAM}`;
  const result = await sandbox.execute(code, { timeoutMs: (p.timeoutS + SANDBOX_GRACE_S) * 1000 });
  const line = result.stdout.split('\n').find((l) => l.startsWith('SCAFFOLD_STEP '));
  if (!line)
    throw new ShellStepError(
      `the shell step gave no result${result.timedOut ? ' (the sandbox timed out)' : ''}: ${(result.error || result.stderr || result.stdout).slice(-2000)}`,
    );
  return stepReplySchema.parse(JSON.parse(line.slice('SCAFFOLD_STEP '.length)));
}
