import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConversationEvent } from '../../analysis/conversation/events';
import type { Pattern } from '../../contracts/conversation';
import type { ReplyFn, ScriptedRequest } from '../../lib/scriptedLlm';
import { startServer, type RunningServer } from '../../server/start';
import { startE2E, startInProcessWorkers, type ConfigOverrides, type E2EEnv } from './e2e';
import { waitUntil } from './wait';

/** Real Temporal, the scripted model, in-process workers (no recalc) and the HTTP API on a free port. */
export interface AnalysisEnv {
  env: E2EEnv;
  server: RunningServer;
  api(pathname: string, init?: RequestInit): Promise<Response>;
  json<T = any>(pathname: string, init?: RequestInit): Promise<T>;
  close(): Promise<void>;
}

export async function startAnalysisEnv(reply: ReplyFn, config: ConfigOverrides = {}): Promise<AnalysisEnv> {
  const conversationsDir = mkdtempSync(path.join(os.tmpdir(), 'sb-conv-'));
  const env = await startE2E(
    { rules: [], fallback: reply },
    {
      config: {
        recalc: { engine: 'none' },
        ...config,
        conversation: { dir: conversationsDir, ...config.conversation },
      },
    },
  );
  const workers = await startInProcessWorkers(env, { recalc: false });
  const server = await startServer({
    config: env.config,
    client: env.client,
    temporal: { address: env.temporal.address, namespace: env.temporal.namespace },
    port: 0,
    workers,
  });
  // A script's way in: the server's token as a Bearer header (test/server/ covers every other way, and the refusals).
  const api = (p: string, init?: RequestInit) => fetch(`${server.url}${p}`, withBearer(init, server.token));
  return {
    env,
    server,
    api,
    async json<T>(p: string, init?: RequestInit): Promise<T> {
      const res = await api(p, init);
      const body = (await res.json()) as T;
      if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${p}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    },
    async close() {
      await server.close();
      await env.close();
    },
  };
}

export function withBearer(init: RequestInit = {}, token: string | undefined): RequestInit {
  const headers = new Headers(init.headers);
  if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  return { ...init, headers };
}

export const jsonBody = (value: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

/** Waits for the turn's `turn_ended` event and returns the conversation's events. */
export async function waitForTurn(
  a: AnalysisEnv,
  id: string,
  turnId: string,
  timeoutMs = 120_000,
): Promise<ConversationEvent[]> {
  let events: ConversationEvent[] = [];
  await waitUntil(
    async () => {
      events = await a.server.service.events(id);
      return events.some((e) => e.type === 'turn_ended' && e.turnId === turnId);
    },
    timeoutMs,
    `turn ${turnId} of ${id} to end`,
  );
  return events;
}

export interface CaseOutcome {
  id: string;
  /** The events of the case's one turn. */
  events: ConversationEvent[];
  answer: string;
  status: string;
}

/** Each case (name, pattern, message) in its own conversation with sales.csv uploaded, all at once; the turn of each. */
export async function runCases(
  a: AnalysisEnv,
  cases: Array<[string, Pattern, string]>,
  upload: Buffer,
): Promise<Map<string, CaseOutcome>> {
  const svc = a.server.service;
  const outcomes = new Map<string, CaseOutcome>();
  await Promise.all(
    cases.map(async ([name, pattern, text]) => {
      const conv = await svc.create({ title: name, pattern });
      await svc.upload(conv.id, [{ name: 'sales.csv', data: upload }]);
      const { turnId } = await svc.send(conv.id, { text });
      const events = (await waitForTurn(a, conv.id, turnId, 300_000)).filter((e) => e.turnId === turnId);
      const answer = String(events.find((e) => e.type === 'answer')?.data.text ?? '');
      outcomes.set(name, { id: conv.id, events, answer, status: String(events.at(-1)!.data.status) });
    }),
  );
  return outcomes;
}

/** The tool messages' contents in a request (what the tools told the model). */
export function toolResults(r: ScriptedRequest): string[] {
  return r.messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

export function lastRole(r: ScriptedRequest): string {
  return r.messages.at(-1)?.role ?? '';
}
