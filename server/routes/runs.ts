import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Hono } from 'hono';
import { listRuns } from '../../client/runList';

export interface RunsRoutesDeps {
  /** The folder holding one folder per run (default runs/, as the CLI). */
  runsDir?: string;
  /** The server's Temporal: a client is connected on first use (plain gRPC); `uiUrl` is `http://host:port/namespaces/<ns>/workflows`. */
  temporal?: { address: string; namespace: string; uiUrl?: string };
  /** A ready client instead (tests, TLS clusters); without either, runs are listed from their folders only. */
  client?: () => Promise<Client>;
}

const REPORT_TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.json': 'application/json', '.md': 'text/markdown; charset=utf-8', '.svg': 'image/svg+xml' };

/** `GET /api/runs` (the benchmark runs with progress and scores) and `GET /api/runs/:id/report/...` (the run's HTML report). */
export function runsRoutes(deps: RunsRoutesDeps): Hono {
  const app = new Hono();
  const runsDir = path.resolve(deps.runsDir ?? 'runs');
  const client = deps.client ?? (deps.temporal ? lazyClient(deps.temporal) : undefined);
  const uiUrl = deps.temporal?.uiUrl;

  app.get('/api/runs', async (c) => {
    const connected = client ? await client().catch(() => undefined) : undefined;
    const { runs, temporalError } = await listRuns({ runsDir, client: connected });
    return c.json({
      runs: runs.map((r) => ({
        ...r,
        reportUrl: r.hasReport ? `/api/runs/${encodeURIComponent(r.id)}/report/report.html` : undefined,
        temporalUiUrl: uiUrl && r.workflowId ? `${uiUrl}/${encodeURIComponent(r.workflowId)}` : undefined,
      })),
      ...(client && !connected ? { temporalError: 'Temporal is unreachable: runs are listed from their folders only' } : {}),
      ...(temporalError ? { temporalError } : {}),
    });
  });

  app.get('/api/runs/:id/report/*', async (c) => {
    const id = c.req.param('id');
    const rel = decodeURIComponent(c.req.path.split('/report/').slice(1).join('/report/'));
    const runDir = path.join(runsDir, id);
    if (path.dirname(runDir) !== runsDir) return c.json({ error: `bad run id ${id}` }, 400);
    const type = REPORT_TYPES[path.extname(rel)];
    const file = await confined(runDir, rel);
    if (!type || !file) return c.json({ error: `run ${id} has no report file ${rel}` }, 404);
    return c.body(new Uint8Array(await readFile(file)), 200, { 'content-type': type, 'cache-control': 'no-cache' });
  });

  return app;
}

/** The real path of rel inside dir, or undefined when it does not exist or leaves dir (.., symlinks). */
async function confined(dir: string, rel: string): Promise<string | undefined> {
  try {
    const root = await realpath(dir);
    const file = await realpath(path.resolve(root, rel));
    return file.startsWith(root + path.sep) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Connects once, on first use; a failed connection is retried on the next request. */
function lazyClient(t: { address: string; namespace: string }): () => Promise<Client> {
  let pending: Promise<Client> | undefined;
  return () => {
    pending ??= Connection.connect({ address: t.address, connectTimeout: 3000 }).then((connection) => new Client({ connection, namespace: t.namespace }));
    return pending.catch((err) => {
      pending = undefined;
      throw err;
    });
  };
}
