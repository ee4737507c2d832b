/** Inputs and results of the conversation's activities (pure types: the workflow imports them). */
import type { StepKind } from './events';
import type { Usage } from '../../contracts/conversation';

export interface StepRef {
  dir: string;
  conversationId: string;
  turnId: string;
  /** The transcript within the turn: 'main', or a branch / ensemble member. */
  agent: string;
}

export interface ModelStepInput extends StepRef {
  stepId: string;
  /** Step number within the turn (debug record order). */
  index: number;
  /** 'act' may call tools and its text is a candidate answer; the other kinds are reasoning shown as `step` events. */
  kind: 'act' | StepKind;
  /** Messages already in the transcript. */
  length: number;
  /** Messages written at `length`, `length+1`… before the call. A `system` one marked withHistory gets earlier turns and the file list. */
  add?: Array<{ role: 'system' | 'user'; text: string; withHistory?: boolean }>;
  tools: 'auto' | 'required' | 'none';
  /** Cumulative usage of the turn before this step (the step emits the new cumulative `usage` event). */
  turnUsage: Usage;
  callKey: string;
}

export interface ModelStepResult {
  stepId: string;
  /** The reply's text, cut to a preview (the whole reply stays in the transcript). */
  text: string;
  toolCalls: Array<{ callId: string; tool: string }>;
  /** Transcript length after the reply. */
  length: number;
  usage: Usage;
  finishReason: string;
}

export interface ToolStepInput extends StepRef {
  stepId: string;
  callId: string;
  /** Transcript index of the assistant message that made the call; the tool message goes at `toolIndex`. */
  replyIndex: number;
  toolIndex: number;
}

export interface ToolStepResult {
  ok: boolean;
  error?: string;
  /** Same tool + same arguments → same signature (loop detection). */
  signature: string;
  /** The code ran and failed (an outcome, not an error of the call); absent in results recorded before it existed. */
  codeFailed?: boolean;
}

export interface FinishTurnInput {
  dir: string;
  turnId: string;
  status: 'completed' | 'cancelled' | 'failed';
  error?: string;
  errorWhere?: 'model' | 'tool' | 'budget' | 'workflow';
  /** Where the answer is: a transcript message (the final act step's reply). */
  answer?: { agent: string; index: number; prefix?: string };
  usage: Usage;
}

/** The JIT pattern's check of an answer's numbers before the turn ends (the `revise` step). */
export interface CheckGroundingInput {
  dir: string;
  conversationId: string;
  turnId: string;
  answer: { agent: string; index: number; prefix?: string };
}

export interface CheckGroundingResult {
  total: number;
  /** The numbers (as written) not found in the turn's tool outputs; empty when all are. */
  ungrounded: string[];
  /**
   * The request to revise, with its evidence, when the answer has unfound numbers or is found wrong (the operation does
   * not fit the question, its numbers disagree with the table the turn saved). Absent in checks recorded before it
   * existed: those revise on `ungrounded` alone.
   */
  revision?: string;
  /**
   * The revision must run code first: the operation was wrong (the numbers in hand answer another question), or its
   * unfound numbers have nothing computed to be answered from (no saved table holding a value, nothing printed).
   */
  recompute?: boolean;
}

/** Whether the turn saved the chart or table its question asks for (`conversationRequestedOutput`). */
export interface RequestedOutputResult {
  /** When it saved none: the request to save it (the workflow asks once). */
  instruction?: string;
}

/** The cross-check of an answer against the second program (`conversationCrossCheck`). */
export interface CrossCheckInput extends CheckGroundingInput {
  /** 1: the answer the pattern gave; 2: the answer revised after a disagreement. */
  round: number;
}

export interface CrossCheckResult {
  verdict: 'agree' | 'disagree' | 'inconclusive';
  /** When the programs disagree and the operation check trusts one of them: the answer to show is that one's. */
  use?: 'first' | 'second';
  /**
   * In the first round, the request to revise, with the evidence: when they disagree and nothing picks one, or when
   * they agree but the answer leaves out values the question asks for (the second program printed them).
   */
  revision?: string;
}

export const PREVIEW_CHARS = 4_000;
