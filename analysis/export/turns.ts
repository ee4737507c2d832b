import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { analysisCode, executedCode, type ExecutedCode } from '../conversation/codeHistory';
import type { DebugToolCall } from '../conversation/debug';
import type { ConversationEvent } from '../conversation/events';
import type { ConversationLayout } from '../conversation/layout';
import type { VisualizationOutput } from '../conversation/types';
import type { Grounding } from '../grounding/types';

/** What an export shows of one tool call that ran cleanly, in the order the calls ended. */
export type ExportItem =
  | { kind: 'python'; exec: ExecutedCode; outputs: VisualizationOutput[] }
  | { kind: 'javascript'; exec: ExecutedCode }
  | { kind: 'fetch'; url: string; file: string }
  | { kind: 'write'; path: string; content: string };

export interface ExportTurn {
  turnId: string;
  question: string;
  answer?: string;
  grounding?: Grounding;
  status: string;
  items: ExportItem[];
  /** Code executions that failed (left out: a notebook of them would not run). */
  failed: number;
}

/** A conversation's finished turns as an export sees them: question, the calls that succeeded, answer. */
export async function exportTurns(layout: ConversationLayout, events: ConversationEvent[]): Promise<ExportTurn[]> {
  const keyOf = (c: { stepId: string; callId: string }) => `${c.stepId}\0${c.callId}`;
  const code = new Map(analysisCode(events).map((c) => [keyOf(c), c]));
  // The cross-check's second programs are a check, not a step of the analysis: the export leaves them out.
  const checks = new Set(
    executedCode(events)
      .filter((c) => !code.has(keyOf(c)))
      .map(keyOf),
  );
  const calls = new Map<string, ConversationEvent<'tool_call'>>();
  const turns = new Map<string, ExportTurn>();
  const fetchedFiles = await fetchedFilesOf(layout);
  for (const e of events) {
    const turn = e.turnId ? turns.get(e.turnId) : undefined;
    if (e.type === 'turn_started' && e.turnId)
      turns.set(e.turnId, { turnId: e.turnId, question: String(e.data.text), status: 'running', items: [], failed: 0 });
    if (!turn) continue;
    if (e.type === 'tool_call') calls.set(`${e.data.stepId}\0${e.data.callId}`, e as ConversationEvent<'tool_call'>);
    if (e.type === 'answer') turn.answer = String(e.data.text);
    if (e.type === 'grounding') turn.grounding = e.data as Grounding;
    if (e.type === 'turn_ended') turn.status = String(e.data.status);
    if (e.type === 'visualization') attachOutput(turn, e);
    if (e.type !== 'tool_result') continue;
    const key = `${e.data.stepId}\0${e.data.callId}`;
    if (checks.has(key)) continue;
    const exec = code.get(key);
    if (exec && !exec.ok) turn.failed++;
    else if (exec)
      turn.items.push(
        exec.language === 'python' ? { kind: 'python', exec, outputs: [] } : { kind: 'javascript', exec },
      );
    else if (e.data.ok) pushToolItem(turn, calls.get(key), fetchedFiles.get(key));
  }
  return [...turns.values()].filter((t) => t.status !== 'running');
}

/** A visualization event follows the tool_result of the call that made it (its key starts with that call's). */
function attachOutput(turn: ExportTurn, e: ConversationEvent): void {
  const item = turn.items.at(-1);
  if (item?.kind !== 'python' || !e.key?.startsWith(`${item.exec.stepId}:${item.exec.callId}:viz:`)) return;
  item.outputs.push(e.data.output as VisualizationOutput);
}

function pushToolItem(
  turn: ExportTurn,
  call: ConversationEvent<'tool_call'> | undefined,
  fetched: string | undefined,
): void {
  const args = (call?.data.args ?? {}) as { url?: unknown; action?: unknown; path?: unknown; content?: unknown };
  if (call?.data.tool === 'web_fetch' && fetched && typeof args.url === 'string')
    turn.items.push({ kind: 'fetch', url: args.url, file: fetched });
  if (
    call?.data.tool === 'file_system' &&
    args.action === 'write' &&
    typeof args.path === 'string' &&
    typeof args.content === 'string'
  ) {
    turn.items.push({ kind: 'write', path: args.path, content: args.content });
  }
}

/** stepId\0callId → the workspace path web_fetch saved a download under (from the debug records). */
async function fetchedFilesOf(layout: ConversationLayout): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const dir of (await readdir(layout.debug).catch(() => [] as string[])).filter((n) => n.endsWith('.tools'))) {
    for (const f of await readdir(path.join(layout.debug, dir)).catch(() => [] as string[])) {
      const call = JSON.parse(
        await readFile(path.join(layout.debug, dir, f), 'utf8').catch(() => '{}'),
      ) as Partial<DebugToolCall>;
      const file = (call.result as { file?: { path?: string } } | undefined)?.file?.path;
      if (call.tool === 'web_fetch' && call.ok && file)
        out.set(`${dir.slice(0, -'.tools'.length)}\0${call.callId}`, file);
    }
  }
  return out;
}

/** The workspace files a set of turns read from outside their code: uploads (named by the caller) and downloads. */
export function fetchedFiles(turns: ExportTurn[]): string[] {
  return [...new Set(turns.flatMap((t) => t.items.flatMap((i) => (i.kind === 'fetch' ? [i.file] : []))))];
}
