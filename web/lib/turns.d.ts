import type { ConversationEvent, FileInfo, VisualizationOutput } from '../api-types';
export interface TurnItem {
  type: 'step' | 'code' | 'tool' | 'error';
  [k: string]: any;
}
export interface Turn {
  turnId: string;
  status: string;
  pattern: string;
  text: string;
  startedAt: string;
  endedAt?: string;
  items: TurnItem[];
  visualizations: VisualizationOutput[];
  files: FileInfo[];
  answer: string;
  usage: { inputTokens: number; outputTokens: number; costUsd: number } | null;
  error?: string;
  grounding?: {
    answerOffset: number;
    numbers: Array<{ text: string; grounded: boolean }>;
    total: number;
    grounded: number;
    note?: string;
  };
}
export interface TurnsState {
  lastSeq: number;
  turns: Turn[];
}
export function emptyTurns(): TurnsState;
export function applyEvent(state: TurnsState, ev: ConversationEvent): TurnsState;
export function runningTurn(state: TurnsState): Turn | undefined;
export function batched<E>(apply: (events: E[]) => void, ms?: number): [(ev: E) => void, () => void];
