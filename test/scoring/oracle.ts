/** Runs the Python oracle (official evaluation rules on real openpyxl 3.1.5) in one process per batch. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const SANDBOX_PYTHON = path.resolve('.tools/sandbox-py/bin/python');
const ORACLE = path.resolve('test/scoring/oracle/official_eval.py');

export const hasSandboxPython = existsSync(SANDBOX_PYTHON);

export function runPython(args: string[], input: string, env: Record<string, string> = {}): string {
  const res = spawnSync(SANDBOX_PYTHON, args, {
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  if (res.status !== 0) throw new Error(`python ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}

export interface OracleJob {
  answer: string;
  output: string;
  answer_position: string;
  instruction_type?: string;
}

export function oracleScore(jobs: OracleJob[], colour = false): { pass: boolean; msg: string }[] {
  return JSON.parse(runPython([ORACLE, 'score'], JSON.stringify(jobs), colour ? { ORACLE_COLOUR: '1' } : {}));
}

export function oracleClassify(positions: string[]): string[] {
  return JSON.parse(runPython([ORACLE, 'parse'], JSON.stringify(positions)));
}
