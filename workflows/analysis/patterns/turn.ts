import { model, tools } from '../activities';
import type { StepKind } from '../../../analysis/conversation/events';
import { SYSTEM_PROMPT } from '../../../analysis/conversation/prompts';
import type { ModelStepResult, ToolStepResult } from '../../../analysis/conversation/steps';
import { addUsage, ZERO_USAGE, type Usage } from '../../../contracts/conversation';
import type { ConversationSettings } from '../../../contracts/conversation';
import { callKeyOf } from '../../../lib/llm/callKey';

/** Why a turn stopped early: the message shown in the conversation. */
export class TurnStop extends Error {
  constructor(
    message: string,
    readonly where: 'budget' | 'tool' | 'model',
  ) {
    super(message);
  }
}

/** Where a turn's answer is: a reply in one agent's transcript. */
export interface AnswerRef {
  agent: string;
  index: number;
  prefix?: string;
}

/** Spent before this turn, and the limits that bound the whole conversation. */
export interface Spent {
  usage: Usage;
  steps: number;
}

/**
 * One turn's bookkeeping, shared by every pattern: numbers the steps, counts usage against the budgets, and makes the
 * agents (transcripts) the patterns talk to. Only ids, counts and short previews live here; everything else is in files.
 */
export class Turn {
  usage: Usage = ZERO_USAGE;
  steps = 0;
  toolCalls = 0;
  private nextIndex = 0;

  constructor(
    readonly ref: { dir: string; conversationId: string; turnId: string },
    readonly text: string,
    readonly settings: ConversationSettings,
    private readonly before: Spent,
  ) {}

  agent(name: string): Agent {
    return new Agent(this, name);
  }

  /** The agent that gave `answer`, to go on from that reply in its transcript. */
  continueAgent(answer: AnswerRef): Agent {
    const agent = new Agent(this, answer.agent);
    agent.length = answer.index + 1;
    return agent;
  }

  /** Checks the budgets, then reserves a step number (synchronously, so parallel branches get deterministic ids). */
  reserveStep(): { stepId: string; index: number } {
    const s = this.settings;
    const usage = addUsage(this.before.usage, this.usage);
    if (this.steps >= s.maxStepsPerTurn)
      throw new TurnStop(`stopped after ${this.steps} model steps (the per-turn limit)`, 'budget');
    if (s.budgetSteps !== undefined && this.before.steps + this.steps >= s.budgetSteps)
      throw new TurnStop(`conversation step budget of ${s.budgetSteps} used up`, 'budget');
    if (s.budgetTokens !== undefined && usage.inputTokens + usage.outputTokens >= s.budgetTokens)
      throw new TurnStop(`conversation token budget of ${s.budgetTokens} used up`, 'budget');
    if (s.budgetUsd !== undefined && usage.costUsd >= s.budgetUsd)
      throw new TurnStop(`conversation budget of $${s.budgetUsd} used up`, 'budget');
    this.steps++;
    const index = this.nextIndex++;
    return { stepId: `${this.ref.turnId}-s${index}`, index };
  }

  account(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }
}

/** One transcript within the turn: the main agent, a Tree-of-Thoughts branch, an Ensemble member, the classifier. */
export class Agent {
  length = 0;
  /** Preview of the last reply (answers compared by Ensemble's judge). */
  lastText = '';
  private failures = new Map<string, number>();

  constructor(
    readonly turn: Turn,
    readonly name: string,
  ) {}

  /** A model step; the first one seeds the transcript with the system prompt (plus history) and the user's request. */
  async step(
    kind: 'act' | StepKind,
    opts: {
      instruction?: string;
      tools?: 'auto' | 'required' | 'none';
      /** The first step's system prompt and request, instead of the analyst's prompt and the user's message. */
      seed?: { system: string; request: string };
    } = {},
  ): Promise<ModelStepResult> {
    const { stepId, index } = this.turn.reserveStep();
    const add: Array<{ role: 'system' | 'user'; text: string; withHistory?: boolean }> = [];
    if (this.length === 0)
      add.push(
        { role: 'system', text: opts.seed?.system ?? SYSTEM_PROMPT, withHistory: true },
        { role: 'user', text: opts.seed?.request ?? this.turn.text },
      );
    if (opts.instruction) add.push({ role: 'user', text: opts.instruction });
    const result = await model.conversationModelStep({
      ...this.turn.ref,
      agent: this.name,
      stepId,
      index,
      kind,
      length: this.length,
      add,
      tools: opts.tools ?? (kind === 'act' ? 'auto' : 'none'),
      turnUsage: this.turn.usage,
      callKey: callKeyOf([this.turn.ref.conversationId, stepId, this.name]),
    });
    this.length = result.length;
    this.lastText = result.text;
    this.turn.account(result.usage);
    return result;
  }

  /** Runs the tool calls of a reply in order; the same failing call made too often stops the turn. */
  async runTools(reply: ModelStepResult): Promise<ToolStepResult[]> {
    const replyIndex = this.length - 1;
    const results: ToolStepResult[] = [];
    for (const call of reply.toolCalls) {
      const result = await tools.conversationToolCall({
        ...this.turn.ref,
        agent: this.name,
        stepId: reply.stepId,
        callId: call.callId,
        replyIndex,
        toolIndex: this.length,
      });
      this.length++;
      this.turn.toolCalls++;
      results.push(result);
      if (!result.ok) this.countFailure(call.tool, result);
    }
    return results;
  }

  /** The reply just received, as the turn's answer. */
  answer(prefix?: string): AnswerRef {
    return { agent: this.name, index: this.length - 1, prefix };
  }

  private countFailure(tool: string, result: ToolStepResult): void {
    const n = (this.failures.get(result.signature) ?? 0) + 1;
    this.failures.set(result.signature, n);
    if (n >= this.turn.settings.maxRepeatedFailures) {
      throw new TurnStop(
        `stopped: the model made the same failing ${tool} call ${n} times (last error: ${result.error ?? 'unknown'})`,
        'tool',
      );
    }
  }
}
