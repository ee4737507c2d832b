import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationEvent } from '../../analysis/conversation/events';
import type { Pattern } from '../../contracts/conversation';
import type { ScriptedRequest } from '../../lib/scriptedLlm';
import { jsonBody, startAnalysisEnv, waitForTurn, type AnalysisEnv } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';

const ITEMS = [3, 9, 1, 7, 5, 8, 2].map((value, i) => ({ name: `item${i}`, value }));

/** Bad input and tool trouble: each leaves a clear message in the conversation, which stays usable. */
describe('analysis conversations: bad input, tool trouble, downloads, manifests, cancel', () => {
  let a: AnalysisEnv;
  let data: Server;
  let dataUrl: string;

  /** `[SLOW]` replies wait here until the file ends: a turn that stays running however slow the machine is. */
  let releaseSlow: () => void = () => undefined;
  const slowHeld = new Promise<void>((resolve) => (releaseSlow = resolve));
  const model = async (r: ScriptedRequest) => {
    if (r.messages.some((m) => m.role === 'user' && m.content.includes('[SLOW]'))) await slowHeld;
    return salesAnalyst(r);
  };

  async function conversation(pattern: Pattern = 'react'): Promise<string> {
    const conv = await a.server.service.create({ pattern });
    await a.server.service.upload(conv.id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
    return conv.id;
  }

  async function turn(
    id: string,
    text: string,
  ): Promise<{ events: ConversationEvent[]; status: string; answer: string; error?: string }> {
    const { turnId } = await a.server.service.send(id, { text });
    const events = (await waitForTurn(a, id, turnId)).filter((e) => e.turnId === turnId);
    const ended = events.at(-1)!;
    return {
      events,
      status: String(ended.data.status),
      answer: String(events.find((e) => e.type === 'answer')?.data.text ?? ''),
      error: ended.data.error as string | undefined,
    };
  }

  beforeAll(async () => {
    data = createServer((req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ITEMS)),
    );
    await new Promise<void>((r) => data.listen(0, '127.0.0.1', r));
    dataUrl = `http://127.0.0.1:${(data.address() as AddressInfo).port}/items.json`;
    // The first program's bad input, its reports and fixes counted exactly (the cross-check: analysisCrossCheck.test.ts).
    a = await startAnalysisEnv(model, {
      analysis: { fetch: { allowPrivateAddresses: true } },
      conversation: { crossCheck: false },
    });
  }, 120_000);
  afterAll(async () => {
    releaseSlow();
    await a?.close();
    data?.close();
  });

  it('a model that never calls a tool: the answer says nothing was computed', async () => {
    const r = await turn(await conversation(), 'What is the total amount? [NOTOOLS]');
    expect(r.status).toBe('completed');
    expect(r.answer).toMatch(/^_Note: the model answered without running any code/);
  }, 120_000);

  it("model failures follow the benchmark calls' retry policy: a 500 is retried and the turn completes; a 401 ends it at once", async () => {
    const id = await conversation();
    a.env.llm.inject({ kind: 'server_error' }, 1);
    const retried = await turn(id, 'What is the total amount?');
    expect(retried.status).toBe('completed');
    expect(retried.answer).toContain('**47**');
    expect(a.env.llm.log.filter((e) => e.fault).length).toBe(1);
    a.env.llm.inject({ kind: 'status', status: 401, message: 'bad key' }, 1);
    const refused = await turn(id, 'What is the total amount?');
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatch(/LLM call failed \(auth\)/);
    expect(a.env.llm.log.filter((e) => e.fault).length).toBe(2); // not retried
  }, 180_000);

  it('a model looping on the same failing call is stopped with the reason; the next message works', async () => {
    const id = await conversation();
    const r = await turn(id, 'What is the total amount? [LOOP]');
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/same failing python_execute call 3 times/);
    expect(r.events.some((e) => e.type === 'error' && String(e.data.message).includes('same failing'))).toBe(true);
    // Before the stop, the repeat was answered as one: the second result says nothing differed, the same error again.
    const last = a.env.llm.log.filter((e) => e.messages.some((m) => m.content.includes('[LOOP]'))).at(-1)!;
    const results = last.messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(m.content) as { repeated?: string; hint?: string; error?: string });
    expect(results).toHaveLength(2);
    expect(results[0].repeated).toBeUndefined();
    expect(results[0].hint).toMatch(/^'amout' is not a column/);
    expect(results[1].repeated).toMatch(/^You sent this exact call 2 times .*nothing differed.*the same error/);
    expect(results[1].error).toContain('KeyError');
    const next = await turn(id, 'What is the total amount?');
    expect(next.status).toBe('completed');
    expect(next.answer).toContain('**47**');
  }, 180_000);

  it('tool arguments that are not JSON are reported to the model, which then recovers', async () => {
    const r = await turn(await conversation(), 'What is the total amount? [BADARGS]');
    const results = r.events.filter((e) => e.type === 'tool_result');
    expect(results[0].data).toMatchObject({ ok: false, error: expect.stringContaining('not valid JSON') });
    expect(r.status).toBe('completed');
    expect(r.answer).toContain('**47**');
  }, 120_000);

  it('a wrong visualization manifest is reported, corrected, and the chart appears', async () => {
    const r = await turn(await conversation(), 'Plot the total amount by region [MANIFEST]');
    const results = r.events.filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.data.ok)).toEqual([false, true]);
    expect(String(results[0].data.error)).toMatch(/visualization_manifest.json is not valid.*regoin/s);
    const charts = r.events
      .filter((e) => e.type === 'visualization')
      .map((e) => e.data.output as { type: string; config: { xColumn: string } });
    expect(charts).toEqual([
      expect.objectContaining({ type: 'bar_chart', config: expect.objectContaining({ xColumn: 'region' }) }),
    ]);
    expect(r.status).toBe('completed');
  }, 120_000);

  it('downloads JSON from a local HTTP server with web_fetch and answers the top 5', async () => {
    const r = await turn(await conversation(), `Download the items and show the top 5 by value [FETCH:${dataUrl}]`);
    expect(r.events.filter((e) => e.type === 'tool_call').map((e) => e.data.tool)).toEqual([
      'web_fetch',
      'python_execute',
    ]);
    expect(r.status).toBe('completed');
    expect(r.answer).toContain('item1, item5, item3, item4, item0');
  }, 120_000);

  it('uploads: content not matching the name is refused (415); a UTF-16 CSV is converted and used', async () => {
    const id = (await a.server.service.create({ pattern: 'react' })).id;
    const fake = new FormData();
    fake.append('file', new Blob(['region,amount\n']), 'report.xlsx');
    const refused = await a.api(`/api/conversations/${id}/files`, { method: 'POST', body: fake });
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { error: string }).error).toContain('report.xlsx is not an XLSX workbook');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SALES_CSV, 'utf16le')]);
    const form = new FormData();
    form.append('file', new Blob([utf16]), 'sales.csv');
    const stored = (await (await a.api(`/api/conversations/${id}/files`, { method: 'POST', body: form })).json()) as {
      files: Array<{ note?: string }>;
    };
    expect(stored.files[0].note).toBe('converted from UTF-16 LE to UTF-8');
    const r = await turn(id, 'What is the total amount?');
    expect(r.answer).toContain('**47**');
  }, 120_000);

  it('a second message while a turn runs is refused (409); cancel ends the turn as cancelled; the conversation goes on', async () => {
    const id = await conversation();
    const { turnId } = await a.server.service.send(id, { text: 'What is the total amount? [SLOW]' });
    const busy = await a.api(`/api/conversations/${id}/messages`, jsonBody({ text: 'another question' }));
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: string }).error).toContain(`turn ${turnId} is still running`);
    const cancel = await a.api(`/api/conversations/${id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(202);
    const events = await waitForTurn(a, id, turnId);
    expect(events.at(-1)!.data.status).toBe('cancelled');
    const next = await turn(id, 'What is the total amount?');
    expect(next.answer).toContain('**47**');
  }, 180_000);
});
