/** The API's views of a conversation, built from its info file and event log (the workflow holds no large state). */
import type { ConversationEvent } from './events';
import type { TurnStatus } from '../../contracts/conversation';
import type { Grounding } from '../grounding/types';
import type { ConversationInfoFile } from './info';
import { type FileInfo, type VisualizationOutput } from './types';
import { addUsage, ZERO_USAGE, type Pattern, type Usage } from '../../contracts/conversation';

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
  owner?: string;
  forkedFrom?: { id: string; turnId?: string };
}

export interface ConversationMessage {
  role: 'user' | 'assistant';
  text: string;
  turnId: string;
  files?: FileInfo[];
  visualizations?: VisualizationOutput[];
  /** Assistant messages: each number of the answer, found in the turn's tool outputs (with its source) or not. */
  grounding?: Grounding;
}

export interface TurnDetail extends Usage {
  turnId: string;
  status: TurnStatus;
  pattern: Pattern;
  startedAt: string;
  endedAt?: string;
  error?: string;
}

export interface ConversationView extends ConversationInfo {
  messages: ConversationMessage[];
  turnsDetail: TurnDetail[];
  files: FileInfo[];
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  lastEventSeq: number;
}

export function infoView(
  info: ConversationInfoFile,
  events: ConversationEvent[],
  links: { workflowId: string; temporalUiUrl?: string },
): ConversationInfo {
  const turns = turnDetails(events);
  const lastAt = events.at(-1)?.at;
  return {
    id: info.id,
    title: info.title,
    createdAt: info.createdAt,
    updatedAt: lastAt && lastAt > info.updatedAt ? lastAt : info.updatedAt,
    pattern: info.pattern,
    status: info.deleted ? 'closed' : turns.some((t) => t.status === 'running') ? 'running' : 'idle',
    turns: turns.length,
    ...(info.owner !== undefined ? { owner: info.owner } : {}),
    ...(info.forkedFrom ? { forkedFrom: info.forkedFrom } : {}),
    ...links,
  };
}

export function conversationView(
  info: ConversationInfo,
  events: ConversationEvent[],
  files: FileInfo[],
): ConversationView {
  const turnsDetail = turnDetails(events);
  const total = turnsDetail.reduce<Usage>((sum, t) => addUsage(sum, t), ZERO_USAGE);
  return { ...info, messages: messagesOf(events), turnsDetail, files, ...total, lastEventSeq: events.at(-1)?.seq ?? 0 };
}

function turnDetails(events: ConversationEvent[]): TurnDetail[] {
  const turns = new Map<string, TurnDetail>();
  for (const e of events) {
    if (!e.turnId) continue;
    if (e.type === 'turn_started') {
      turns.set(e.turnId, {
        turnId: e.turnId,
        status: 'running',
        pattern: e.data.pattern as Pattern,
        startedAt: e.at,
        ...ZERO_USAGE,
      });
      continue;
    }
    const turn = turns.get(e.turnId);
    if (!turn) continue;
    if (e.type === 'usage')
      Object.assign(turn, {
        inputTokens: e.data.inputTokens,
        outputTokens: e.data.outputTokens,
        costUsd: e.data.costUsd,
      });
    if (e.type === 'turn_ended')
      Object.assign(turn, { status: e.data.status, endedAt: e.at, ...(e.data.error ? { error: e.data.error } : {}) });
  }
  return [...turns.values()];
}

function messagesOf(events: ConversationEvent[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  const files = new Map<string, Map<string, FileInfo>>();
  const charts = new Map<string, Map<string, VisualizationOutput>>();
  for (const e of events) {
    const turnId = e.turnId ?? '';
    if (e.type === 'turn_started') messages.push({ role: 'user', text: String(e.data.text), turnId });
    if (e.type === 'file') mapOf(files, turnId).set((e.data.file as FileInfo).path, e.data.file as FileInfo);
    if (e.type === 'visualization')
      mapOf(charts, turnId).set((e.data.output as VisualizationOutput).id, e.data.output as VisualizationOutput);
    if (e.type === 'answer') {
      const turnFiles = [...(files.get(turnId)?.values() ?? [])];
      const turnCharts = [...(charts.get(turnId)?.values() ?? [])];
      messages.push({
        role: 'assistant',
        text: String(e.data.text),
        turnId,
        ...(turnFiles.length ? { files: turnFiles } : {}),
        ...(turnCharts.length ? { visualizations: turnCharts } : {}),
      });
    }
    if (e.type === 'grounding') {
      const answer = [...messages].reverse().find((m) => m.role === 'assistant' && m.turnId === turnId);
      if (answer) answer.grounding = e.data as Grounding;
    }
  }
  return messages;
}

function mapOf<V>(maps: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let m = maps.get(key);
  if (!m) maps.set(key, (m = new Map()));
  return m;
}
