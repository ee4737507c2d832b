/** The debug record of one step (API contract `DebugStep`): stored as `<conversation>/debug/<stepId>.json`. */
import type { Grounding } from '../grounding/types';

export interface DebugToolCall {
  callId: string;
  tool: string;
  args: unknown;
  result: unknown;
  ok: boolean;
  durationMs: number;
  /** Code executions: the sandbox's Python and package versions. */
  sandbox?: { python?: string; packages?: Record<string, string> };
}

export interface DebugStep {
  stepId: string;
  turnId: string;
  index: number;
  kind: string;
  agent?: string;
  model?: string;
  prompt?: Array<{ role: string; content: string; toolCalls?: unknown; toolCallId?: string }>;
  /** `ignoredToolCalls`: calls the model returned in a step offered no tools (never run). */
  reply?: { content: string; toolCalls?: unknown; ignoredToolCalls?: unknown };
  toolCalls?: DebugToolCall[];
  code?: string;
  stdout?: string;
  stderr?: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  cached?: boolean;
  timing: { modelMs: number; executionMs: number; toolsMs: number; waitingMs: number };
  sandbox?: { python?: string; packages?: Record<string, string> };
  /** A turn's grounding record (kind `grounding`): each number of its answer, grounded with its source or not. */
  grounding?: Grounding;
}
