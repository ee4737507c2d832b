import type { ChatMessage, ChatRequest, ChatResponse, CompleteOptions, LlmProvider, ToolCall, ToolSpec } from './types';
import { TokenUsage } from './usage';

/**
 * The plain-text action protocol, for endpoints and local models without native tool calling: the tools are described
 * in the system prompt, the model answers with fenced ```action blocks holding {"tool": name, "args": {...}}, and tool
 * results come back as user messages. Wrapping a provider this way keeps callers on the one ToolCall vocabulary.
 *
 * Small instruction-tuned models trained on their own tool format answer in that format instead, even when asked for
 * action blocks: Qwen2.5-Coder writes `{"name": …, "arguments": {…}}` as plain JSON text (node-llama-cpp's function
 * calling does not see it), sometimes in a ```json fence or <tool_call> tags, and the 0.5B a fence named after the tool
 * holding the code (```python_execute). Those are read as calls too, but only when they name an offered tool, so JSON
 * data or code shown in an answer is never taken for a call. When python_execute is offered, the prompt also says that a
 * ```python block is run with it (what small models write anyway); a block whose code already ran in this transcript is
 * shown, not run again (an answer that repeats the code it used ends the loop).
 */
export class TextActionProvider implements LlmProvider {
  readonly name: string;

  constructor(private readonly inner: LlmProvider) {
    this.name = `${inner.name}+text-actions`;
  }

  async complete(request: ChatRequest, opts?: CompleteOptions): Promise<ChatResponse> {
    const { tools = [], toolChoice, ...rest } = request;
    // Earlier calls and their results are rendered as text even in a step offered no tools (the answer after them).
    const history = request.messages.some((m) => m.role === 'tool' || m.toolCalls?.length);
    if (!tools.length && !history) return this.inner.complete(request, opts);
    const messages = textMessages(request.messages, tools);
    const response = await this.inner.complete({ ...rest, messages }, opts);
    if (!tools.length) return response;
    const ranBefore = codeRunBefore(request.messages);
    const found = parseToolCalls(response.text, tools, ranBefore);
    if (found.calls.length) return withCalls(response, found);
    if (toolChoice !== 'required') return response;
    // A required call the model did not make (it answered in prose, or wrote code it never ran): asked once more.
    const nudge: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: response.text },
      { role: 'user', content: requiredCallNudge(tools) },
    ];
    const retry = await this.inner.complete({ ...rest, messages: nudge }, opts);
    const usage = TokenUsage.add(response.usage, retry.usage);
    const again = parseToolCalls(retry.text, tools, ranBefore);
    return again.calls.length ? { ...withCalls(retry, again), usage } : { ...retry, usage };
  }
}

function withCalls(response: ChatResponse, found: { calls: ToolCall[]; rest: string }): ChatResponse {
  return { ...response, text: found.rest, toolCalls: found.calls, finishReason: 'tool_calls' };
}

/** What a model that must call a tool but did not is told (the second and last chance in that step). */
export function requiredCallNudge(tools: ToolSpec[]): string {
  return tools.some((t) => t.function.name === PYTHON_TOOL)
    ? 'You did not run any code. This step must run code: reply with only one ```python block holding the complete code (it is run with python_execute and you will see its output).'
    : 'You did not call a tool. This step must call one: reply with only one ```action block.';
}

const ACTION_BLOCK = /```action\s*\n([\s\S]*?)```/g;

export function actionProtocolPrompt(tools: ToolSpec[]): string {
  const list = tools.map(
    (t) =>
      `- ${t.function.name}: ${t.function.description}\n  arguments (JSON schema): ${JSON.stringify(t.function.parameters)}`,
  );
  return [
    'You can use these tools:',
    ...list,
    'To call a tool, write a fenced block exactly like this (one block per call), then stop and wait for the result:',
    '```action\n{"tool": "<tool name>", "args": { ... }}\n```',
    ...(tools.some((t) => t.function.name === PYTHON_TOOL)
      ? [
          `To run Python code with ${PYTHON_TOOL}, you can also write it in a \`\`\`python block, then stop and wait for its output.`,
        ]
      : []),
    'When you have the final answer, reply with plain text and no action block.',
  ].join('\n');
}

/** Tool calls written as action blocks; a block that is not valid JSON becomes a call whose arguments are that raw text. */
export function parseActions(text: string): ToolCall[] {
  return [...text.matchAll(ACTION_BLOCK)].map((m, i) => {
    const raw = m[1].trim();
    const parsed = lenientJson(raw) as { tool?: unknown; args?: unknown } | undefined;
    const name = typeof parsed?.tool === 'string' ? parsed.tool : 'invalid_action';
    return { id: `action_${i}`, name, arguments: parsed && 'args' in parsed ? JSON.stringify(parsed.args ?? {}) : raw };
  });
}

const TAGGED_CALL = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;
const JSON_FENCE = /```(?:json)?[ \t]*\n(\{[\s\S]*?\})\s*```/g;
const NAMED_FENCE = /```([A-Za-z_][\w-]*)[ \t]*\n([\s\S]*?)```/g;

/**
 * The tool calls in a reply and the text around them: ```action blocks first; else the model's own forms (<tool_call>
 * tags, a JSON fence, the whole reply as one JSON object, a fence named after the tool) when they name an offered tool.
 */
export function parseToolCalls(
  text: string,
  offered: ToolSpec[],
  ranBefore: ReadonlySet<string> = new Set(),
): { calls: ToolCall[]; rest: string } {
  const actions = parseActions(text);
  if (actions.length) return { calls: actions, rest: text.replace(ACTION_BLOCK, '').trim() };
  const names = offered.map((t) => t.function.name);
  for (const pattern of [TAGGED_CALL, JSON_FENCE]) {
    const matches = [...text.matchAll(pattern)];
    const calls = matches.map((m) => nativeJsonCall(m[1], names));
    if (matches.length && calls.every(Boolean))
      return { calls: numbered(calls as NamedCall[]), rest: text.replace(pattern, '').trim() };
  }
  const whole = nativeJsonCall(text.trim(), names);
  if (whole) return { calls: numbered([whole]), rest: '' };
  const fenced = [...text.matchAll(NAMED_FENCE)].flatMap((m) => namedFenceCall(m[1], m[2], offered) ?? []);
  if (fenced.length)
    return {
      calls: numbered(fenced),
      rest: text.replace(NAMED_FENCE, (block, name: string) => (names.includes(name) ? '' : block)).trim(),
    };
  if (names.includes(PYTHON_TOOL)) {
    const code = [...text.matchAll(PYTHON_FENCE)]
      .map((m) => unwrapToolCallSyntax(m[1].replace(/\n$/, '')))
      .filter((c) => c.trim() && !ranBefore.has(c.trim()));
    if (code.length)
      return {
        calls: numbered(code.map((c) => ({ name: PYTHON_TOOL, arguments: JSON.stringify({ code: c }) }))),
        rest: text.replace(PYTHON_FENCE, '').trim(),
      };
  }
  return { calls: [], rest: text };
}

const PYTHON_TOOL = 'python_execute';

/** A block that is only `python_execute(code="…")` (the 0.5B writes the call as Python): the string literal it passes. */
const CALL_SYNTAX = /^\s*python_execute\s*\(\s*(?:code\s*=\s*)?("""|'''|"|')([\s\S]*?)\1\s*\)\s*$/;

/** The code inside `python_execute(code="…")`, its escapes read as Python would (\n, \t, \", \', \\); other code as is. */
export function unwrapToolCallSyntax(code: string): string {
  const m = CALL_SYNTAX.exec(code);
  if (!m) return code;
  const body = m[1].length === 3 ? dedent(m[2]) : m[2];
  return body.replace(/\\([nt"'\\])/g, (_e, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

const PYTHON_FENCE = /```(?:python|py)[ \t]*\n([\s\S]*?)```/g;

/** The code python_execute already ran in this transcript (trimmed). */
function codeRunBefore(messages: ChatMessage[]): Set<string> {
  const code = new Set<string>();
  for (const m of messages) {
    for (const call of m.toolCalls ?? []) {
      const args = call.name === PYTHON_TOOL ? (safeJson(call.arguments) as { code?: unknown } | undefined) : undefined;
      if (typeof args?.code === 'string') code.add(args.code.trim());
    }
  }
  return code;
}

type NamedCall = Omit<ToolCall, 'id'>;

/** `{"name": tool, "arguments": {…} | "json"}` (or `{"tool", "args"}`) naming an offered tool, as a call. */
function nativeJsonCall(raw: string, offered: string[]): NamedCall | undefined {
  const parsed = lenientJson(raw) as Record<string, unknown> | undefined;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const name = parsed.name ?? parsed.tool;
  if (typeof name !== 'string' || !offered.includes(name)) return undefined;
  const args = parsed.arguments ?? parsed.args ?? parsed.parameters ?? {};
  return { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

/** ```python_execute\n<code>```: the block is the tool's first required text argument (JSON in it: the arguments). */
function namedFenceCall(name: string, body: string, offered: ToolSpec[]): NamedCall | undefined {
  const tool = offered.find((t) => t.function.name === name);
  if (!tool) return undefined;
  const json = safeJson(body.trim());
  if (json && typeof json === 'object' && !Array.isArray(json)) return { name, arguments: JSON.stringify(json) };
  const params = tool.function.parameters as
    { properties?: Record<string, { type?: string }>; required?: string[] } | undefined;
  const field = (params?.required ?? []).find((key) => params?.properties?.[key]?.type === 'string');
  return field ? { name, arguments: JSON.stringify({ [field]: body.replace(/\n$/, '') }) } : undefined;
}

function numbered(calls: NamedCall[]): ToolCall[] {
  return calls.map((c, i) => ({ id: `action_${i}`, ...c }));
}

function textMessages(messages: ChatMessage[], tools: ToolSpec[]): ChatMessage[] {
  const toolOf = new Map(messages.flatMap((m) => (m.toolCalls ?? []).map((c) => [c.id, c.name] as const)));
  const out: ChatMessage[] = messages.map((m) => {
    if (m.role === 'tool')
      return {
        role: 'user',
        content: `Result of ${toolOf.get(m.toolCallId ?? '') ?? 'the action'} (${m.toolCallId ?? 'action'}):\n${readableResult(m.content)}`,
      };
    if (m.role === 'assistant' && m.toolCalls?.length) {
      const blocks = m.toolCalls.map(
        (c) => `\`\`\`action\n{"tool": ${JSON.stringify(c.name)}, "args": ${c.arguments || '{}'}}\n\`\`\``,
      );
      return { role: 'assistant', content: [m.content, ...blocks].filter(Boolean).join('\n') };
    }
    return { role: m.role, content: m.content };
  });
  if (!tools.length) return out;
  const protocol = actionProtocolPrompt(tools);
  const first = out[0];
  if (first?.role === 'system')
    return [{ role: 'system', content: `${first.content}\n\n${protocol}` }, ...out.slice(1)];
  return [{ role: 'system', content: protocol }, ...out];
}

/**
 * A tool's JSON result as lines a small model reads without parsing JSON: `key: value`, multi-line text under its key,
 * empty and false fields left out. Anything that is not a JSON object stays as it is.
 */
export function readableResult(content: string): string {
  const parsed = safeJson(content);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return content;
  const lines: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (
      value === '' ||
      value === false ||
      value === null ||
      value === undefined ||
      (Array.isArray(value) && !value.length)
    )
      continue;
    if (typeof value === 'string' && value.includes('\n')) lines.push(`${key}:`, value.replace(/\n$/, ''));
    else lines.push(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return lines.join('\n');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const TRIPLE_QUOTED = /(?:"""|''')([\s\S]*?)(?:"""|''')/g;

/**
 * JSON as small models write it for code: the code in a Python triple-quoted string (`"code": """\n    import …"""`),
 * which JSON does not allow. Parsed with each such string as a JSON string of its dedented text; strict JSON as is.
 */
export function lenientJson(text: string): unknown {
  const strict = safeJson(text);
  if (strict !== undefined || !/"""|'''/.test(text)) return strict;
  return safeJson(text.replace(TRIPLE_QUOTED, (_m, body: string) => JSON.stringify(dedent(body))));
}

/** Text without its leading blank line, its common indentation and its trailing whitespace. */
function dedent(body: string): string {
  const lines = body
    .replace(/^[ \t]*\r?\n/, '')
    .replace(/\s+$/, '')
    .split(/\r?\n/);
  const indents = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)![0].length))).join('\n');
}
