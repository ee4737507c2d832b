/** GET /api/runs from run folders and from a real Temporal dev server's visibility; the run's HTML report is served. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runsRoutes } from '../../server/routes/runs';
import { runPagesRoutes } from '../../server/routes/runPages';
import { startServer } from '../../server/start';
import { configSchema } from '../../config/schema';
import { AuditLog } from '../../server/auth/auditLog';
import { SA } from '../../lib/temporal/searchAttributes';
import { startTestTemporal, TEST_NAMESPACE, type TestTemporal } from '../helpers/temporalServer';
import { buildRunFolder, standardRun } from '../report/fixtures';
import { waitUntil } from '../helpers/wait';

interface RunsReply {
  runs: Array<Record<string, unknown> & { id: string }>;
  temporalError?: string;
}

describe('runs route', () => {
  let runsDir: string;
  let temporal: TestTemporal;
  let connection: Connection;
  let client: Client;

  beforeAll(async () => {
    runsDir = await mkdtemp(path.join(os.tmpdir(), 'sb-runs-'));
    const done = await buildRunFolder(runsDir, standardRun('run-done'));
    await writeFile(
      path.join(done, 'summary.json'),
      JSON.stringify({
        runId: 'run-done',
        tasks: 5,
        scored: 4,
        failed: 1,
        overall: { tasks: 4, soft: 0.625, hard: 0.5 },
        costUsd: 0.1234,
      }),
    );
    await writeFile(path.join(done, 'report.html'), '<h1>report of run-done</h1>');
    await writeFile(path.join(runsDir, 'secret.html'), 'outside every run folder');
    temporal = await startTestTemporal();
    connection = await Connection.connect({ address: temporal.address });
    client = new Client({ connection, namespace: temporal.namespace });
    // A run workflow nobody works on: visibility knows it (running), its progress query cannot be answered.
    await client.workflow.start('benchmarkRun', {
      workflowId: 'run-live',
      taskQueue: 'no-worker-here',
      args: [{}],
      typedSearchAttributes: [
        { key: SA.runId, value: 'run-live' },
        { key: SA.benchmark, value: 'spreadsheetbench' },
        { key: SA.agent, value: 'multi' },
        { key: SA.model, value: 'scripted' },
      ],
    });
  });
  afterAll(async () => {
    await connection?.close();
    await temporal?.stop();
  });

  it('lists folder runs with scores and a served report; unknown paths and escapes are 404', async () => {
    const app = runsRoutes({ runsDir, audit: new AuditLog(path.join(runsDir, 'audit.jsonl')) });
    const body = (await (await app.request('/api/runs')).json()) as RunsReply;
    expect(body.runs).toHaveLength(1);
    expect(body.runs[0]).toMatchObject({
      id: 'run-done',
      benchmark: 'spreadsheetbench',
      agent: 'single',
      model: 'gpt-4o-mini',
      soft: 0.625,
      hard: 0.5,
      costUsd: 0.1234,
      progress: { done: 4, total: 5, failed: 1 },
      reportUrl: '/api/runs/run-done/report/report.html',
    });
    const report = await app.request(String(body.runs[0].reportUrl));
    expect(report.status).toBe(200);
    expect(await report.text()).toContain('report of run-done');
    expect((await app.request('/api/runs/run-done/report/..%2Fsecret.html')).status).toBe(404);
    expect((await app.request('/api/runs/..%2F..%2Fetc/report/passwd.html')).status).toBe(400);
    expect((await app.request('/api/runs/run-done/report/missing.html')).status).toBe(404);
  });

  it('joins the workflows Temporal knows: a live run shows as running with its Temporal UI link', async () => {
    const app = runsRoutes({
      runsDir,
      audit: new AuditLog(path.join(runsDir, 'audit.jsonl')),
      client,
      uiUrl: 'http://ui.test/namespaces/ns/workflows',
    });
    let body: RunsReply = { runs: [] };
    // Visibility is eventually consistent: wait until the run is listed.
    await waitUntil(
      async () =>
        (body = (await (await app.request('/api/runs')).json()) as RunsReply).runs.some((r) => r.id === 'run-live'),
      60_000,
      'the live run to be listed',
    );
    const live = body.runs.find((r) => r.id === 'run-live');
    expect(live).toMatchObject({
      benchmark: 'spreadsheetbench',
      agent: 'multi',
      model: 'scripted',
      status: 'running',
      temporalUiUrl: 'http://ui.test/namespaces/ns/workflows/run-live',
    });
    expect(live!.progress).toBeUndefined(); // no worker: the progress query times out and the run is listed without it
    expect(body.runs.find((r) => r.id === 'run-done')).toMatchObject({ status: 'unknown', soft: 0.625 });
    expect(body.temporalError).toBeUndefined();
  });

  it('Temporal unreachable: runs come from their folders and the reply says why', async () => {
    const unreachable = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }), namespace: 'x' });
    const app = runsRoutes({ runsDir, audit: new AuditLog(path.join(runsDir, 'audit.jsonl')), client: unreachable });
    const body = (await (await app.request('/api/runs')).json()) as RunsReply;
    expect(body.runs.map((r) => r.id)).toEqual(['run-done']);
    expect(body.temporalError).toMatch(/Temporal did not answer/);
  }, 30_000);

  it('run pages of a run not in the runs folder: unknown → 404, Temporal unreachable → 503, a hostile id → 404 unasked', async () => {
    const pages = runPagesRoutes({ runsDir, client });
    expect(await (await pages.request('/api/runs/run-nowhere')).json()).toEqual({ error: 'no run run-nowhere' });
    // run-live's workflow records no folder: it is listed, but there is nothing to open.
    expect((await pages.request('/api/runs/run-live')).status).toBe(404);
    const unreachable = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }), namespace: 'x' });
    const dial = vi.spyOn(unreachable.workflow, 'getHandle');
    const cut = runPagesRoutes({ runsDir, client: unreachable });
    const res = await cut.request('/api/runs/run-nowhere');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/^run run-nowhere: Temporal did not answer/);
    dial.mockClear();
    for (const id of ['a'.repeat(3000), encodeURIComponent('x\u0000y'), encodeURIComponent('\u202e')])
      expect((await cut.request(`/api/runs/${id}`)).status, id).toBe(404);
    expect(dial).not.toHaveBeenCalled();
  }, 30_000);

  it("the server's routes use the client the server was handed (TLS and all): none dials a connection of its own", async () => {
    const dial = vi.spyOn(Connection, 'connect');
    // The address the server is told about leads nowhere: only the handed client reaches Temporal.
    const server = await startServer({
      config: configSchema.parse({ server: { stateDir: await mkdtemp(path.join(os.tmpdir(), 'sb-srv-')) } }),
      client,
      temporal: { address: '127.0.0.1:1', namespace: TEST_NAMESPACE },
      port: 0,
      runsDir,
    });
    try {
      let body: RunsReply = { runs: [] };
      const listed = async () => {
        const res = await fetch(`${server.url}/api/runs`, { headers: { authorization: `Bearer ${server.token}` } });
        body = (await res.json()) as RunsReply;
        return body.runs.some((r) => r.id === 'run-live') || body.temporalError !== undefined;
      };
      await waitUntil(listed, 60_000, 'the live run to be listed');
      expect(body.temporalError).toBeUndefined();
      expect(body.runs.find((r) => r.id === 'run-live')).toMatchObject({ status: 'running' });
      expect(dial).not.toHaveBeenCalled();
    } finally {
      dial.mockRestore();
      await server.close();
    }
  }, 60_000);
});
