import { SECOND_PROGRAM_AGENT } from './crossCheckPrompts';
import type { ConversationEvent } from './events';
import { readEvents } from './eventLog';
import type { ConversationLayout } from './layout';

/** One code execution of a conversation, as its event log tells it (in the order the executions ended). */
export interface ExecutedCode {
  turnId: string;
  stepId: string;
  callId: string;
  language: 'python' | 'javascript';
  code: string;
  ok: boolean;
  /** python_execute's `workingDir` (workspace-relative), when the call gave one. */
  workingDir?: string;
  /** The ended call's `tool_result` event. */
  result: ConversationEvent<'tool_result'>;
  /** The transcript whose call ran it, when the log recorded it. */
  agent?: string;
}

/** Every code execution that ended (python_execute and node_execute), oldest first. */
export function executedCode(events: ConversationEvent[]): ExecutedCode[] {
  const key = (d: Record<string, unknown>) => `${String(d.stepId)}\0${String(d.callId)}`;
  const code = new Map<string, ConversationEvent<'code'>>();
  const args = new Map<string, unknown>();
  const out: ExecutedCode[] = [];
  for (const e of events) {
    if (e.type === 'code') code.set(key(e.data), e as ConversationEvent<'code'>);
    if (e.type === 'tool_call') args.set(key(e.data), e.data.args);
    if (e.type !== 'tool_result') continue;
    const c = code.get(key(e.data));
    if (!c || !e.turnId) continue;
    const workingDir = (args.get(key(e.data)) as { workingDir?: unknown } | undefined)?.workingDir;
    out.push({
      turnId: e.turnId,
      stepId: c.data.stepId,
      callId: c.data.callId,
      language: c.data.language,
      code: c.data.code,
      ok: Boolean(e.data.ok),
      ...(typeof workingDir === 'string' && workingDir ? { workingDir } : {}),
      result: e as ConversationEvent<'tool_result'>,
      ...(c.data.agent ? { agent: c.data.agent } : {}),
    });
  }
  return out;
}

/** The executions of the conversation's analysis: the cross-check's second programs left out (a check, not a step). */
export function analysisCode(events: ConversationEvent[]): ExecutedCode[] {
  return executedCode(events).filter((c) => c.agent !== SECOND_PROGRAM_AGENT);
}

/**
 * The Python cells that would rebuild the kernel's state: every earlier python_execute of the analysis that succeeded,
 * in order, but the call being made (a retried call may already have its own events in the log). The second programs
 * are self-contained (they load their data themselves) and define nothing the analysis uses: they are not re-run.
 */
export async function restorableCells(
  layout: ConversationLayout,
  current: { stepId: string; callId: string },
): Promise<Array<{ code: string; workingDir?: string; turnId: string; callId: string }>> {
  return analysisCode(await readEvents(layout))
    .filter((c) => c.ok && c.language === 'python' && !(c.stepId === current.stepId && c.callId === current.callId))
    .map((c) => ({
      code: c.code,
      turnId: c.turnId,
      callId: c.callId,
      ...(c.workingDir ? { workingDir: c.workingDir } : {}),
    }));
}
