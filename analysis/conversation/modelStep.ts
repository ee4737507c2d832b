import path from 'node:path';
import { writeJsonAtomic } from '../../lib/runStore/files';
import {
  cachedComplete,
  costOf,
  ResponseCache,
  type ChatMessage,
  type LlmProvider,
  type ToolSpec,
} from '../../lib/llm';
import type { DebugStep } from './debug';
import { appendEvents, readEvents } from './eventLog';
import type { NewEvent } from './events';
import { conversationLayout, type ConversationLayout } from './layout';
import { dataPreview, isToolOutput } from './dataPreview';
import { answersTurn } from './crossCheckPrompts';
import { historySection } from './prompts';
import { PREVIEW_CHARS, type ModelStepInput, type ModelStepResult } from './steps';
import { readMessage, readTranscript, transcriptDir, writeMessage } from './transcript';
import { listWorkspaceFiles } from './workspaceFiles';
import { addUsage } from '../../contracts/conversation';

export interface ModelStepDeps {
  provider: LlmProvider;
  model: string;
  temperature?: number;
  maxTokens?: number;
  prices: Parameters<typeof costOf>[2];
  tools: ToolSpec[];
  signal?: AbortSignal;
  /** Who pays for the reply (lib/llm/responseCache.ts `CachedCompleteOptions.payer`): the activity's execution. */
  payer?: string;
}

/**
 * One model call of a conversation: writes the step's new prompt messages, calls the model through the conversation's
 * response cache (a retry after a success pays nothing), stores the reply in the transcript, the debug record and the
 * event log, and returns a small summary.
 */
export async function runModelStep(input: ModelStepInput, deps: ModelStepDeps): Promise<ModelStepResult> {
  const layout = conversationLayout(input.dir);
  const dir = transcriptDir(layout, input.turnId, input.agent);
  let length = input.length;
  for (const part of input.add ?? []) {
    // A seed written by an earlier attempt is kept as is: its history section must not change between attempts.
    if (!(await readMessage(dir, length)))
      await writeMessage(dir, length, {
        role: part.role,
        content: part.withHistory ? await withHistory(layout, part.text, input.turnId, input.agent) : part.text,
      });
    length++;
  }
  const messages = await readTranscript(dir, length);
  const tools = input.tools === 'none' ? undefined : deps.tools;
  const request = {
    model: deps.model,
    temperature: deps.temperature,
    maxTokens: deps.maxTokens,
    messages,
    tools,
    toolChoice: tools ? input.tools : undefined,
  };
  const started = Date.now();
  const response = await cachedComplete(deps.provider, new ResponseCache(layout.llmCache), request, {
    callKey: input.callKey,
    signal: deps.signal,
    payer: deps.payer,
  });
  const modelMs = Date.now() - started;
  // A step offered no tools (classify, plan, critique, the answer) cannot call one: calls a model returns anyway are
  // dropped here, so no later step or view ever takes them for calls (the debug record keeps them, marked ignored).
  const calls = tools ? (response.toolCalls ?? []) : [];
  const ignored = tools ? [] : (response.toolCalls ?? []);
  const reply: ChatMessage = {
    role: 'assistant',
    content: response.text,
    ...(calls.length ? { toolCalls: calls } : {}),
  };
  await writeMessage(dir, length, reply);
  const usage = { ...response.usage, costUsd: response.cached ? 0 : costOf(response.usage, deps.model, deps.prices) };
  await writeDebug(layout, input, {
    messages,
    reply,
    ignoredToolCalls: ignored,
    usage,
    modelMs,
    model: response.model,
    cached: response.cached,
  });
  await appendEvents(layout, stepEvents(input, reply, addUsage(input.turnUsage, usage)));
  return {
    stepId: input.stepId,
    text: response.text.slice(0, PREVIEW_CHARS),
    toolCalls: calls.map((c) => ({ callId: c.id, tool: c.name })),
    length: length + 1,
    usage,
    finishReason: response.finishReason,
  };
}

function stepEvents(input: ModelStepInput, reply: ChatMessage, turnUsage: ModelStepResult['usage']): NewEvent[] {
  const base = { turnId: input.turnId };
  const events: NewEvent[] = [];
  const reasoning = input.kind !== 'act' || (reply.toolCalls?.length && reply.content.trim());
  if (reasoning) {
    const kind = input.kind === 'act' ? 'think' : input.kind;
    events.push({
      ...base,
      type: 'step',
      key: `${input.stepId}:step`,
      data: { stepId: input.stepId, kind, text: reply.content, agent: input.agent },
    });
  }
  for (const call of reply.toolCalls ?? []) {
    const data = { stepId: input.stepId, callId: call.id, tool: call.name, args: parseArgs(call.arguments) };
    events.push({ ...base, type: 'tool_call', key: `${input.stepId}:tool_call:${call.id}`, data });
  }
  events.push({ ...base, type: 'usage', key: `${input.stepId}:usage`, data: turnUsage });
  return events;
}

/** The model's argument text as JSON when it parses, else the raw text (shown as the model wrote it). */
export function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return text;
  }
}

/**
 * The system prompt with the conversation so far: earlier turns, the workspace's files and a preview of its data files.
 * The cross-check's second program is shown the user's files only (not the tables, charts and manifest the tools
 * wrote: the first program's outputs are not its to see; on a15 the 1.5B's second program was shown its empty table).
 */
async function withHistory(layout: ConversationLayout, text: string, turnId: string, agent: string): Promise<string> {
  const events = await readEvents(layout);
  const turns: Array<{ question: string; answer: string }> = [];
  for (const e of events) {
    if (e.turnId === turnId) continue;
    if (e.type === 'turn_started') turns.push({ question: String(e.data.text), answer: '(no answer)' });
    if (e.type === 'answer' && turns.length) turns[turns.length - 1].answer = String(e.data.text);
  }
  const files = (await listWorkspaceFiles(layout.workspace, 200))
    .map((f) => f.path)
    .filter((f) => answersTurn(agent) || !isToolOutput(f));
  const preview = await dataPreview(layout.workspace, files);
  return [text, historySection(turns.slice(-10), files), preview].filter(Boolean).join('\n\n');
}

interface DebugFacts {
  messages: ChatMessage[];
  reply: ChatMessage;
  ignoredToolCalls: NonNullable<ChatMessage['toolCalls']>;
  usage: ModelStepResult['usage'];
  modelMs: number;
  model: string;
  cached: boolean;
}

async function writeDebug(layout: ConversationLayout, input: ModelStepInput, f: DebugFacts): Promise<void> {
  const record: DebugStep = {
    stepId: input.stepId,
    turnId: input.turnId,
    index: input.index,
    kind: input.kind,
    agent: input.agent,
    model: f.model,
    prompt: f.messages.map((m) => ({
      role: m.role,
      content: m.content,
      ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}),
      ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
    })),
    reply: {
      content: f.reply.content,
      ...(f.reply.toolCalls ? { toolCalls: f.reply.toolCalls } : {}),
      ...(f.ignoredToolCalls.length ? { ignoredToolCalls: f.ignoredToolCalls } : {}),
    },
    inputTokens: f.usage.inputTokens,
    outputTokens: f.usage.outputTokens,
    costUsd: f.usage.costUsd,
    cached: f.cached,
    timing: { modelMs: f.modelMs, executionMs: 0, toolsMs: 0, waitingMs: 0 },
  };
  await writeJsonAtomic(path.join(layout.debug, `${input.stepId}.json`), record);
}
