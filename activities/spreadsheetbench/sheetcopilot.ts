import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { pathExists } from '../../lib/runStore/files';
import { executionWorkDir } from '../workDirs';
import type { ChatMessage } from '../../lib/llm/types';
import { cachedModelCall, costOfResponse } from '../llm/modelCall';
import { sheetRun, type SheetRun } from '../../benchmarks/spreadsheetbench/run';
import { writeConversation } from '../../lib/runStore/conversationStore';
import { testCaseFiles } from '../../benchmarks/spreadsheetbench/dataset';
import { modelPaths } from '../../benchmarks/spreadsheetbench/agents/officialPaths';
import { readJsonOr, writeJsonAtomic } from '../../lib/runStore/files';
import { extractCodeOrProblem } from '../../benchmarks/codeAgent/codeExtraction';
import { substitutePathPlaceholders } from '../../benchmarks/spreadsheetbench/agents/pathPrelude';
import { executionSucceeded, failureText } from '../../benchmarks/spreadsheetbench/agents/sheetcopilot/executionText';
import { programTargets } from '../../benchmarks/spreadsheetbench/agents/sheetcopilot/targets';
import { programWithInputs } from '../../benchmarks/spreadsheetbench/agents/sheetcopilot/programs';
import { renderCopilotPrompt, type CopilotPrompt } from '../../benchmarks/spreadsheetbench/agents/sheetcopilot/prompts';
import {
  STAGE_OUTPUT_SCHEMAS,
  inspectionSchema,
  markdownSections,
  stageFileName,
  validationPassed,
  type CopilotStageName,
  type Exchange,
  type ExecutionSummary,
  type FinalOutput,
  type Inspection,
  type ObserveOutput,
  type ReviseOutput,
  type StageOutput,
} from '../../benchmarks/spreadsheetbench/agents/sheetcopilot/stages';
import { EXCERPT_CHARS } from '../../benchmarks/spreadsheetbench/agents/sheetcopilot/excerpts';
import type { WorkerDeps } from '../deps';
import { testCaseOrFail } from './testCase';
import { executeWithFiles } from './sandboxProgram';
import { FailureTypes } from '../../lib/failureTypes';

interface StageCall {
  runDir: string;
  taskId: string;
  /** `X-Sheetbench-Call` key and response-cache discriminator of this LLM call. */
  callKey: string;
  /** Folder whose `<template>.txt` files replace the built-in prompts. */
  promptDir?: string;
}

export type CopilotAskInput = StageCall &
  (
    | { stage: 'understand' }
    | { stage: 'plan' }
    | { stage: 'implement' }
    | { stage: 'validate'; code: string; execution: ExecutionSummary; inspection: Inspection | null }
    | { stage: 'revise'; testCase: number; revision: number; code: string; error: string }
  );

export type CopilotAskOutput =
  StageOutput<'understand'> | StageOutput<'plan'> | StageOutput<'implement'> | StageOutput<'validate'> | ReviseOutput;

export function sheetCopilotActivities(deps: WorkerDeps) {
  return {
    /** Stage 1: the fixed observation program on one test-case input, in a fresh sandbox (no LLM). */
    async copilotObserve(input: { runDir: string; taskId: string; testCase: number }): Promise<ObserveOutput> {
      const ctx = await sheetRun(input.runDir);
      const task = ctx.task(input.taskId);
      const files = await testCaseOrFail(ctx, input.taskId, input.testCase);
      const result = await executeWithFiles(
        deps,
        await executionWorkDir(deps.config, ctx.manifest.runId, input.taskId, `observe-tc${input.testCase}`),
        [files.inputPath],
        (inside) =>
          programWithInputs('observation', {
            INPUT_PATH: `${inside}/${path.basename(files.inputPath)}`,
            TARGETS: programTargets(task.answer_position),
            INSTRUCTION_TYPE: task.instruction_type,
          }),
      );
      const success =
        !result.error && !result.timedOut && result.stdout.includes('=== ANSWER POSITION CURRENT CONTENT ===');
      const output: ObserveOutput = {
        stage: 'observe',
        testCase: input.testCase,
        success,
        text: result.stdout,
        paths: modelPaths(task, ctx.official.outputsName, 1),
        problem: success
          ? undefined
          : `observation program failed: ${result.error || (result.timedOut ? 'timed out' : 'no report printed')}`,
      };
      await writeStage(ctx, input.taskId, 'observe', output, input.testCase === 1 ? undefined : `tc${input.testCase}`);
      return output;
    },

    /** Stages 2–5 and the stage-6 revisions: one LLM call each, in the reference fork's message layout (below). */
    async copilotAsk(input: CopilotAskInput): Promise<CopilotAskOutput> {
      const ctx = await sheetRun(input.runDir);
      const built = await buildStageMessages(ctx, input);
      const exchange = await ask(deps, ctx, input, built.messages, built.prompt, built.conversation);
      const output = stageOutput(input, exchange);
      await writeStage(
        ctx,
        input.taskId,
        input.stage === 'revise' ? 'final' : input.stage,
        output,
        input.stage === 'revise' ? `tc${input.testCase}-revise${input.revision}` : undefined,
      );
      return output;
    },

    /** Stage 5: a copy of the test-case-1 output for recalculation and inspection (the scored output stays as written). */
    async copilotValidationCopy(input: { runDir: string; taskId: string }): Promise<{ path: string | null }> {
      const ctx = await sheetRun(input.runDir);
      const source = ctx.official.outputPath(input.taskId, 1);
      if (!(await pathExists(source))) return { path: null };
      const target = path.join(ctx.layout.taskDir(input.taskId), 'validate', '1_output.xlsx');
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(source, target);
      return { path: target };
    },

    /** Stage 5: reads the answer cells of the (recalculated) copy in a sandbox and flags suspicious patterns. */
    async copilotInspect(input: {
      runDir: string;
      taskId: string;
      path: string;
      recalculated: boolean;
    }): Promise<Inspection> {
      const ctx = await sheetRun(input.runDir);
      const task = ctx.task(input.taskId);
      const [files] = await testCaseFiles(ctx.manifest.datasetDir, task, 1);
      const result = await executeWithFiles(
        deps,
        await executionWorkDir(deps.config, ctx.manifest.runId, input.taskId, 'validate-inspect'),
        [input.path, files.inputPath],
        (inside) =>
          programWithInputs('inspect_answer', {
            OUTPUT_PATH: `${inside}/${path.basename(input.path)}`,
            INPUT_PATH: `${inside}/${path.basename(files.inputPath)}`,
            TARGETS: programTargets(task.answer_position),
            RECALCULATED: input.recalculated,
          }),
      );
      const parsed = inspectionSchema.safeParse(lastJsonLine(result.stdout));
      if (parsed.success) return parsed.data;
      return {
        recalculated: input.recalculated,
        pieces: [],
        flags: [],
        problem: `answer cells unreadable: ${result.error || 'no report'}`,
      };
    },

    /** Stage 6: the record of one test case's executions and revisions. */
    async copilotRecordFinal(input: { runDir: string; taskId: string; final: FinalOutput }): Promise<void> {
      const ctx = await sheetRun(input.runDir);
      await writeStage(
        ctx,
        input.taskId,
        'final',
        STAGE_OUTPUT_SCHEMAS.final.parse(input.final),
        `tc${input.final.testCase}`,
      );
    },

    /** A recorded stage output, for `rerun --from-stage K` (stages < K are read back, never recomputed). */
    async copilotLoadStage<N extends CopilotStageName>(input: {
      runDir: string;
      taskId: string;
      stage: N;
    }): Promise<StageOutput<N>> {
      const ctx = await sheetRun(input.runDir);
      return readStage(ctx, input.taskId, input.stage);
    },
  };
}

function stagesDir(ctx: SheetRun, taskId: string): string {
  return path.join(ctx.layout.taskDir(taskId), 'stages');
}

async function writeStage(
  ctx: SheetRun,
  taskId: string,
  stage: CopilotStageName,
  output: unknown,
  suffix?: string,
): Promise<void> {
  await writeJsonAtomic(path.join(stagesDir(ctx, taskId), stageFileName(stage, suffix)), output);
}

async function readStage<N extends CopilotStageName>(ctx: SheetRun, taskId: string, stage: N): Promise<StageOutput<N>> {
  const file = path.join(stagesDir(ctx, taskId), stageFileName(stage));
  const raw = await readJsonOr<unknown>(file, undefined);
  if (raw === undefined)
    throw ApplicationFailure.nonRetryable(
      `task ${taskId}: no recorded output of stage ${stage} (${file})`,
      FailureTypes.StageMissing,
    );
  const parsed = STAGE_OUTPUT_SCHEMAS[stage].safeParse(raw);
  if (!parsed.success)
    throw ApplicationFailure.nonRetryable(
      `task ${taskId}: recorded stage ${stage} is malformed: ${parsed.error.message}`,
      FailureTypes.StageMissing,
    );
  return parsed.data as StageOutput<N>;
}

interface BuiltMessages {
  messages: ChatMessage[];
  prompt: { text: string; record: Exchange['prompt'] };
  conversation: string;
}

/**
 * The message layout of the reference fork (lowl6/SpreadsheetBench, where SheetCopilot v2 comes from):
 * [summary, observation, (earlier stage prompt, answer)…, this prompt].
 */
async function buildStageMessages(ctx: SheetRun, input: CopilotAskInput): Promise<BuiltMessages> {
  const task = ctx.task(input.taskId);
  const observe = await readStage(ctx, input.taskId, 'observe');
  const summary = await renderCopilotPrompt(
    'summary',
    {
      instruction: task.instruction,
      instruction_type: task.instruction_type,
      answer_position: task.answer_position,
      input_path: observe.paths.input,
      output_path: observe.paths.output,
    },
    input.promptDir,
  );
  const head: ChatMessage[] = [
    { role: 'user', content: summary.text },
    { role: 'assistant', content: observe.text },
  ];
  const obs = (n: number) => observe.text.slice(0, n);
  const pair = (e: Exchange): ChatMessage[] => [
    { role: 'user', content: e.promptText },
    { role: 'assistant', content: e.response },
  ];
  const render = (p: CopilotPrompt, vars: Record<string, string | number>) =>
    renderCopilotPrompt(p, vars, input.promptDir);
  const common = {
    instruction: task.instruction,
    instruction_type: task.instruction_type,
    answer_position: task.answer_position,
  };

  if (input.stage === 'understand') {
    const prompt = await render('understand', { ...common, observation: obs(EXCERPT_CHARS.understand.observation) });
    return { messages: [...head, user(prompt.text)], prompt, conversation: 'copilot-understand' };
  }
  const understand = await readStage(ctx, input.taskId, 'understand');
  const understanding = understand.exchange.response.slice(0, EXCERPT_CHARS.plan.understanding);
  if (input.stage === 'plan') {
    const prompt = await render('plan', { ...common, observation: obs(EXCERPT_CHARS.plan.observation), understanding });
    return {
      messages: [...head, ...pair(understand.exchange), user(prompt.text)],
      prompt,
      conversation: 'copilot-plan',
    };
  }
  const plan = await readStage(ctx, input.taskId, 'plan');
  if (input.stage === 'implement') {
    const prompt = await render('implement', {
      ...common,
      observation: obs(EXCERPT_CHARS.implement.observation),
      understanding,
      plan: plan.exchange.response,
    });
    return {
      messages: [...head, ...pair(understand.exchange), ...pair(plan.exchange), user(prompt.text)],
      prompt,
      conversation: 'copilot-implement',
    };
  }
  if (input.stage === 'validate') {
    const implement = await readStage(ctx, input.taskId, 'implement');
    const prompt = !executionSucceeded(input.execution)
      ? await render('validateFailure', {
          ...common,
          observation: obs(EXCERPT_CHARS.validateFailure.observation),
          plan: plan.exchange.response.slice(0, EXCERPT_CHARS.validateFailure.plan),
          code: input.code,
          error: failureText(input.execution),
        })
      : await render('validateSuccess', {
          ...common,
          code: input.code,
          execution_output: input.execution.feedback,
          recalc_note: input.inspection?.recalculated
            ? 'recalculated by the recalc engine'
            : 'NOT recalculated: formula values unknown',
          summaries: JSON.stringify(input.inspection?.pieces ?? [], null, 1).slice(
            0,
            EXCERPT_CHARS.validateSuccess.answerSummaries,
          ),
          flags:
            input.inspection?.problem ??
            (input.inspection?.flags.length
              ? input.inspection.flags.map((f) => `- ${f.kind}: ${f.detail}`).join('\n')
              : 'none'),
        });
    return {
      messages: [...head, ...pair(plan.exchange), ...pair(implement.exchange), user(prompt.text)],
      prompt,
      conversation: 'copilot-validate',
    };
  }
  const prompt = await render('revise', {
    ...common,
    observation: obs(EXCERPT_CHARS.revise.observation),
    plan: plan.exchange.response.slice(0, EXCERPT_CHARS.revise.plan),
    code: input.code,
    error: input.error,
    revision: input.revision,
    test_case: input.testCase,
  });
  return {
    messages: [...head, ...pair(plan.exchange), user(prompt.text)],
    prompt,
    conversation: `copilot-revise-tc${input.testCase}-${input.revision}`,
  };
}

function user(content: string): ChatMessage {
  return { role: 'user', content };
}

function stageOutput(input: CopilotAskInput, exchange: Exchange): CopilotAskOutput {
  const reply = exchange.response;
  const truncated = exchange.finishReason === 'length' ? 'reply truncated (finish_reason: length)' : undefined;
  switch (input.stage) {
    case 'understand':
      return { stage: 'understand', exchange: { ...exchange, problem: truncated }, sections: markdownSections(reply) };
    case 'plan':
      return { stage: 'plan', exchange: { ...exchange, problem: truncated } };
    case 'implement': {
      const code = codeOf(reply, truncated);
      return { stage: 'implement', exchange: { ...exchange, problem: code.problem }, code: code.code ?? '' };
    }
    case 'validate': {
      const passed = validationPassed(reply) && !truncated;
      const code = passed ? {} : codeOf(reply, truncated);
      return {
        stage: 'validate',
        execution: input.execution,
        inspection: input.inspection,
        exchange: { ...exchange, problem: code.problem },
        passed,
        correctedCode: code.code,
      };
    }
    case 'revise': {
      const code = codeOf(reply, truncated);
      return {
        stage: 'revise',
        testCase: input.testCase,
        revision: input.revision,
        exchange: { ...exchange, problem: code.problem },
        code: code.code,
      };
    }
  }
}

/** A truncated reply is never executed: its code is cut off mid-way. */
function codeOf(reply: string, truncated?: string): { code?: string; problem?: string } {
  if (truncated) return { problem: truncated };
  const found = extractCodeOrProblem(reply);
  return found.code !== undefined ? { code: substitutePathPlaceholders(found.code) } : { problem: found.problem };
}

/**
 * One chat call through the one model-call path (activities/llm/modelCall.ts: the run's provider and response cache,
 * heartbeats, the per-class retry limits, cancellation); the conversation is kept for the transcript.
 */
async function ask(
  deps: WorkerDeps,
  ctx: SheetRun,
  input: StageCall,
  messages: ChatMessage[],
  prompt: BuiltMessages['prompt'],
  conversation: string,
): Promise<Exchange> {
  const { llm } = ctx.manifest;
  const response = await cachedModelCall(
    deps,
    ctx,
    { model: llm.model, temperature: llm.temperature, maxTokens: llm.maxTokens, messages },
    input.callKey,
  );
  await writeConversation(ctx.layout, input.taskId, conversation, [
    ...messages,
    { role: 'assistant', content: response.text },
  ]);
  return {
    prompt: prompt.record,
    promptText: prompt.text,
    response: response.text,
    finishReason: response.finishReason,
    usage: response.usage,
    costUsd: costOfResponse(response, llm.model, deps),
    cached: response.cached,
    callKey: input.callKey,
  };
}

function lastJsonLine(stdout: string): unknown {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
