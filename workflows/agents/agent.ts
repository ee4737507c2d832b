import type { LlmTurnResult, UserMessageSpec } from '../../activities/llm';
import type { ExecuteSolutionResult } from '../../activities/execute';
import type { PreparedTask } from '../../activities/task';
import type { TaskWorkflowInput } from '../contracts';

/** What an agent (workflow-side orchestration of LLM and execution activities) can do; each call is one activity. */
export interface AgentContext {
  input: TaskWorkflowInput;
  prepared: PreparedTask;
  maxTurns: number;
  /** One LLM call in `stage`, appending to `conversation` at message index `turn`. */
  callModel(stage: string, conversation: string, turn: number, user: UserMessageSpec): Promise<LlmTurnResult>;
  /** Runs code on one test case in a fresh sandbox; the output (if any) becomes that test case's output. */
  execute(stage: string, testCase: number, code: string, label: string): Promise<ExecuteSolutionResult>;
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
