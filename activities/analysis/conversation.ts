import { cancellationSignal, heartbeat } from '@temporalio/activity';
import { TextActionProvider, usesLocalModel, type LlmProvider } from '../../lib/llm';
import { providerFor, underRetryPolicy } from '../llm/modelCall';
import { payerOfThisActivity } from '../llm/payer';
import { appendEvents } from '../../analysis/conversation/eventLog';
import type { NewEvent } from '../../analysis/conversation/events';
import { finishTurn } from '../../analysis/conversation/finishTurn';
import { conversationLayout } from '../../analysis/conversation/layout';
import { runModelStep } from '../../analysis/conversation/modelStep';
import { analysisToolbox } from '../../analysis/conversation/analysisToolbox';
import { checkAnswerGrounding } from '../../analysis/conversation/grounding';
import { crossCheckAnswer, crossCheckNeeded } from '../../analysis/conversation/crossCheck';
import { checkRequestedOutput } from '../../analysis/conversation/requestedOutputCheck';
import type {
  CheckGroundingInput,
  CheckGroundingResult,
  CrossCheckInput,
  CrossCheckResult,
  FinishTurnInput,
  ModelStepInput,
  ModelStepResult,
  RequestedOutputResult,
  ToolStepInput,
  ToolStepResult,
} from '../../analysis/conversation/steps';
import type { Toolbox } from '../../analysis/conversation/toolbox';
import { runToolStep } from '../../analysis/conversation/toolStep';
import { sandboxEnvironment } from '../../analysis/conversation/sandboxEnvironment';
import { withHeartbeat } from '../heartbeat';
import type { WorkerDeps } from '../deps';

/** The analysis conversation's activities: thin adapters over conversation/ (model step, tool step, event log). */
export function conversationActivities(deps: WorkerDeps, toolbox: Toolbox = defaultToolbox(deps)) {
  let provider: LlmProvider | undefined;
  const providerOf = () => (provider ??= conversationProvider(deps));
  return {
    async conversationModelStep(input: ModelStepInput): Promise<ModelStepResult> {
      const { llm } = deps.config;
      return underRetryPolicy(llm, () =>
        runModelStep(input, {
          provider: providerOf(),
          model: llm.model,
          temperature: llm.temperature,
          maxTokens: llm.maxTokens,
          prices: llm.prices,
          tools: toolbox.specs(),
          signal: cancellationSignal(),
          payer: payerOfThisActivity(),
        }),
      );
    },

    /** Heartbeats while the tool runs; cancelling the turn aborts the tool (the sandbox kills its process group). */
    async conversationToolCall(input: ToolStepInput): Promise<ToolStepResult> {
      const environment = () => sandboxEnvironment(deps.config.analysis.allowedPackages);
      return withHeartbeat(() =>
        runToolStep(input, toolbox, { signal: cancellationSignal(), heartbeat: () => heartbeat(), environment }),
      );
    },

    async conversationRecord(input: { dir: string; events: NewEvent[] }): Promise<void> {
      await appendEvents(conversationLayout(input.dir), input.events);
    },

    async conversationCheckGrounding(input: CheckGroundingInput): Promise<CheckGroundingResult> {
      return checkAnswerGrounding(input);
    },

    /** Whether the turn saved the chart or table its question asks for; if not, the request to save it. */
    async conversationRequestedOutput(input: CheckGroundingInput): Promise<RequestedOutputResult> {
      return checkRequestedOutput(input);
    },

    /** Whether the answer states a number of its own, so that a second program is worth writing. */
    async conversationCrossCheckNeeded(input: CheckGroundingInput): Promise<boolean> {
      return crossCheckNeeded(input, { answerFromResult: speaksTextProtocol(deps) });
    },

    /** The answer against the second, independently written program's result: the verdict, recorded. */
    async conversationCrossCheck(input: CrossCheckInput): Promise<CrossCheckResult> {
      return crossCheckAnswer(input, { answerFromResult: speaksTextProtocol(deps) });
    },

    async conversationFinishTurn(input: FinishTurnInput): Promise<void> {
      await finishTurn(input, { answerFromResult: speaksTextProtocol(deps) });
    },

    async conversationDispose(input: { conversationId: string }): Promise<void> {
      await toolbox.dispose(input.conversationId);
    },
  };
}

function defaultToolbox(deps: WorkerDeps): Toolbox {
  return analysisToolbox(deps.config.analysis, deps.sandboxFactory);
}

/**
 * Conversations share the provider's rate limits with benchmark runs (per host and across hosts). The embedded models
 * have no native tool calling here (node-llama-cpp's does not see the JSON they write): they always speak the text protocol.
 */
function conversationProvider(deps: WorkerDeps): LlmProvider {
  const provider = providerFor(deps, deps.config.llm);
  return speaksTextProtocol(deps) ? new TextActionProvider(provider) : provider;
}

/** The conversation's model has no native tool calling here: the text protocol, and answers rebuilt from results. */
function speaksTextProtocol(deps: WorkerDeps): boolean {
  return deps.config.conversation.toolCalling === 'text' || usesLocalModel(deps.config.llm);
}
