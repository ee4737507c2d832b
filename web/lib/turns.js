// Folds the conversation's event log (analysis/conversation/events.ts) into the turns the chat shows.
// Pure: the page and the unit tests use the same function. Events at or below `lastSeq` are ignored (replays after a reload or reconnect).
/** @import { EventData } from '../../analysis/conversation/events' */
/** @import { FileInfo, VisualizationOutput } from '../../analysis/conversation/types' */
/** @import { Grounding } from '../../analysis/grounding/types' */
/** @import { Pattern, TurnStatus } from '../../contracts/conversation' */
/** @import { LogEvent } from './events.js' */

/**
 * What a turn shows, in order: reasoning steps, code (alone, or with the tool call that ran it), tool calls with their
 * results, errors.
 * @typedef {{ type: 'step' } & Pick<EventData['step'], 'stepId' | 'kind' | 'text'>} StepItem
 * @typedef {Pick<EventData['code'], 'language' | 'code'>} CodeText
 * @typedef {{ type: 'code'; stepId: string; callId: string | undefined } & CodeText} CodeItem
 * @typedef {{
 *   type: 'tool';
 *   stepId: string;
 *   callId: string;
 *   tool: string;
 *   args: unknown;
 *   result: EventData['tool_result'] | undefined;
 *   code?: CodeText;
 * }} ToolItem
 * @typedef {{ type: 'error' } & EventData['error']} ErrorItem
 * @typedef {StepItem | CodeItem | ToolItem | ErrorItem} TurnItem
 */

/**
 * One turn as the chat shows it (`turnId` undefined only for events logged outside any turn).
 * @typedef {{
 *   turnId: string | undefined;
 *   status: TurnStatus;
 *   pattern: Pattern | '';
 *   text: string;
 *   startedAt: string;
 *   endedAt?: string;
 *   attached?: string[];
 *   items: TurnItem[];
 *   visualizations: VisualizationOutput[];
 *   files: FileInfo[];
 *   answer: string;
 *   usage: EventData['usage'] | null;
 *   error?: string;
 *   grounding?: Grounding;
 * }} Turn
 * @typedef {{ lastSeq: number; turns: Turn[] }} TurnsState
 */

/** @returns {TurnsState} */
export const emptyTurns = () => ({ lastSeq: 0, turns: [] });

/**
 * @param {TurnsState} state
 * @param {LogEvent} ev
 * @returns {TurnsState}
 */
export function applyEvent(state, ev) {
  if (ev.seq <= state.lastSeq) return state;
  const turns = state.turns.slice();
  const turnId = ev.turnId ?? turns[turns.length - 1]?.turnId;
  let index = turns.findIndex((t) => t.turnId === turnId);
  if (index < 0) {
    turns.push(newTurn(turnId, ev));
    index = turns.length - 1;
  }
  turns[index] = reduceTurn({ ...turns[index], items: turns[index].items.slice() }, ev);
  return { lastSeq: ev.seq, turns };
}

/**
 * @param {string | undefined} turnId
 * @param {LogEvent} ev
 * @returns {Turn}
 */
function newTurn(turnId, ev) {
  return {
    turnId,
    status: 'running',
    pattern: '',
    text: '',
    startedAt: ev.at,
    items: [],
    visualizations: [],
    files: [],
    answer: '',
    usage: null,
    error: undefined,
  };
}

/**
 * @param {Turn} turn a copy whose `items` the caller copied too
 * @param {LogEvent} ev
 * @returns {Turn}
 */
function reduceTurn(turn, ev) {
  const { type, data, at } = ev;
  switch (type) {
    case 'turn_started':
      return { ...turn, pattern: data.pattern, text: data.text ?? '', startedAt: at, attached: data.files ?? [] };
    case 'step':
      turn.items.push({ type: 'step', stepId: data.stepId, kind: data.kind, text: data.text });
      return turn;
    case 'code': {
      // code that belongs to a tool call (same callId) is shown with that call, before its result
      const i = data.callId ? turn.items.findIndex((it) => it.type === 'tool' && it.callId === data.callId) : -1;
      const call = turn.items[i];
      if (call?.type === 'tool') turn.items[i] = { ...call, code: { language: data.language, code: data.code } };
      else
        turn.items.push({
          type: 'code',
          stepId: data.stepId,
          callId: data.callId,
          language: data.language,
          code: data.code,
        });
      return turn;
    }
    case 'tool_call': {
      const i = turn.items.findIndex((it) => it.type === 'code' && it.callId && it.callId === data.callId);
      const code = i >= 0 ? turn.items.splice(i, 1)[0] : undefined;
      const text = code?.type === 'code' ? { language: code.language, code: code.code } : undefined;
      turn.items.push({
        type: 'tool',
        stepId: data.stepId,
        callId: data.callId,
        tool: data.tool,
        args: data.args,
        result: undefined,
        ...(text ? { code: text } : {}),
      });
      return turn;
    }
    case 'tool_result': {
      const i = turn.items.findIndex((it) => it.type === 'tool' && it.callId === data.callId);
      const call = turn.items[i];
      if (call?.type === 'tool') turn.items[i] = { ...call, result: data };
      else
        turn.items.push({
          type: 'tool',
          stepId: data.stepId,
          callId: data.callId,
          tool: data.tool,
          args: undefined,
          result: data,
        });
      return turn;
    }
    case 'visualization':
      return { ...turn, visualizations: [...turn.visualizations.filter((v) => v.id !== data.output.id), data.output] };
    case 'file':
      return { ...turn, files: [...turn.files.filter((f) => f.path !== data.file.path), data.file] };
    case 'answer':
      return { ...turn, answer: data.text };
    case 'grounding':
      return { ...turn, grounding: data };
    case 'usage':
      return {
        ...turn,
        usage: { inputTokens: data.inputTokens, outputTokens: data.outputTokens, costUsd: data.costUsd },
      };
    case 'error':
      turn.items.push({ type: 'error', message: data.message, where: data.where });
      return turn;
    case 'turn_ended':
      return { ...turn, status: data.status, error: data.error, endedAt: at };
    default:
      return turn; // event types added later are shown once the page knows them
  }
}

/** The running turn, if any. */
export const runningTurn = (/** @type {TurnsState} */ state) => state.turns.find((t) => t.status === 'running');

/**
 * Events arrive one message at a time (hundreds on a replay): `apply(events)` gets them in batches, one render per
 * batch. Returns [push(ev), cancel()].
 * @template E
 * @param {(events: E[]) => void} apply
 * @returns {[(ev: E) => void, () => void]}
 */
export function batched(apply, ms = 16) {
  /** @type {E[]} */
  let batch = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let flush;
  const push = (/** @type {E} */ ev) => {
    batch.push(ev);
    flush ??= setTimeout(() => {
      const events = batch;
      batch = [];
      flush = undefined;
      apply(events);
    }, ms);
  };
  return [push, () => clearTimeout(flush)];
}
