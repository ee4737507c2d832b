import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseActions } from '../../lib/llm';
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';
import { summaryQuery } from '../../contracts/conversation';
import { startAnalysisEnv, waitForTurn, type AnalysisEnv } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';

const CODE = "import pandas as pd\nprint(pd.read_csv('sales.csv')['amount'].sum())";

/** A model without native tool calling: it sees the tools in the system prompt and writes ```action blocks. */
function textProtocolModel(r: ScriptedRequest): ScriptedReply {
  if (r.tools.length) throw new Error('the text protocol must not send native tools');
  const results = r.messages.filter((m) => m.role === 'user' && m.content.startsWith('Result of '));
  const sinceQuestion = r.messages.slice(
    r.messages.map((m) => m.role === 'user' && !m.content.startsWith('Result of ')).lastIndexOf(true),
  );
  const answered = sinceQuestion.some((m) => m.content.startsWith('Result of '));
  // Results come back as readable lines (lib/llm/textActions.ts readableResult), not JSON: "stdout:\n47".
  if (answered) return { text: `The total amount is **${/^stdout:\s*(\d+)$/m.exec(results.at(-1)!.content)?.[1]}**.` };
  return {
    text: `Running code.\n\`\`\`action\n${JSON.stringify({ tool: 'python_execute', args: { code: CODE } })}\n\`\`\``,
  };
}

async function salesConversation(a: AnalysisEnv): Promise<string> {
  const conv = await a.server.service.create({ pattern: 'react' });
  await a.server.service.upload(conv.id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
  return conv.id;
}

describe('text action protocol and continue-as-new', () => {
  let a: AnalysisEnv;
  beforeAll(async () => {
    a = await startAnalysisEnv(textProtocolModel, { conversation: { toolCalling: 'text', turnsPerRun: 1 } });
  }, 120_000);
  afterAll(async () => a?.close());

  it('runs tools from action blocks, and a conversation continued as new keeps its turns', async () => {
    const id = await salesConversation(a);
    const handle = a.env.client.workflow.getHandle(a.server.service.workflowId(id));
    const firstRun = (await handle.describe()).runId;
    for (const text of ['What is the total amount?', 'And again, what is the total amount?']) {
      const { turnId } = await a.server.service.send(id, { text });
      const events = (await waitForTurn(a, id, turnId)).filter((e) => e.turnId === turnId);
      expect(events.find((e) => e.type === 'tool_result')!.data).toMatchObject({ tool: 'python_execute', ok: true });
      expect(String(events.find((e) => e.type === 'answer')!.data.text)).toBe('The total amount is **47**.');
    }
    const latest = a.env.client.workflow.getHandle(a.server.service.workflowId(id));
    expect((await latest.describe()).runId).not.toBe(firstRun);
    const summary = await latest.query(summaryQuery);
    expect(summary.turns.map((t) => [t.turnId, t.status])).toEqual([
      ['t1', 'completed'],
      ['t2', 'completed'],
    ]);
    expect(parseActions('```action\n{"tool":"calculator","args":{"expression":"1+1"}}\n```')[0].name).toBe(
      'calculator',
    );
  }, 180_000);
});

describe('conversation budgets', () => {
  let a: AnalysisEnv;
  beforeAll(async () => {
    a = await startAnalysisEnv(salesAnalyst, { conversation: { budgetSteps: 2 } });
  }, 120_000);
  afterAll(async () => a?.close());

  it('a turn that would pass the step budget stops with a budget error; what it produced is kept', async () => {
    const id = await salesConversation(a);
    const { turnId } = await a.server.service.send(id, { text: 'What is the total amount? [FAILFIRST]' });
    const events = (await waitForTurn(a, id, turnId)).filter((e) => e.turnId === turnId);
    expect(events.at(-1)!.data).toMatchObject({ status: 'failed', error: 'conversation step budget of 2 used up' });
    expect(events.some((e) => e.type === 'error' && e.data.where === 'budget')).toBe(true);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(2);
  }, 180_000);
});
