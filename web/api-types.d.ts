// The analysis API contract (/work/briefs/api-contract.md) as the web app and its tests see it.
export type Pattern =
  'auto' | 'direct' | 'react' | 'plan_execute' | 'reflection' | 'iterative' | 'tree_of_thoughts' | 'ensemble';
export interface ConversationInfo {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  pattern: Pattern;
  status: 'idle' | 'running' | 'closed';
  turns: number;
  workflowId: string;
  temporalUiUrl?: string;
}
export interface FileInfo {
  filename: string;
  path: string;
  type: string;
  size: number;
}
export interface VisualizationOutput {
  id: string;
  type: 'table' | 'line_chart' | 'bar_chart' | 'scatter' | 'pie_chart' | 'image' | 'vega_lite';
  title?: string;
  dataFile?: string;
  config?: {
    columns?: string[];
    maxRows?: number;
    xColumn?: string;
    yColumn?: string | string[];
    xLabel?: string;
    yLabel?: string;
    groupBy?: string;
    labelColumn?: string;
    valueColumn?: string;
  };
  spec?: unknown;
}
export interface TurnDetail {
  turnId: string;
  status: 'running' | 'completed' | 'cancelled' | 'failed';
  pattern: Pattern;
  startedAt: string;
  endedAt?: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  error?: string;
}
export interface Grounding {
  answerOffset: number;
  total: number;
  grounded: number;
  inCode: number;
  produced: number;
  note?: string;
  numbers: Array<{
    text: string;
    value: number;
    start: number;
    end: number;
    grounded: boolean;
    source?: {
      kind: string;
      tool?: string;
      stepId?: string;
      callId?: string;
      file?: string;
      line?: number;
      excerpt: string;
    };
  }>;
}
export interface ConversationView extends ConversationInfo {
  messages: Array<{
    role: 'user' | 'assistant';
    text: string;
    turnId: string;
    files?: FileInfo[];
    visualizations?: VisualizationOutput[];
    grounding?: Grounding;
  }>;
  turnsDetail: TurnDetail[];
  files: FileInfo[];
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  lastEventSeq: number;
}
export type EventType =
  | 'turn_started'
  | 'step'
  | 'code'
  | 'tool_call'
  | 'tool_result'
  | 'visualization'
  | 'file'
  | 'answer'
  | 'grounding'
  | 'usage'
  | 'error'
  | 'turn_ended';
export interface ConversationEvent {
  seq: number;
  at: string;
  turnId?: string;
  type: EventType;
  data: Record<string, unknown>;
}
export interface DebugStep {
  stepId: string;
  turnId: string;
  index: number;
  kind: string;
  model?: string;
  prompt?: Array<{ role: string; content: string; toolCalls?: unknown; toolCallId?: string }>;
  reply?: { content: string; toolCalls?: unknown };
  toolCalls?: Array<{ callId: string; tool: string; args: unknown; result: unknown; ok: boolean; durationMs: number }>;
  code?: string;
  stdout?: string;
  stderr?: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  timing: { modelMs: number; executionMs: number; toolsMs: number; waitingMs: number };
  sandbox?: { python?: string; packages?: Record<string, string> };
}
