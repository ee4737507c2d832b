/**
 * The conversation event log's vocabulary (stable: add fields, never rename). One JSON object per line in
 * `<conversation>/events.jsonl`, numbered 1, 2, 3… The SSE stream of the API serves exactly these objects.
 */
import type { Pattern, TurnStatus } from '../../contracts/conversation';
import type { Grounding } from '../grounding/types';
import type { FileInfo, VisualizationOutput } from './types';

export const EVENT_TYPES = [
  'turn_started',
  'step',
  'code',
  'tool_call',
  'tool_result',
  'visualization',
  'file',
  'answer',
  'grounding',
  'usage',
  'error',
  'turn_ended',
] as const;

export type ConversationEventType = (typeof EVENT_TYPES)[number];

export type StepKind = 'think' | 'plan' | 'critique' | 'evaluate' | 'classify' | 'revise' | 'cross_check';

/** The data of each event type. */
export interface EventData {
  turn_started: { pattern: Pattern; text: string; files?: string[] };
  step: { stepId: string; kind: StepKind; text: string; agent?: string };
  /** `agent`: the transcript whose call ran it (absent in logs written before it was recorded). */
  code: { stepId: string; callId: string; language: 'python' | 'javascript'; code: string; agent?: string };
  tool_call: { stepId: string; callId: string; tool: string; args: unknown };
  tool_result: {
    stepId: string;
    callId: string;
    tool: string;
    ok: boolean;
    stdout?: string;
    stderr?: string;
    returnCode?: number;
    error?: string;
    files?: FileInfo[];
    durationMs: number;
    /** python_execute found its kernel lost: restored from the earlier cells, or reset (with the names gone). */
    restored?: { cells: number; turns: string[]; durationMs: number };
    stateReset?: boolean;
    lostVariables?: string[];
    notice?: string;
  };
  visualization: { output: VisualizationOutput };
  file: { file: FileInfo };
  answer: { text: string };
  /** The answer's numbers checked against the turn's tool outputs (offsets relative to `answerOffset`). */
  grounding: Grounding;
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  error: { message: string; where: 'model' | 'tool' | 'budget' | 'workflow' };
  turn_ended: { status: Exclude<TurnStatus, 'running'>; error?: string };
}

export interface ConversationEvent<T extends ConversationEventType = ConversationEventType> {
  seq: number;
  at: string;
  turnId?: string;
  type: T;
  data: EventData[T] & Record<string, unknown>;
  /** Idempotency key: an activity retried after a crash appends an event with the same key only once. */
  key?: string;
}

/** What a writer hands the log: the log numbers and timestamps it. */
export type NewEvent = {
  [T in ConversationEventType]: { type: T; turnId?: string; key: string; data: EventData[T] };
}[ConversationEventType];
