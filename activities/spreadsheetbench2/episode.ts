/**
 * The paper's scaffold, one activity per model call and per shell command: each reads the episode's records from the
 * run folder (benchmarks/spreadsheetbench2/scaffold/episodeFiles.ts) and writes its own, so a step retried after a
 * crash rebuilds the same conversation; a model call is answered from the run's response cache when it was paid for
 * before, and a shell step that finished is never run again (its record is returned).
 */
import { copyFile, lstat, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure, cancellationSignal } from '@temporalio/activity';
import { readJsonIfPresent, readRequiredJson } from '../../lib/json';
import { cachedComplete, ResponseCache, TextActionProvider } from '../../lib/llm';
import type { ChatMessage, ChatRequest } from '../../lib/llm/types';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { takeWorkDirOutput } from '../../lib/sandbox/hostFiles';
import { DatasetError } from '../../lib/runStore/taskRecord';
import { FailureTypes } from '../../lib/failureTypes';
import { v2Run, type V2Run } from '../../benchmarks/spreadsheetbench2/run/files';
import type { V2DatasetCopies } from '../../benchmarks/spreadsheetbench2/run/datasetCopies';
import { v2TaskProblems, type V2Task } from '../../benchmarks/spreadsheetbench2/dataset';
import { scaffoldConfigFor, upstreamToolScripts } from '../../benchmarks/spreadsheetbench2/scaffold/config';
import {
  scaffoldPaths,
  replyRecordSchema,
  shellRecordSchema,
  turnRecordSchema,
  type NewReplyRecord,
  type ReplyRecord,
  type ShellRecord,
  type ShellState,
} from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import { MAX_REQUERIES, type EpisodeLimits } from '../../benchmarks/spreadsheetbench2/scaffold/episode';
import {
  instanceMessage,
  observationMessage,
  systemMessage,
  timeoutMessage,
} from '../../benchmarks/spreadsheetbench2/scaffold/prompts';
import {
  formatErrorMessage,
  parseAction,
  SCAFFOLD_TOOLS,
  shellCheckErrorMessage,
  SUBMISSION_TOKEN,
} from '../../benchmarks/spreadsheetbench2/scaffold/swePorts';
import { runShellStep } from '../../benchmarks/spreadsheetbench2/scaffold/shellStep';
import { costOfResponse, providerFor, underRetryPolicy } from '../llm/modelCall';
import { payerOfThisActivity } from '../llm/payer';
import { withHeartbeat } from '../heartbeat';
import { executionWorkDir } from '../workDirs';
import type { WorkerDeps } from '../deps';

/** Inside the work folder: the input under the dataset's relative path, and the output folder. */
const INPUT_DIR = 'spreadsheet_data';
const OUTPUT_DIR = 'spreadsheet_output';

export interface ScaffoldStepInput {
  runDir: string;
  taskId: string;
  turn: number;
  attempt: number;
}

export interface ScaffoldCallResult {
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  cached: boolean;
  /** The reply asks for a command that can run (else it is requeried). */
  runnable: boolean;
}

export const outputName = (task: V2Task) => `${String(task.id)}_output.xlsx`;
/** The chart image an agent may leave beside its output workbook (the release's `<id>_output.png`). */
export const outputImageName = (task: V2Task) => `${String(task.id)}_output.png`;

/** The task's persistent work folder (the sandbox's /job, from step to step). */
export async function episodeWorkDir(deps: WorkerDeps, ctx: V2Run, taskId: string): Promise<string> {
  return executionWorkDir(deps.config, ctx.manifest.runId, taskId, 'scaffold');
}

/** The input and output paths as the shell sees them. */
function taskPaths(task: V2Task, inside: string) {
  return {
    spreadsheet_path: path.posix.join(inside, INPUT_DIR, task.spreadsheet_path),
    output_path: path.posix.join(inside, OUTPUT_DIR, outputName(task)),
  };
}

/** The limits the workflow applies, from the task's configuration. */
export function limitsOf(task: V2Task): EpisodeLimits {
  const { config } = scaffoldConfigFor(task.category);
  return {
    maxModelCalls: config.per_instance_call_limit,
    maxRequeries: MAX_REQUERIES,
    maxConsecutiveTimeouts: config.tools.max_consecutive_execution_timeouts,
  };
}

/**
 * Fresh work folder with a copy of the task's input only (the answer never enters it): its recalculated copy when the
 * run made one (`copies`), else the dataset's file; idempotent before turn 0. A dataset problem of the task (a missing
 * input or answer, an answer position naming no sheet of the answer) fails it here, before any model call.
 */
export async function prepareEpisode(
  deps: WorkerDeps,
  runDir: string,
  taskId: string,
  copies?: V2DatasetCopies,
): Promise<EpisodeLimits> {
  const ctx = await v2Run(runDir);
  const task = ctx.task(taskId);
  const input = path.join(task.categoryDir, task.spreadsheet_path);
  const inDir = path.resolve(task.categoryDir);
  if (!path.resolve(input).startsWith(inDir + path.sep))
    throw nonRetryable(`task ${taskId}: spreadsheet_path ${task.spreadsheet_path} leaves its category folder`);
  const st = await lstat(input).catch(() => undefined);
  if (!st?.isFile()) throw nonRetryable(`task ${taskId}: input file ${task.spreadsheet_path} is missing`);
  // A task whose answer is missing or names no sheet it has scores 0 whatever its output: no model call is spent on it.
  const problems = await v2TaskProblems(task);
  if (problems.length) throw ApplicationFailure.nonRetryable(problems.join('; '), FailureTypes.DatasetError);
  const workDir = await episodeWorkDir(deps, ctx, taskId);
  await rm(workDir, { recursive: true, force: true });
  const target = path.join(workDir, INPUT_DIR, task.spreadsheet_path);
  await mkdir(path.dirname(target), { recursive: true });
  await mkdir(path.join(workDir, OUTPUT_DIR), { recursive: true });
  await copyFile(copies?.input.recalculated ? ctx.files.recalculatedPath(taskId, 'input') : input, target);
  await mkdir(scaffoldPaths.dir(ctx.layout.taskDir(taskId)), { recursive: true });
  return limitsOf(task);
}

/** The messages of a turn's attempt: system, instance, the turns before, and the last failed attempt's requery. */
async function messagesFor(ctx: V2Run, task: V2Task, s: ScaffoldStepInput, inside: string): Promise<ChatMessage[]> {
  const { config } = scaffoldConfigFor(task.category);
  const taskDir = ctx.layout.taskDir(s.taskId);
  const messages: ChatMessage[] = [
    { role: 'system', content: systemMessage(config) },
    { role: 'user', content: instanceMessage(config, { instruction: task.instruction, ...taskPaths(task, inside) }) },
  ];
  for (let t = 0; t < s.turn; t++) {
    const turn = await readRequiredJson(scaffoldPaths.turn(taskDir, t), turnRecordSchema);
    messages.push(turn.assistant, turn.tool);
  }
  if (s.attempt > 0) {
    const previous = await readRequiredJson(scaffoldPaths.reply(taskDir, s.turn, s.attempt - 1), replyRecordSchema);
    const shell = await readJsonIfPresent(scaffoldPaths.shell(taskDir, s.turn, s.attempt - 1), shellRecordSchema);
    const requery = previous.requery ?? shell?.requery;
    if (requery === undefined)
      throw new Error(`task ${s.taskId}: turn ${s.turn} attempt ${s.attempt - 1} has no requery message`);
    // SWE-agent's requery: the failed output as a plain assistant message, then the error (neither kept afterwards).
    messages.push({ role: 'assistant', content: previous.message.content }, { role: 'user', content: requery });
  }
  return messages;
}

/** One model call of the episode (function calling; the text action protocol for the embedded models). */
export async function scaffoldModelCall(
  deps: WorkerDeps,
  s: ScaffoldStepInput & { callKey: string },
): Promise<ScaffoldCallResult> {
  const started = Date.now();
  const ctx = await v2Run(s.runDir);
  const task = ctx.task(s.taskId);
  const messages = await messagesFor(ctx, task, s, await workDirInside(deps, ctx, s.taskId));
  // SWE-agent's model defaults: temperature 0.0, top_p 1.0.
  const request: ChatRequest = {
    model: ctx.manifest.llm.model,
    temperature: 0,
    topP: 1,
    messages,
    tools: SCAFFOLD_TOOLS,
  };
  const base = providerFor(deps, { ...deps.config.llm, ...ctx.manifest.llm, apiKey: deps.config.llm.apiKey });
  const provider = ctx.manifest.llm.provider === 'local' ? new TextActionProvider(base) : base;
  const cache = new ResponseCache(ctx.layout.llmCacheDir);
  const response = await underRetryPolicy(deps.config.llm, () =>
    cachedComplete(provider, cache, request, {
      callKey: s.callKey,
      signal: cancellationSignal(),
      payer: payerOfThisActivity(),
    }),
  );
  const costUsd = costOfResponse(response, ctx.manifest.llm.model, deps);
  const parsed = parseAction(response);
  const message: ChatMessage = {
    role: 'assistant',
    content: response.text,
    ...(response.toolCalls?.length ? { toolCalls: response.toolCalls } : {}),
    ...(response.reasoning ? { reasoning: response.reasoning } : {}),
  };
  const record: NewReplyRecord = {
    turn: s.turn,
    attempt: s.attempt,
    callKey: s.callKey,
    message,
    ...(parsed.ok
      ? { action: parsed.action, toolCallId: parsed.toolCallId }
      : {
          formatError: { code: parsed.code, message: parsed.message },
          requery: formatErrorMessage(parsed.code, parsed.message),
        }),
    usage: response.usage,
    costUsd,
    wallMs: Date.now() - started,
  };
  await writeJsonAtomic(scaffoldPaths.reply(ctx.layout.taskDir(s.taskId), s.turn, s.attempt), record);
  return { usage: response.usage, costUsd, cached: response.cached, runnable: parsed.ok };
}

/** Where the sandbox shows the work folder: /job (bwrap, fork server, Docker); the host folder itself without isolation. */
async function workDirInside(deps: WorkerDeps, ctx: V2Run, taskId: string): Promise<string> {
  const factory = await deps.sandboxFactory();
  return factory.backend === 'unsafe' ? episodeWorkDir(deps, ctx, taskId) : '/job';
}

/** The shell state after the last turn that ran. */
async function stateBefore(taskDir: string, turn: number): Promise<ShellState> {
  if (turn === 0) return {};
  return (await readRequiredJson(scaffoldPaths.turn(taskDir, turn - 1), turnRecordSchema)).state;
}

/** Runs the reply's command in a fresh sandbox over the task's work folder; a step that finished is not run again. */
export async function scaffoldShellStep(
  deps: WorkerDeps,
  s: ScaffoldStepInput,
): Promise<{ syntaxError: boolean; timedOut: boolean; submitted: boolean }> {
  const ctx = await v2Run(s.runDir);
  const task = ctx.task(s.taskId);
  const taskDir = ctx.layout.taskDir(s.taskId);
  const done = await readJsonIfPresent(scaffoldPaths.shell(taskDir, s.turn, s.attempt), shellRecordSchema);
  if (done) return { syntaxError: done.syntaxError, timedOut: done.timedOut, submitted: done.submitted };
  const reply = await readRequiredJson(scaffoldPaths.reply(taskDir, s.turn, s.attempt), replyRecordSchema);
  if (reply.action === undefined) throw new Error(`task ${s.taskId}: turn ${s.turn} has no command to run`);
  const record = await runStep(deps, ctx, task, s, reply);
  if (!record.syntaxError) {
    await writeJsonAtomic(scaffoldPaths.turn(taskDir, s.turn), {
      turn: s.turn,
      assistant: reply.message,
      tool: { role: 'tool', content: record.observation, toolCallId: reply.toolCallId },
      state: record.state,
    });
  }
  await writeJsonAtomic(scaffoldPaths.shell(taskDir, s.turn, s.attempt), record);
  return { syntaxError: record.syntaxError, timedOut: record.timedOut, submitted: record.submitted };
}

async function runStep(
  deps: WorkerDeps,
  ctx: V2Run,
  task: V2Task,
  s: ScaffoldStepInput,
  reply: ReplyRecord,
): Promise<ShellRecord> {
  const started = Date.now();
  const { config } = scaffoldConfigFor(task.category);
  const action = reply.action!;
  const state = await stateBefore(ctx.layout.taskDir(s.taskId), s.turn);
  const factory = await deps.sandboxFactory();
  const sandbox = await factory.create({
    workDir: await episodeWorkDir(deps, ctx, s.taskId),
    limits: { memoryMiB: deps.config.sandbox.memoryMiB, maxProcesses: deps.config.sandbox.maxProcesses },
    warmModules: [],
  });
  try {
    const out = await withHeartbeat(() =>
      runShellStep(sandbox, {
        command: action,
        timeoutS: config.tools.execution_timeout,
        maxObservation: config.max_observation_length,
        state,
        tools: upstreamToolScripts(),
        env: config.tools.env_variables,
      }),
    );
    const base = { turn: s.turn, attempt: s.attempt, action, wallMs: Date.now() - started };
    if (out.syntaxError)
      return {
        ...base,
        syntaxError: true,
        requery: shellCheckErrorMessage(out.bashStdout, out.bashStderr),
        timedOut: false,
        submitted: false,
        exitCode: null,
        observation: '',
        outputLength: 0,
        state,
      };
    const submitted = !out.timedOut && (out.whole ?? `${out.head}${out.tail}`).includes(SUBMISSION_TOKEN);
    const shown = out.timedOut
      ? observationMessage(config, wholeOutput(timeoutMessage(config, action)))
      : observationMessage(config, out);
    return {
      ...base,
      syntaxError: false,
      timedOut: out.timedOut,
      submitted,
      exitCode: out.exitCode,
      observation: shown,
      outputLength: out.length,
      state: out.timedOut ? state : { ...state, ...out.state },
    };
  } finally {
    await sandbox.dispose();
  }
}

const wholeOutput = (text: string) => ({ whole: text, head: '', tail: '', length: text.length, blank: !text.trim() });

/**
 * After the episode: the file the agent left at the output path, copied to the run's outputs (`V2RunFiles.outputPath`),
 * and an `<id>_output.png` beside it, which the chart judge prefers as the release does (`outputImagePath`); only a
 * regular file inside the work folder is taken (a link is refused, named). Then the work folder is removed.
 */
export async function collectOutput(
  deps: WorkerDeps,
  runDir: string,
  taskId: string,
): Promise<{ outputPath?: string; problem?: string }> {
  const ctx = await v2Run(runDir);
  const task = ctx.task(taskId);
  const workDir = await episodeWorkDir(deps, ctx, taskId);
  const image = await collectFile(workDir, outputImageName(task), ctx.files.outputImagePath(taskId));
  const output = await collectFile(workDir, outputName(task), ctx.files.outputPath(taskId));
  const problem = [output.problem, image.problem].filter(Boolean).join('; ');
  return { ...(output.taken ? { outputPath: output.taken } : {}), ...(problem ? { problem } : {}) };
}

/** `name` in the work folder's output folder copied to `target` (removed first), when it is a regular file inside. */
async function collectFile(
  workDir: string,
  name: string,
  target: string,
): Promise<{ taken?: string; problem?: string }> {
  await rm(target, { force: true });
  const output = await takeWorkDirOutput(workDir, path.posix.join(OUTPUT_DIR, name), target);
  if (output.taken) return { taken: target };
  return output.problem ? { problem: output.problem } : {};
}

export async function removeWorkDir(deps: WorkerDeps, runDir: string, taskId: string): Promise<void> {
  const ctx = await v2Run(runDir);
  await rm(await episodeWorkDir(deps, ctx, taskId), { recursive: true, force: true });
}

function nonRetryable(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(new DatasetError(message).message, FailureTypes.DatasetError);
}
