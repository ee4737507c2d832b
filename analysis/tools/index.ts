import { z } from 'zod';
import { calculatorTool } from './calculator';
import { fileSystemTool } from './fileSystem';
import { nodeExecuteTool } from './nodeExecute';
import { pythonExecuteTool } from './pythonExecute';
import { disposeConversationSandboxes } from './sandboxSessions';
import { ToolRefusal, type AnalysisTool, type OpenAIToolSpec, type ToolContext, type ToolOutcome } from './types';
import { webFetchTool } from './webFetch';

export type * from './types';
export { ToolRefusal } from './types';

export const ANALYSIS_TOOLS: AnalysisTool[] = [
  pythonExecuteTool,
  nodeExecuteTool,
  fileSystemTool,
  webFetchTool,
  calculatorTool,
] as AnalysisTool[];

/** A long tool call (a 60 s execution, a slow download) keeps its activity's heartbeat going at this pace. */
const HEARTBEAT_EVERY_MS = 5_000;

const byName = new Map(ANALYSIS_TOOLS.map((t) => [t.name, t]));

/** The JSON-schema specs sent to the model (all tools, or the ones named). */
export function toolSpecs(names?: string[]): OpenAIToolSpec[] {
  const tools = names ? names.map((n) => byName.get(n) ?? unknownTool(n)) : ANALYSIS_TOOLS;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: jsonSchema(tool.args) },
  }));
}

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

function unknownTool(name: string): never {
  throw new Error(`unknown analysis tool "${name}" (known: ${[...byName.keys()].join(', ')})`);
}

/**
 * Runs one tool call. What the model got wrong (unknown tool, invalid arguments, refused paths/hosts/packages, failing
 * requests) comes back as `ok:false` with a message it can act on; only infrastructure failures (sandbox lost,
 * cancellation) throw, so the activity around it can retry or stop.
 */
export async function runTool(name: string, rawArgs: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const started = performance.now();
  const done = (outcome: Omit<ToolOutcome, 'durationMs'>): ToolOutcome => ({
    ...outcome,
    durationMs: Math.round(performance.now() - started),
  });
  const tool = byName.get(name);
  if (!tool)
    return done({ ok: false, error: `unknown tool "${name}"; available tools: ${[...byName.keys()].join(', ')}` });
  const parsedJson = parseArgsJson(rawArgs);
  if (!parsedJson.ok) return done({ ok: false, error: `arguments of ${name} are not valid JSON: ${parsedJson.error}` });
  const args = tool.args.safeParse(parsedJson.value);
  if (!args.success) return done({ ok: false, error: `invalid arguments for ${name}: ${z.prettifyError(args.error)}` });
  const beat = ctx.heartbeat ? setInterval(() => ctx.heartbeat?.({ tool: name }), HEARTBEAT_EVERY_MS) : undefined;
  try {
    return done({ ok: true, result: await tool.run(args.data, ctx) });
  } catch (err) {
    if (err instanceof ToolRefusal) return done({ ok: false, error: err.message });
    throw err;
  } finally {
    clearInterval(beat);
  }
}

/** Tool-calling APIs send arguments as a JSON string; the plain-text protocol may already have parsed them. */
function parseArgsJson(raw: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof raw !== 'string') return { ok: true, value: raw ?? {} };
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** Ends the conversation's sandboxes on this worker (its Python variables are gone; the workspace stays). */
export function disposeConversationTools(conversationId: string): Promise<void> {
  return disposeConversationSandboxes(conversationId);
}
