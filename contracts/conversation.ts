/** Messages, queries and inputs of the conversation workflow (shared by the workflow, the API and the CLI). */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { TokenUsage } from '../lib/llm/usage';
import type { Failover } from './failover';

export const PATTERNS = [
  'auto',
  'direct',
  'react',
  'plan_execute',
  'reflection',
  'iterative',
  'tree_of_thoughts',
  'ensemble',
] as const;
export type Pattern = (typeof PATTERNS)[number];

export type TurnStatus = 'running' | 'completed' | 'cancelled' | 'failed';

/** A conversation's usage: the one token usage (lib/llm/usage.ts) with its cost beside it, flat as it is stored. */
export type Usage = TokenUsage & { costUsd: number };

export const ZERO_USAGE: Usage = { ...TokenUsage.zero(), costUsd: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return { ...TokenUsage.add(a, b), costUsd: a.costUsd + b.costUsd };
}

export interface ConversationSettings {
  maxMessageChars: number;
  /** Config `conversation.maxSteps`, under the name workflow histories recorded. */
  maxStepsPerTurn: number;
  budgetTokens?: number;
  budgetUsd?: number;
  budgetSteps?: number;
  maxRepeatedFailures: number;
  branches: number;
  turnsPerRun: number;
  /** Config `conversation.crossCheck`; absent in inputs recorded before it (their generations never cross-check). */
  crossCheck?: boolean;
}

export interface TurnSummary {
  turnId: string;
  status: TurnStatus;
  pattern: Pattern;
  /** The pattern JIT chose, for 'auto' turns. */
  chosenPattern?: Pattern;
  startedAt: string;
  endedAt?: string;
  usage: Usage;
  steps: number;
  toolCalls: number;
  error?: string;
}

export interface ConversationState {
  turns: TurnSummary[];
  usage: Usage;
  steps: number;
  turnCount: number;
}

export interface ConversationWorkflowInput {
  conversationId: string;
  /** The conversation folder (artifact store). */
  dir: string;
  pattern: Pattern;
  settings: ConversationSettings;
  /** A conversation for one request: this message is its only turn, after which it ends (the analysis suite). */
  request?: SendMessageInput;
  /** State carried over continue-as-new. */
  carried?: ConversationState;
  /** How soon a dead worker's work moves elsewhere (config `temporal.failover`); absent: the workflows' timeouts. */
  failover?: Failover;
}

export interface SendMessageInput {
  text: string;
  pattern?: Pattern;
  /** Workspace-relative paths of files the message refers to. */
  files?: string[];
}

export interface ConversationSummary extends ConversationState {
  conversationId: string;
  status: 'idle' | 'running' | 'closed';
  pattern: Pattern;
  currentTurnId?: string;
}

export const sendMessageUpdate = defineUpdate<{ turnId: string }, [SendMessageInput]>('sendMessage');
export const cancelTurnSignal = defineSignal('cancelTurn');
export const closeConversationSignal = defineSignal('closeConversation');
export const summaryQuery = defineQuery<ConversationSummary>('summary');
