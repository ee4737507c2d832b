import type { DebugToolCall } from '../conversation/debug';
import { readInWorkspace } from '../workspace/safeFiles';
import type { NumberSource, SourceKind } from './types';

/** One text a turn's tools produced (or the question), whose numbers an answer may cite. */
export interface SourceText {
  kind: SourceKind;
  text: string;
  tool?: string;
  stepId?: string;
  callId?: string;
  file?: string;
}

/** A file is read up to this much (a table's numbers are near its top; the rest of a large file adds little). */
const FILE_BYTES = 2 * 1024 * 1024;
const DATA_FILE = /\.(csv|tsv|json|txt|md)$/i;

interface ToolRecord extends DebugToolCall {
  stepId: string;
}

/**
 * The texts of one turn's tool calls: python/node stdout, the tables (manifest data files) and data files they wrote,
 * calculator results, fetched content and downloaded files, files read; then the question itself (numbers the user
 * gave are not the model's invention).
 */
export async function turnSources(calls: ToolRecord[], workspace: string, question: string): Promise<SourceText[]> {
  const out: SourceText[] = [];
  for (const call of calls) {
    const base = { tool: call.tool, stepId: call.stepId, callId: call.callId };
    const result = (call.result ?? {}) as Record<string, unknown>;
    if (typeof result.stdout === 'string' && result.stdout) out.push({ ...base, kind: 'stdout', text: result.stdout });
    if (call.tool === 'calculator' && typeof result.result === 'string')
      out.push({ ...base, kind: 'calculator', text: result.result });
    if (call.tool === 'web_fetch' && result.content !== undefined)
      out.push({
        ...base,
        kind: 'fetch',
        text: typeof result.content === 'string' ? result.content : JSON.stringify(result.content),
      });
    if (call.tool === 'file_system' && typeof result.content === 'string')
      out.push({ ...base, kind: 'file', file: String(result.path ?? ''), text: result.content });
    for (const { file, kind } of filesOf(call.tool, result)) {
      const text = await readHead(workspace, file);
      if (text) out.push({ ...base, kind, file, text });
    }
  }
  if (question.trim()) out.push({ kind: 'question', text: question });
  return out;
}

/** The workspace files a call produced, tables first (each once). */
function filesOf(tool: string, result: Record<string, unknown>): Array<{ file: string; kind: SourceKind }> {
  const tables = ((result.visualizations as Array<{ dataFile?: string }> | undefined) ?? []).flatMap((v) =>
    v.dataFile ? [v.dataFile] : [],
  );
  const written = ((result.files as Array<{ path?: string }> | undefined) ?? []).flatMap((f) =>
    f.path && DATA_FILE.test(f.path) ? [f.path] : [],
  );
  const fetched = tool === 'web_fetch' && (result.file as { path?: string } | undefined)?.path;
  const seen = new Set<string>();
  const out: Array<{ file: string; kind: SourceKind }> = [];
  for (const [file, kind] of [
    ...tables.map((f) => [f, 'table'] as const),
    ...written.map((f) => [f, 'file'] as const),
    ...(fetched ? [[fetched, 'fetch'] as const] : []),
  ]) {
    if (seen.has(file) || !DATA_FILE.test(file)) continue;
    seen.add(file);
    out.push({ file, kind });
  }
  return out;
}

/** The start of a workspace file as text; '' for a missing file or one that leads out of the workspace (a symlink the code planted). */
async function readHead(workspace: string, rel: string): Promise<string> {
  const read = await readInWorkspace(workspace, rel, FILE_BYTES).catch(() => undefined); // missing, or outside the workspace: no text (see above)
  return read?.data.toString('utf8') ?? '';
}

/** What a reader is shown for a number found at `at` in a source: the line it is on. */
export function describeSource(source: SourceText, at: number): NumberSource {
  const lineStart = source.text.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = source.text.indexOf('\n', at);
  const line = source.text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).trim();
  const excerpt =
    line.length > 160 ? `${line.slice(Math.max(0, at - lineStart - 70), at - lineStart + 90).trim()}…` : line;
  return {
    kind: source.kind,
    ...(source.tool ? { tool: source.tool } : {}),
    ...(source.stepId ? { stepId: source.stepId } : {}),
    ...(source.callId ? { callId: source.callId } : {}),
    ...(source.file ? { file: source.file } : {}),
    line: source.text.slice(0, lineStart).split('\n').length,
    excerpt,
  };
}
