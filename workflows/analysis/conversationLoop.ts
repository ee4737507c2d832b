import {
  allHandlersFinished,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { ZERO_USAGE, addUsage, type Pattern } from '../../contracts/conversation';
import { patternProblem, textProblem } from '../../analysis/conversation/messages';
import { bookkeeping } from './activities';
import {
  cancelTurnSignal,
  closeConversationSignal,
  sendMessageUpdate,
  summaryQuery,
  type ConversationState,
  type ConversationWorkflowInput,
  type SendMessageInput,
  type TurnSummary,
} from '../../contracts/conversation';
import { classify, Turn, TurnStop, type AnswerRef } from './patterns';
import { NO_TOOL_NOTE } from './patterns/notes';

interface PendingTurn {
  turnId: string;
  text: string;
  pattern: Pattern;
  files: string[];
}

/** Most recent turn summaries kept in the state (older ones stay in the event log). */
const KEPT_TURNS = 50;

/** How a turn's pattern runs: the one thing a conversation generation changes (`conversation.ts`, `legacy/`). */
export type RunPattern = (pattern: Pattern, turn: Turn, summary: TurnSummary, dir: string) => Promise<AnswerRef>;

/**
 * A conversation: user messages arrive as the `sendMessage` update (validated, refused with a reason), each runs as a turn
 * of model and tool activities under its pattern, `cancelTurn` cancels the running turn, `summary` answers with the small
 * state. Prompts, replies, outputs and files live in the conversation folder; this workflow holds ids and counts.
 * A conversation started with a `request` runs that one message as its turn and ends, returning its state (its
 * parent reads the turn from the child's result). Shared by every generation of the `conversation` workflow.
 */
export async function converse(input: ConversationWorkflowInput, runPattern: RunPattern): Promise<ConversationState> {
  const state: ConversationState = input.carried ?? { turns: [], usage: ZERO_USAGE, steps: 0, turnCount: 0 };
  // A conversation made for one request (the analysis suite's) starts with it as its first turn.
  let pending: PendingTurn | undefined =
    input.request && !input.carried ? pendingTurn(input.request, input, state) : undefined;
  let running: { turnId: string; scope?: CancellationScope } | undefined;
  let closed = false;
  let turnsThisRun = 0;

  setHandler(
    sendMessageUpdate,
    (msg: SendMessageInput) => {
      pending = pendingTurn(msg, input, state);
      return { turnId: pending.turnId };
    },
    {
      validator: (msg: SendMessageInput) =>
        validateMessage(msg, input, { busy: running?.turnId ?? pending?.turnId, closed }),
    },
  );
  setHandler(cancelTurnSignal, () => running?.scope?.cancel());
  setHandler(closeConversationSignal, () => {
    closed = true;
    running?.scope?.cancel();
  });
  setHandler(summaryQuery, () => ({
    ...state,
    conversationId: input.conversationId,
    status: closed ? 'closed' : running || pending ? 'running' : 'idle',
    pattern: input.pattern,
    currentTurnId: running?.turnId ?? pending?.turnId,
  }));

  for (;;) {
    await condition(() => pending !== undefined || closed);
    if (closed && !pending) break;
    const turn = pending!;
    pending = undefined;
    running = { turnId: turn.turnId };
    await runTurn(turn, input, state, running, runPattern);
    running = undefined;
    turnsThisRun++;
    if (closed || input.request) break;
    if (turnsThisRun >= input.settings.turnsPerRun || workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      if (!pending)
        await continueAsNew<(input: ConversationWorkflowInput) => Promise<ConversationState>>({
          ...input,
          carried: state,
        });
    }
  }
  await bookkeeping.conversationDispose({ conversationId: input.conversationId });
  return state;
}

function validateMessage(
  msg: SendMessageInput,
  input: ConversationWorkflowInput,
  now: { busy?: string; closed: boolean },
): void {
  if (input.request) throw new Error('this conversation answers one request and takes no messages');
  if (now.closed) throw new Error('the conversation is closed');
  const text = textProblem(msg, input.settings);
  if (text) throw new Error(text);
  if (now.busy) throw new Error(`turn ${now.busy} is still running: wait for it to end or cancel it`);
  const pattern = patternProblem(msg);
  if (pattern) throw new Error(pattern);
}

/** A message as the turn it becomes. */
function pendingTurn(msg: SendMessageInput, input: ConversationWorkflowInput, state: ConversationState): PendingTurn {
  return {
    turnId: `t${++state.turnCount}`,
    text: msg.text.trim(),
    pattern: msg.pattern ?? input.pattern,
    files: msg.files ?? [],
  };
}

async function runTurn(
  p: PendingTurn,
  input: ConversationWorkflowInput,
  state: ConversationState,
  running: { scope?: CancellationScope },
  runPattern: RunPattern,
): Promise<void> {
  const summary: TurnSummary = {
    turnId: p.turnId,
    status: 'running',
    pattern: p.pattern,
    startedAt: new Date().toISOString(),
    usage: ZERO_USAGE,
    steps: 0,
    toolCalls: 0,
  };
  state.turns = [...state.turns, summary].slice(-KEPT_TURNS);
  const ref = { dir: input.dir, conversationId: input.conversationId, turnId: p.turnId };
  const filesNote = p.files.length ? `\n\n(Files: ${p.files.join(', ')})` : '';
  const turn = new Turn(ref, `${p.text}${filesNote}`, input.settings, { usage: state.usage, steps: state.steps });
  await bookkeeping.conversationRecord({
    dir: input.dir,
    events: [
      {
        type: 'turn_started',
        turnId: p.turnId,
        key: `${p.turnId}:started`,
        data: { pattern: p.pattern, text: p.text, ...(p.files.length ? { files: p.files } : {}) },
      },
    ],
  });
  let answer: AnswerRef | undefined;
  let error: { message: string; where: 'model' | 'tool' | 'budget' | 'workflow' } | undefined;
  const scope = new CancellationScope();
  running.scope = scope;
  try {
    answer = await scope.run(() => runPattern(p.pattern, turn, summary, input.dir));
    if (turn.toolCalls === 0) answer = { ...answer, prefix: NO_TOOL_NOTE };
    summary.status = 'completed';
  } catch (err) {
    if (isCancellation(err)) summary.status = 'cancelled';
    else {
      summary.status = 'failed';
      error =
        err instanceof TurnStop
          ? { message: err.message, where: err.where }
          : { message: messageOf(err), where: 'workflow' };
    }
  }
  Object.assign(summary, {
    endedAt: new Date().toISOString(),
    usage: turn.usage,
    steps: turn.steps,
    toolCalls: turn.toolCalls,
    error: error?.message,
  });
  state.usage = addUsage(state.usage, turn.usage);
  state.steps += turn.steps;
  await CancellationScope.nonCancellable(() =>
    bookkeeping.conversationFinishTurn({
      dir: input.dir,
      turnId: p.turnId,
      status: summary.status as 'completed',
      error: error?.message,
      errorWhere: error?.where,
      answer,
      usage: turn.usage,
    }),
  );
}

/** JIT (`auto`): the classify step chooses the pattern; the choice is kept in the turn's summary and shown as a step. */
export async function choosePattern(turn: Turn, summary: TurnSummary, dir: string): Promise<Exclude<Pattern, 'auto'>> {
  const choice = await classify(turn);
  summary.chosenPattern = choice.pattern;
  await bookkeeping.conversationRecord({
    dir,
    events: [
      {
        type: 'step',
        turnId: summary.turnId,
        key: `${summary.turnId}:chosen`,
        data: { stepId: `${summary.turnId}-jit`, kind: 'classify', text: choice.note },
      },
    ],
  });
  return choice.pattern;
}

/** A failed activity's cause (e.g. the model's HTTP error), not Temporal's wrapper text. */
function messageOf(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  while (e?.cause && typeof e.cause === 'object') e = e.cause;
  return e?.message ?? String(err);
}
