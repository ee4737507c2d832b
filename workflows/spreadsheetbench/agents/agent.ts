import type { LlmTurnResult, UserMessageSpec } from '../../../activities/spreadsheetbench/llmTurn';
import type { ExecuteSolutionResult } from '../../../activities/spreadsheetbench/execute';
import type { PreparedTask } from '../../../activities/spreadsheetbench/task';
import type { TaskWorkflowInput } from '../../../contracts/run';
import type { SessionExecuteResult } from '../../../activities/spreadsheetbench/sessions';
import type { TokenUsage } from '../../../lib/llm/types';

/** What an agent (workflow-side orchestration of LLM and execution activities) can do; each call is one activity. */
export interface AgentContext {
  input: TaskWorkflowInput;
  prepared: PreparedTask;
  maxTurns: number;
  /** One LLM call in `stage`, appending to `conversation` at message index `turn`. */
  callModel(stage: string, conversation: string, turn: number, user: UserMessageSpec): Promise<LlmTurnResult>;
  /** Runs code on one test case in a fresh sandbox; the output (if any) becomes that test case's output. */
  execute(stage: string, testCase: number, code: string, label: string): Promise<ExecuteSolutionResult>;
  /** Max turns and revisions from the run manifest. */
  settings: { maxTurns: number; maxRevisions: number };
  /** One ledger stage around several activities (`round-3`, `validate`, …); tools charge LLM spend to it. */
  inStage<T>(stage: string, work: (tools: StageTools) => Promise<T>): Promise<T>;
}

/** What runs inside one ledger stage. */
export interface StageTools {
  callModel(conversation: string, turn: number, user: UserMessageSpec): Promise<LlmTurnResult>;
  /** Runs code on test case 1 in the conversation's persistent kernel (see activities/spreadsheetbench/sessions.ts). */
  executeInSession(conversation: string, round: number, code: string, label: string): Promise<SessionExecuteResult>;
  charge(usage: TokenUsage, costUsd: number): void;
  /** A model call made by another activity, inside the run's budget (granted, settled) and charged to this stage. */
  withinBudget<T extends { usage: TokenUsage; costUsd: number }>(callKey: string, call: () => Promise<T>): Promise<T>;
  /** Replaces the stage's outcome ('ok') with why it did not go as planned. */
  note(outcome: string): void;
}

export interface AgentOutcome {
  /** The final solution, re-run OJ-style on every test case the agent did not already execute. */
  solution: string;
  /** Name of the conversation that goes into the official conv log. */
  conversation: string;
  /** Test cases whose output the agent itself produced with `solution`. */
  executedTestCases: number[];
  /** Feedback of the last execution, appended to the official conversation. */
  lastFeedback?: string;
  /** Why the agent ended without a usable solution (no code, truncated reply, ...). */
  problem?: string;
}

export type Agent = (ctx: AgentContext) => Promise<AgentOutcome>;
