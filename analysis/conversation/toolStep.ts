import { createHash } from 'node:crypto';
import path from 'node:path';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { canonicalJson } from '../../lib/llm/canonicalJson';
import { restorableCells } from './codeHistory';
import { pythonErrorHint } from './errorHints';
import { repeatedFailure } from './repeatedCall';
import { turnErrorHint } from './turnErrorHints';
import { runArguments } from './isolatedProgram';
import { appendEvents } from './eventLog';
import type { NewEvent } from './events';
import { conversationLayout } from './layout';
import { parseArgs } from './modelStep';
import type { ToolStepInput, ToolStepResult } from './steps';
import type { ExecutionLike, Toolbox, ToolOutcome } from './toolbox';
import { readMessage, transcriptDir, writeMessage } from './transcript';
import type { DebugToolCall } from './debug';
import type { VisualizationOutput } from './types';

/** What the model reads back of a tool's outcome (long outputs are cut; the whole outcome is in the debug record). */
const TOOL_MESSAGE_CHARS = 12_000;

/**
 * Runs one tool call the model made: reads its arguments from the transcript (they never travel in payloads), runs it,
 * writes the tool message, the debug record and the events. The model's mistakes are outcomes, not failures.
 */
export async function runToolStep(
  input: ToolStepInput,
  toolbox: Toolbox,
  ctx: { signal?: AbortSignal; heartbeat?: () => void; environment?: () => Promise<DebugToolCall['sandbox']> },
): Promise<ToolStepResult> {
  const layout = conversationLayout(input.dir);
  const dir = transcriptDir(layout, input.turnId, input.agent);
  const call = (await readMessage(dir, input.replyIndex))?.toolCalls?.find((c) => c.id === input.callId);
  if (!call) throw new Error(`${dir}: message ${input.replyIndex} has no tool call ${input.callId}`);
  const args = parseArgs(call.arguments);
  const outcome: ToolOutcome =
    typeof args === 'string' && call.arguments.trim()
      ? {
          ok: false,
          error: `the arguments of ${call.name} are not valid JSON: ${call.arguments.slice(0, 200)}`,
          durationMs: 0,
        }
      : await toolbox.run(call.name, runArguments(input.agent, call.name, args), {
          conversationId: input.conversationId,
          workspaceDir: layout.workspace,
          signal: ctx.signal,
          heartbeat: ctx.heartbeat,
          pythonHistory: () => restorableCells(layout, input),
        });
  const error = outcome.ok ? '' : errorText(outcome);
  const feedback = {
    repeated: outcome.ok ? undefined : await repeatedFailure(layout, { ...input, tool: call.name, args, error }),
    hint:
      call.name === 'python_execute' && error
        ? (pythonErrorHint(error) ?? (await turnErrorHint(layout, input, error)))
        : undefined,
  };
  await writeMessage(dir, input.toolIndex, {
    role: 'tool',
    toolCallId: call.id,
    content: toolMessage(outcome, feedback),
  });
  const sandbox = /_execute$/.test(call.name) ? await ctx.environment?.() : undefined;
  const record: DebugToolCall = {
    callId: call.id,
    tool: call.name,
    args,
    result: outcome.result ?? outcome.error,
    ok: outcome.ok,
    durationMs: outcome.durationMs,
    ...(sandbox ? { sandbox } : {}),
  };
  await writeJsonAtomic(path.join(layout.debug, `${input.stepId}.tools`, `${safe(call.id)}.json`), record);
  await appendEvents(layout, toolEvents(input, call.name, args, outcome));
  const codeFailed = (outcome.result as ExecutionLike | undefined)?.success === false;
  return {
    ok: outcome.ok,
    error: outcome.error?.slice(0, 500),
    signature: signatureOf(call.name, args),
    ...(codeFailed ? { codeFailed } : {}),
  };
}

/**
 * The tool message: the outcome as JSON; a failure is led by what repeating an earlier failing call means (`repeated`)
 * and what its error usually means (`hint`).
 */
function toolMessage(outcome: ToolOutcome, feedback: { repeated?: string; hint?: string }): string {
  const lead = {
    ...(feedback.repeated ? { repeated: feedback.repeated } : {}),
    ...(feedback.hint ? { hint: feedback.hint } : {}),
  };
  const body = JSON.stringify(
    outcome.ok
      ? (outcome.result ?? { ok: true })
      : { ...lead, ok: false, error: outcome.error, result: outcome.result },
  );
  return body.length > TOOL_MESSAGE_CHARS
    ? `${body.slice(0, TOOL_MESSAGE_CHARS)}… [cut: ${body.length} characters in all]`
    : body;
}

function errorText(outcome: ToolOutcome): string {
  const error = (outcome.result as { error?: unknown } | undefined)?.error;
  return outcome.error ?? (typeof error === 'string' ? error : '');
}

function toolEvents(input: ToolStepInput, tool: string, args: unknown, outcome: ToolOutcome): NewEvent[] {
  const key = `${input.stepId}:${input.callId}`;
  const base = { turnId: input.turnId };
  const result = (outcome.result ?? {}) as ExecutionLike;
  const events: NewEvent[] = [];
  const code = (args as { code?: unknown } | undefined)?.code;
  if ((tool === 'python_execute' || tool === 'node_execute') && typeof code === 'string') {
    const language = tool === 'python_execute' ? 'python' : 'javascript';
    events.push({
      ...base,
      type: 'code',
      key: `${key}:code`,
      data: { stepId: input.stepId, callId: input.callId, language, code, agent: input.agent },
    });
  }
  events.push({
    ...base,
    type: 'tool_result',
    key: `${key}:result`,
    data: {
      stepId: input.stepId,
      callId: input.callId,
      tool,
      ok: outcome.ok,
      ...(typeof result.stdout === 'string' ? { stdout: result.stdout } : {}),
      ...(typeof result.stderr === 'string' ? { stderr: result.stderr } : {}),
      ...(typeof result.returnCode === 'number' ? { returnCode: result.returnCode } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(result.files?.length ? { files: result.files } : {}),
      durationMs: outcome.durationMs,
      ...(result.restored ? { restored: result.restored } : {}),
      ...(result.stateReset ? { stateReset: true, lostVariables: result.lostVariables ?? [] } : {}),
      ...(result.notice ? { notice: result.notice } : {}),
    },
  });
  for (const file of result.files ?? [])
    events.push({ ...base, type: 'file', key: `${key}:file:${file.path}`, data: { file } });
  for (const output of (result.visualizations ?? []) as VisualizationOutput[]) {
    events.push({ ...base, type: 'visualization', key: `${key}:viz:${output.id}`, data: { output } });
  }
  return events;
}

export function signatureOf(tool: string, args: unknown): string {
  return createHash('sha256')
    .update(`${tool}\0${canonicalJson(args)}`)
    .digest('hex')
    .slice(0, 16);
}

function safe(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_');
}
