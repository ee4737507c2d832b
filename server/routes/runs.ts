import { workflowUiUrl } from '../../lib/temporal/uiLinks';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { Hono } from 'hono';
import { listRuns, type RunListEntry } from '../../client/runList';
import { pauseSignal, resumeSignal } from '../../contracts/run';
import type { AuditLog } from '../auth/auditLog';
import { clientAddress } from '../auth/signInGuard';
import { hasRole, type AuthEnv } from '../auth/user';
import { FILE_CSP } from './conversations';
import { confinedFile, findRunFolder } from './runFolder';

export interface RunsRoutesDeps {
  /** The folder holding one folder per run (default runs/, as the CLI). */
  runsDir?: string;
  /**
   * The process's one Temporal client (built from the config, TLS included, by whoever starts the server): the routes
   * never dial a connection of their own. Without one, runs are listed from their folders only.
   */
  client?: Client;
  /** Where relative memo paths are joined (config `artifacts.root`): runs made with `run --out DIR` elsewhere. */
  artifactsRoot?: string;
  /** Temporal Web UI base (`http://host:port/namespaces/<ns>/workflows`) for links to run workflows. */
  uiUrl?: string;
  audit: AuditLog;
}

type RunControl = 'pause' | 'resume' | 'cancel';

/** `GET /api/runs` (the web app is type-checked against it: web/tsconfig.json). */
export interface RunsReply {
  runs: (RunListEntry & { reportUrl?: string; temporalUiUrl?: string })[];
  temporalError?: string;
}

const REPORT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * `GET /api/runs` (the benchmark runs with progress and scores), `GET /api/runs/:id/report/...` (the run's HTML
 * report) for every signed-in user; `POST /api/runs/:id/{pause,resume,cancel}` for operators and admins only.
 */
export function runsRoutes(deps: RunsRoutesDeps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const runsDir = path.resolve(deps.runsDir ?? 'runs');
  const { client, uiUrl, artifactsRoot } = deps;

  app.get('/api/runs', async (c) => {
    const { runs, temporalError } = await listRuns({ runsDir, client, artifactsRoot });
    return c.json({
      runs: runs.map((r) => ({
        ...r,
        reportUrl: r.hasReport ? `/api/runs/${encodeURIComponent(r.id)}/report/report.html` : undefined,
        temporalUiUrl: uiUrl && r.workflowId ? workflowUiUrl(uiUrl, r.workflowId) : undefined,
      })),
      ...(temporalError ? { temporalError } : {}),
    } satisfies RunsReply);
  });

  app.get('/api/runs/:id/report/*', async (c) => {
    const id = c.req.param('id');
    const rel = decodeURIComponent(c.req.path.split('/report/').slice(1).join('/report/'));
    const run = await findRunFolder({ runsDir, client, artifactsRoot }, id);
    if ('error' in run) return c.json({ error: run.error }, run.status);
    const type = REPORT_TYPES[path.extname(rel)];
    const file = type ? await confinedFile(run.dir, rel) : undefined;
    if (!type || !file) return c.json({ error: `run ${id} has no report file ${rel}` }, 404);
    // A report is a file like any other: it runs no script in the app's origin.
    return c.body(new Uint8Array(await readFile(file)), 200, {
      'content-type': type,
      'cache-control': 'no-cache',
      'content-security-policy': FILE_CSP,
    });
  });

  app.post('/api/runs/:id/:control{pause|resume|cancel}', async (c) => {
    const user = c.get('user');
    const { id, control } = c.req.param() as { id: string; control: RunControl };
    const target = `run ${id}`;
    if (!hasRole(user, 'operator')) {
      await deps.audit.write({
        action: 'denied',
        user: user.name,
        client: clientAddress(c),
        target,
        detail: { reason: `run_${control} needs the operator role` },
      });
      return c.json({ error: `${control} needs the operator role; ${user.name} is a ${user.role}` }, 403);
    }
    const listed = client ? await listRuns({ runsDir, client, artifactsRoot }) : undefined;
    if (!client || !listed || listed.temporalError)
      return c.json(
        {
          error: `Temporal is unreachable: runs cannot be controlled now${listed?.temporalError ? ` (${listed.temporalError})` : ''}`,
        },
        503,
      );
    const run = listed.runs.find((r) => r.id === id);
    if (!run?.workflowId) return c.json({ error: `no run ${id}` }, 404);
    const handle = client.workflow.getHandle(run.workflowId);
    if (control === 'pause') await handle.signal(pauseSignal, `paused from the web by ${user.name}`);
    else if (control === 'resume') await handle.signal(resumeSignal);
    else await handle.cancel();
    await deps.audit.write({ action: `run_${control}`, user: user.name, client: clientAddress(c), target });
    return c.json({ ok: true, runId: id, workflowId: run.workflowId, control }, 202);
  });

  return app;
}
