import { conversationUpTo, writeConversation } from '../../lib/runStore/conversationStore';
import type { ChatMessage } from '../../lib/llm/types';
import { assistantMessageOf } from '../../lib/llm/assistantMessage';
import {
  renderOfficialPrompt,
  usesPreview,
  type OfficialPromptKind,
} from '../../benchmarks/spreadsheetbench/agents/prompts/spreadsheetbench';
import { modelPaths } from '../../benchmarks/spreadsheetbench/agents/officialPaths';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { withHeartbeat } from '../heartbeat';
import { cachedModelCall, costOfResponse, failureCountsSoFar } from '../llm/modelCall';
import type { WorkerDeps } from '../deps';
import { cachedPreview } from './preview';

/** The user message of a turn: literal text (feedback) or a prompt rendered here from the task record. */
export type UserMessageSpec = { text: string } | { officialPrompt: OfficialPromptKind };

export interface LlmTurnInput {
  runDir: string;
  taskId: string;
  conversation: string;
  /** Number of messages that precede this turn's user message. */
  turn: number;
  user: UserMessageSpec;
  /** Stable identity of this call: `<runId>/<taskId>/<stage>/<round>`. */
  callKey: string;
}

export interface LlmTurnResult {
  text: string;
  finishReason: string;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  cached: boolean;
}

export function llmTurnActivities(deps: WorkerDeps) {
  return {
    /** One LLM call: renders the user message, calls the model through the run's response cache, records both messages. */
    async llmTurn(input: LlmTurnInput): Promise<LlmTurnResult> {
      const ctx = await sheetRun(input.runDir);
      const history = await conversationUpTo(ctx.layout, input.taskId, input.conversation, input.turn);
      const failures = failureCountsSoFar();
      // Heartbeat from the start: a slow preview must not look like a dead worker (a second attempt would pay again).
      const user: ChatMessage = {
        role: 'user',
        content: await withHeartbeat(() => renderUser(input), { details: { failures } }),
      };
      const messages = [...history, user];
      const { llm } = ctx.manifest;
      const response = await cachedModelCall(
        deps,
        ctx,
        { model: llm.model, temperature: llm.temperature, maxTokens: llm.maxTokens, messages },
        input.callKey,
      );
      await writeConversation(ctx.layout, input.taskId, input.conversation, [
        ...messages,
        assistantMessageOf(response),
      ]);
      return {
        text: response.text,
        finishReason: response.finishReason,
        usage: response.usage,
        costUsd: costOfResponse(response, llm.model, deps),
        cached: response.cached,
      };
    },
  };
}

async function renderUser(input: LlmTurnInput): Promise<string> {
  if ('text' in input.user) return input.user.text;
  const ctx = await sheetRun(input.runDir);
  const task = ctx.task(input.taskId);
  const kind = input.user.officialPrompt;
  const preview = usesPreview(kind) ? await cachedPreview(ctx, input.taskId) : undefined;
  return renderOfficialPrompt(kind, task, modelPaths(task, ctx.official.outputsName), {
    preview,
    maxTurns: ctx.manifest.agentSettings.maxTurns,
  });
}
