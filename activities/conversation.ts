import { ApplicationFailure, activityInfo, cancellationSignal, heartbeat } from '@temporalio/activity';
import { classifyLlmError, TextActionProvider, type LlmProvider } from '../llm';
import { providerFor } from './llm';
import { appendEvents } from '../conversation/eventLog';
import type { NewEvent } from '../conversation/events';
import { finishTurn } from '../conversation/finishTurn';
import { conversationLayout } from '../conversation/layout';
import { runModelStep } from '../conversation/modelStep';
import { analysisToolbox } from '../conversation/analysisToolbox';
import type { FinishTurnInput, ModelStepInput, ModelStepResult, ToolStepInput, ToolStepResult } from '../conversation/steps';
import type { Toolbox } from '../conversation/toolbox';
import { runToolStep } from '../conversation/toolStep';
import { sandboxEnvironment } from '../conversation/sandboxEnvironment';
import { withHeartbeat } from './heartbeat';
import type { WorkerDeps } from './deps';

/** The analysis conversation's activities: thin adapters over conversation/ (model step, tool step, event log). */
export function conversationActivities(deps: WorkerDeps, toolbox: Toolbox = defaultToolbox(deps)) {
  let provider: LlmProvider | undefined;
  const providerOf = () => (provider ??= conversationProvider(deps));
  return {
    async conversationModelStep(input: ModelStepInput): Promise<ModelStepResult> {
      const { llm } = deps.config;
      return withHeartbeat(() =>
        runModelStep(input, {
          provider: providerOf(),
          model: llm.model,
          temperature: llm.temperature,
          maxTokens: llm.maxTokens,
          prices: llm.prices,
          tools: toolbox.specs(),
          signal: cancellationSignal(),
        }),
      ).catch((err: unknown) => {
        // A cancelled turn aborts the request: report the cancellation, not a model failure.
        if (cancellationSignal().aborted) throw err;
        throw modelFailure(err, deps);
      });
    },

    /** Heartbeats while the tool runs; cancelling the turn aborts the tool (the sandbox kills its process group). */
    async conversationToolCall(input: ToolStepInput): Promise<ToolStepResult> {
      const environment = () => sandboxEnvironment(deps.config.analysis.allowedPackages);
      return withHeartbeat(() => runToolStep(input, toolbox, { signal: cancellationSignal(), heartbeat: () => heartbeat(), environment }));
    },

    async conversationRecord(input: { dir: string; events: NewEvent[] }): Promise<void> {
      await appendEvents(conversationLayout(input.dir), input.events);
    },

    async conversationFinishTurn(input: FinishTurnInput): Promise<void> {
      await finishTurn(input);
    },

    async conversationDispose(input: { conversationId: string }): Promise<void> {
      await toolbox.dispose(input.conversationId);
    },
  };
}

function defaultToolbox(deps: WorkerDeps): Toolbox {
  return analysisToolbox(deps.config.analysis, deps.sandboxFactory);
}

function conversationProvider(deps: WorkerDeps): LlmProvider {
  // Conversations share the provider's rate limits with benchmark runs (per host and across hosts).
  const provider = providerFor(deps, deps.config.llm);
  return deps.config.conversation.toolCalling === 'text' ? new TextActionProvider(provider) : provider;
}

/** Same classes as the benchmark's LLM calls: transient ones retry, bad requests and auth stop at once. */
function modelFailure(err: unknown, deps: WorkerDeps): ApplicationFailure {
  const failure = classifyLlmError(err, { maxRetryAfterMs: deps.config.llm.maxRetryAfterMs });
  const limit = deps.config.llm.retryLimits[failure.class as keyof typeof deps.config.llm.retryLimits];
  const exhausted = limit !== undefined && activityInfo().attempt >= limit;
  return ApplicationFailure.create({
    message: `model call failed (${failure.class}): ${err instanceof Error ? err.message : String(err)}`,
    type: `Llm.${failure.class}`,
    nonRetryable: !failure.retryable || exhausted,
    nextRetryDelay: failure.retryAfterMs,
  });
}
