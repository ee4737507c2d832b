import type { ChatMessage, ChatRequest, ChatResponse, CompleteOptions, LlmProvider, ToolCall, ToolSpec } from './types';

/**
 * The plain-text action protocol, for endpoints and local models without native tool calling: the tools are described
 * in the system prompt, the model answers with fenced ```action blocks holding {"tool": name, "args": {...}}, and tool
 * results come back as user messages. Wrapping a provider this way keeps callers on the one ToolCall vocabulary.
 */
export class TextActionProvider implements LlmProvider {
  readonly name: string;

  constructor(private readonly inner: LlmProvider) {
    this.name = `${inner.name}+text-actions`;
  }

  async complete(request: ChatRequest, opts?: CompleteOptions): Promise<ChatResponse> {
    if (!request.tools?.length) return this.inner.complete(request, opts);
    const { tools, toolChoice: _choice, ...rest } = request;
    const response = await this.inner.complete({ ...rest, messages: textMessages(request.messages, tools) }, opts);
    const toolCalls = parseActions(response.text);
    if (!toolCalls.length) return response;
    return { ...response, text: textOutsideActions(response.text), toolCalls, finishReason: 'tool_calls' };
  }
}

const ACTION_BLOCK = /```action\s*\n([\s\S]*?)```/g;

export function actionProtocolPrompt(tools: ToolSpec[]): string {
  const list = tools.map((t) => `- ${t.function.name}: ${t.function.description}\n  arguments (JSON schema): ${JSON.stringify(t.function.parameters)}`);
  return [
    'You can use these tools:',
    ...list,
    'To call a tool, write a fenced block exactly like this (one block per call), then stop and wait for the result:',
    '```action\n{"tool": "<tool name>", "args": { ... }}\n```',
    'When you have the final answer, reply with plain text and no action block.',
  ].join('\n');
}

/** Tool calls written as action blocks; a block that is not valid JSON becomes a call whose arguments are that raw text. */
export function parseActions(text: string): ToolCall[] {
  return [...text.matchAll(ACTION_BLOCK)].map((m, i) => {
    const raw = m[1].trim();
    const parsed = safeJson(raw) as { tool?: unknown; args?: unknown } | undefined;
    const name = typeof parsed?.tool === 'string' ? parsed.tool : 'invalid_action';
    return { id: `action_${i}`, name, arguments: parsed && 'args' in parsed ? JSON.stringify(parsed.args ?? {}) : raw };
  });
}

function textOutsideActions(text: string): string {
  return text.replace(ACTION_BLOCK, '').trim();
}

function textMessages(messages: ChatMessage[], tools: ToolSpec[]): ChatMessage[] {
  const protocol = actionProtocolPrompt(tools);
  const out: ChatMessage[] = messages.map((m) => {
    if (m.role === 'tool') return { role: 'user', content: `Result of ${m.toolCallId ?? 'the action'}:\n${m.content}` };
    if (m.role === 'assistant' && m.toolCalls?.length) {
      const blocks = m.toolCalls.map((c) => `\`\`\`action\n{"tool": ${JSON.stringify(c.name)}, "args": ${c.arguments || '{}'}}\n\`\`\``);
      return { role: 'assistant', content: [m.content, ...blocks].filter(Boolean).join('\n') };
    }
    return { role: m.role, content: m.content };
  });
  const first = out[0];
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${protocol}` }, ...out.slice(1)];
  return [{ role: 'system', content: protocol }, ...out];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
