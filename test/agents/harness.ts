import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedRequest, ScriptRule, RequestLogEntry } from '../../lib/scriptedLlm';
import type { RunProgress } from '../../contracts/run';
import { startBenchmarkRun, startInProcessWorkers, readTaskResult, type E2EEnv } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';

export { DEV20 };

/** The model paths a prompt gives (official `### field` sections, or the SheetCopilot summary lines). */
export function pathsIn(request: ScriptedRequest): { input: string; output: string } {
  const first = request.messages[0]?.content ?? '';
  const input = /### spreadsheet_path\n(.+)\n/.exec(first)?.[1] ?? /Input file: (.+)\n/.exec(first)?.[1];
  const output = /### output_path\n(.+)\n/.exec(first)?.[1] ?? /Output file: (.+)\n/.exec(first)?.[1];
  if (!input || !output) throw new Error('prompt names no input/output path');
  return { input, output };
}

export function python(code: string, prose = 'Here is the code.'): string {
  return `${prose}\n\`\`\`python\n${code}\n\`\`\`\n`;
}

/** Rules answering by the `X-Sheetbench-Call` key (`<run>/<task>/<conversation>/<turn>` or `…/copilot/<stage>`). */
export function byCallKey(
  task: string,
  replies: Record<string, ScriptRule['reply']>,
  extra: Partial<ScriptRule> = {},
): ScriptRule[] {
  return Object.entries(replies).map(([suffix, reply]) => ({
    name: `${task}:${suffix}`,
    match: { callKey: new RegExp(`/${escape(task)}/${escape(suffix)}(#.*)?$`) },
    reply,
    ...extra,
  }));
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export interface FinishedRun {
  runDir: string;
  runId: string;
  progress: RunProgress;
}

/** A run of `agent` on dev20 tasks, driven to its end by workers that stay up for the whole test file. */
export async function runAgentOn(env: E2EEnv, agent: string, tasks: string[]): Promise<FinishedRun> {
  const run = await startBenchmarkRun(env, { dataset: DEV20, agent, tasks });
  const progress = (await run.handle.result()) as RunProgress;
  return { runDir: run.runDir, runId: run.runId, progress };
}

export { startInProcessWorkers, readTaskResult };

export function requestsOf(log: RequestLogEntry[], runId: string, taskId: string): RequestLogEntry[] {
  return log.filter((e) => e.callKey?.startsWith(`${runId}/${taskId}/`));
}

export function stageFiles(runDir: string, taskId: string): string[] {
  const dir = path.join(runDir, 'tasks', taskId, 'stages');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

export function readStageFile<T = Record<string, unknown>>(runDir: string, taskId: string, file: string): T {
  return JSON.parse(readFileSync(path.join(runDir, 'tasks', taskId, 'stages', file), 'utf8')) as T;
}

export function executionLabels(runDir: string, taskId: string): string[] {
  const dir = path.join(runDir, 'tasks', taskId, 'executions');
  return existsSync(dir)
    ? readdirSync(dir)
        .map((f) => f.replace(/\.json$/, ''))
        .sort()
    : [];
}

export function outputsOf(runDir: string, taskId: string): number[] {
  const outputs = path.join(runDir, 'outputs');
  const [dir] = readdirSync(outputs);
  return [1, 2, 3].filter((n) => existsSync(path.join(outputs, dir, `${n}_${taskId}_output.xlsx`)));
}
