import type { ToolSpec } from '../../lib/llm/types';

/**
 * What the agent needs from its tools, shaped like the tools module's contract (`analysis/tools`: toolSpecs, runTool,
 * disposeConversationTools), so the worker can plug either that module or the sandbox-only fallback in.
 */
export interface ToolOutcome<R = unknown> {
  ok: boolean;
  result?: R;
  error?: string;
  durationMs: number;
}

export interface ToolRunContext {
  conversationId: string;
  workspaceDir: string;
  signal?: AbortSignal;
  heartbeat?: (details?: unknown) => void;
  /** The conversation's earlier successful Python cells (python_execute restores a lost kernel from them). */
  pythonHistory?: () => Promise<Array<{ code: string; workingDir?: string; turnId: string; callId: string }>>;
}

export interface Toolbox {
  specs(names?: string[]): ToolSpec[];
  /** Never throws for the model's mistakes (unknown tool, invalid arguments, failing code): those are outcomes. */
  run(name: string, rawArgs: unknown, ctx: ToolRunContext): Promise<ToolOutcome>;
  dispose(conversationId: string): Promise<void>;
}

/** The fields of a code-execution result the event log and debug record show (python_execute / node_execute). */
export interface ExecutionLike {
  /** Code executions: whether the code ran without error. */
  success?: boolean;
  stdout?: string;
  stderr?: string;
  returnCode?: number;
  files?: Array<{ filename: string; path: string; type: string; size: number }>;
  visualizations?: unknown[];
  /** python_execute: earlier state lost and not restored, what was restored, and what the model is told. */
  stateReset?: boolean;
  restored?: { cells: number; turns: string[]; durationMs: number };
  lostVariables?: string[];
  notice?: string;
}
