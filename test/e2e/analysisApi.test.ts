import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedRequest, ScriptedReply } from '../../lib/scriptedLlm';
import { jsonBody, lastRole, startAnalysisEnv, toolResults, waitForTurn, type AnalysisEnv } from '../helpers/analysis';

const SALES = 'region,amount\nnorth,10\nsouth,32\nnorth,5\n';

/** ReAct over real tools: read the CSV with pandas, then answer with the number the tool printed. */
function model(r: ScriptedRequest): ScriptedReply {
  if (lastRole(r) === 'tool') {
    const out = JSON.parse(toolResults(r).at(-1)!) as { stdout?: string };
    return { text: `Total sales: **${(out.stdout ?? '').trim()}**` };
  }
  const code = [
    'import pandas as pd',
    "df = pd.read_csv('sales.csv')",
    "df.groupby('region', as_index=False)['amount'].sum().to_csv('by_region.csv', index=False)",
    "print(df['amount'].sum())",
  ].join('\n');
  return {
    text: 'I will load the file and sum the amounts.',
    toolCalls: [{ name: 'python_execute', arguments: { code } }],
  };
}

describe('conversation API over real HTTP (real Temporal, scripted model with tool calls, real sandbox)', () => {
  let a: AnalysisEnv;
  let id: string;
  let turnId: string;

  beforeAll(async () => {
    // The pattern's steps and records, counted exactly (the cross-check's: analysisCrossCheck.test.ts).
    a = await startAnalysisEnv(model, { conversation: { crossCheck: false } });
    const created = await a.api('/api/conversations', jsonBody({ title: 'Sales', pattern: 'react' }));
    expect(created.status).toBe(201);
    id = ((await created.json()) as { id: string }).id;
    const form = new FormData();
    form.append('file', new Blob([SALES], { type: 'text/csv' }), 'sales.csv');
    const up = await a.api(`/api/conversations/${id}/files`, { method: 'POST', body: form });
    expect(up.status).toBe(201);
    const sent = await a.api(
      `/api/conversations/${id}/messages`,
      jsonBody({ text: 'What is the total of amount in sales.csv?' }),
    );
    expect(sent.status).toBe(202);
    turnId = ((await sent.json()) as { turnId: string }).turnId;
    await waitForTurn(a, id, turnId);
  }, 240_000);
  afterAll(async () => a?.close());

  it('answers from the code the sandbox ran, with the events of every step in order', async () => {
    const view = await a.json(`/api/conversations/${id}`);
    expect(view.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(view.messages[1].text).toBe('Total sales: **47**');
    expect(view.turnsDetail[0]).toMatchObject({ turnId, status: 'completed', pattern: 'react' });
    expect(view.inputTokens).toBeGreaterThan(0);
    expect(view.files.map((f: { path: string }) => f.path).sort()).toEqual(['by_region.csv', 'sales.csv']);
    const events = await a.server.service.events(id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('turn_started');
    expect(types.at(-1)).toBe('turn_ended');
    for (const t of ['step', 'tool_call', 'code', 'tool_result', 'file', 'answer', 'usage']) expect(types).toContain(t);
    const result = events.find((e) => e.type === 'tool_result')!;
    expect(result.data).toMatchObject({ tool: 'python_execute', ok: true, stdout: '47\n' });
  });

  it('streams the events over SSE and resumes after Last-Event-ID', async () => {
    const ctrl = new AbortController();
    const res = await a.api(`/api/conversations/${id}/events`, {
      headers: { 'Last-Event-ID': '2' },
      signal: ctrl.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: turn_ended')) text += new TextDecoder().decode((await reader.read()).value);
    ctrl.abort();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids[0]).toBe(3);
    expect(ids).toEqual(ids.map((_, i) => i + 3));
    const first = JSON.parse(/^data: (.*)$/m.exec(text)![1]) as { seq: number; type: string };
    expect(first.seq).toBe(3);
  });

  it('returns the debug record of each step: prompt, reply, tool call with code and stdout, tokens, timings', async () => {
    const { steps } = await a.json(`/api/conversations/${id}/debug`);
    // The two model steps, then the turn's grounding record (its answer's numbers against the tool outputs).
    expect(steps).toHaveLength(3);
    expect(steps[2]).toMatchObject({ kind: 'grounding', grounding: { total: 1, grounded: 1 } });
    expect(steps[0].prompt.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(steps[0].prompt[0].content).toContain('sales.csv');
    expect(steps[0].toolCalls[0]).toMatchObject({ tool: 'python_execute', ok: true });
    expect(steps[0].code).toContain("pd.read_csv('sales.csv')");
    expect(steps[0].stdout).toBe('47\n');
    expect(steps[0].inputTokens).toBeGreaterThan(0);
    expect(steps[0].timing.toolsMs).toBeGreaterThan(0);
    expect(steps[0].sandbox.python).toMatch(/^3\.\d+/);
    expect(steps[0].sandbox.packages.pandas).toMatch(/^\d+\./);
    expect(steps[1].reply.content).toBe('Total sales: **47**');
  });

  it('serves workspace files and refuses paths out of the workspace', async () => {
    const file = await a.api(`/api/conversations/${id}/files/by_region.csv`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('attachment');
    expect(await file.text()).toBe('region,amount\nnorth,15\nsouth,32\n');
    expect((await a.api(`/api/conversations/${id}/files/..%2Fconversation.json`)).status).toBe(404);
    expect((await a.api(`/api/conversations/${id}/files/nope.csv`)).status).toBe(404);
  });

  it('lists, renames, refuses bad input with a status naming the cause, and deletes', async () => {
    expect((await a.json('/api/conversations')).conversations.map((c: { id: string }) => c.id)).toContain(id);
    expect((await a.json(`/api/conversations/${id}`, jsonBody({ title: 'Renamed' }, 'PATCH'))).title).toBe('Renamed');
    const empty = await a.api(`/api/conversations/${id}/messages`, jsonBody({ text: '   ' }));
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toContain('empty');
    const huge = await a.api(`/api/conversations/${id}/messages`, jsonBody({ text: 'x'.repeat(25_000) }));
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: string }).error).toContain('limit');
    expect((await a.api(`/api/conversations/${id}/cancel`, { method: 'POST' })).status).toBe(409);
    expect((await a.api('/api/conversations/nope')).status).toBe(404);
    const patterns = (await a.json('/api/patterns')).patterns;
    expect(patterns[0].name).toBe('auto');
    expect((await a.api(`/api/conversations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await a.api(`/api/conversations/${id}`)).status).toBe(404);
  });
});
