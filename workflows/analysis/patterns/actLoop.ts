import type { Agent, AnswerRef } from './turn';

/** The ReAct core every pattern reuses: act, run the tools asked for, repeat until a reply without tool calls. */
export async function actUntilAnswer(
  agent: Agent,
  first: { instruction?: string; tools?: 'auto' | 'required' } = {},
): Promise<AnswerRef> {
  let opts: { instruction?: string; tools?: 'auto' | 'required' } = first;
  for (;;) {
    const reply = await agent.step('act', opts);
    opts = {};
    if (!reply.toolCalls.length) return agent.answer();
    await agent.runTools(reply);
  }
}
