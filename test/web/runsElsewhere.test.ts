/**
 * Runs whose folder is not `runs/<id>` (made with `run --out DIR`: a folder elsewhere, one inside the artifacts root, a
 * folder of the runs directory under another name) are listed AND open on their run, task, report and comparison
 * routes, through the real server with sign-in and a real Temporal dev server; the workflow's memo is written by the
 * run's own start (`startRunWorkflow`). Abuse cases of the routes' one run lookup (`client/runLocation`): ids that are
 * paths, links out of the runs folder, run.json links, folders holding another run, a memo naming no run, files out of
 * the run folder, no sign-in, a user who may read runs but not control them.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, type Config } from '../../config/schema';
import { startRunWorkflow } from '../../client/startRun';
import { locateRun, located } from '../../client/runLocation';
import { readManifest } from '../../lib/runStore/manifest';
import { SA } from '../../lib/temporal/searchAttributes';
import { addUser } from '../../server/auth/usersFile';
import { startServer, type RunningServer } from '../../server/start';
import { buildRunFolder, standardRun } from '../report/fixtures';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';
import { waitUntil } from '../helpers/wait';

interface Listed {
  id: string;
  status: string;
  createdAt?: string;
  reportUrl?: string;
}

describe('runs whose folder is not runs/<id>: listed, and their pages open', () => {
  let temporal: TestTemporal;
  let connection: Connection;
  let client: Client;
  let server: RunningServer;
  let config: Config;
  let runsDir: string;
  let elsewhere: string;
  let artifactsRoot: string;
  let userToken: string;
  const folders: Record<string, string> = {};
  /** As the admin (the server's token), as another user (their token), or signed out (null). */
  const get = (p: string, token: string | null | undefined = server.token) =>
    fetch(`${server.url}${p}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const getJson = async (p: string) => {
    const res = await get(p);
    // Read field by field, as the pages read them.
    return { status: res.status, body: (await res.json()) as any };
  };

  /** A run folder (105 still pending) with a report, its run id `id`, inside `parent` under `name`. */
  const runFolder = async (parent: string, id: string, name = id) => {
    const built = await buildRunFolder(parent, standardRun(id));
    writeFileSync(path.join(built, 'report.html'), `<h1>report of ${id}</h1>`);
    if (name === id) return built;
    renameSync(built, path.join(parent, name));
    return path.join(parent, name);
  };
  /** A copy of run-out elsewhere, its run.json naming run `id`. */
  const forgedRun = (id: string) => {
    const folder = path.join(elsewhere, `forged-${id}`);
    cpSync(folders['run-out'], folder, { recursive: true });
    const runJson = path.join(folder, 'run.json');
    writeFileSync(runJson, JSON.stringify({ ...JSON.parse(readFileSync(runJson, 'utf8')), runId: id }));
    return folder;
  };
  /** Starts run `id`'s workflow as `run` does (memo and all), on a queue no worker polls, and stops it there. */
  const startAsRunDoes = async (dir: string) => {
    const handle = await startRunWorkflow(client, config, await readManifest(dir), dir);
    await handle.terminate('the test needs its memo only');
  };

  beforeAll(async () => {
    const tmp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));
    runsDir = tmp('sb-runs-home-');
    elsewhere = tmp('sb-runs-out-');
    artifactsRoot = tmp('sb-artifacts-');
    const stateDir = tmp('sb-srv-');
    const usersFile = path.join(stateDir, 'users.json');
    await addUser(usersFile, 'olga', 'operator');
    userToken = await addUser(usersFile, 'ulf', 'user');
    config = configSchema.parse({
      server: { stateDir, usersFile },
      temporal: { taskQueue: 'no-worker-polls-this' },
      artifacts: { root: artifactsRoot },
    });
    temporal = await startTestTemporal();
    connection = await Connection.connect({ address: temporal.address });
    client = new Client({ connection, namespace: temporal.namespace });

    folders['run-home'] = await runFolder(runsDir, 'run-home');
    folders['run-out'] = await runFolder(elsewhere, 'run-out'); // run --out /tmp/…/run-out: an absolute memo
    mkdirSync(path.join(artifactsRoot, 'team'));
    folders['run-rel'] = await runFolder(path.join(artifactsRoot, 'team'), 'run-rel'); // a memo relative to the root
    folders['run-named'] = await runFolder(runsDir, 'run-named', 'my-folder'); // run --out runs/my-folder
    for (const id of ['run-out', 'run-rel', 'run-named']) await startAsRunDoes(folders[id]);
    await startAsRunDoes(folders['run-home']);
    writeFileSync(path.join(elsewhere, 'secret.html'), 'beside the run folder, in no run');
    const corrupt = await runFolder(elsewhere, 'run-corrupt');
    writeFileSync(path.join(corrupt, 'summary.json'), JSON.stringify({ runId: 'run-corrupt', tasks: 'five' }));
    await startAsRunDoes(corrupt);

    // Abuse cases.
    symlinkSync(os.tmpdir(), path.join(runsDir, 'link-out')); // a link out of the runs folder, to no run
    symlinkSync(forgedRun('linked-run'), path.join(runsDir, 'link-run')); // a link to a run folder of another id
    mkdirSync(path.join(runsDir, 'json-link'));
    symlinkSync(path.join(forgedRun('json-link'), 'run.json'), path.join(runsDir, 'json-link', 'run.json'));
    cpSync(folders['run-home'], path.join(runsDir, 'copy-of-home'), { recursive: true }); // names run-home
    symlinkSync(path.join(elsewhere, 'secret.html'), path.join(folders['run-out'], 'leak.html'));
    const noRun = await client.workflow.start('benchmarkRun', {
      workflowId: 'memo-no-run',
      taskQueue: 'no-worker-polls-this',
      args: [{}],
      memo: { runDir: elsewhere, experimentHash: 'hash-run-out' },
      typedSearchAttributes: [{ key: SA.runId, value: 'memo-no-run' }],
    });
    await noRun.terminate('an abuse case: only its memo matters');

    server = await startServer({
      config,
      client,
      temporal: { address: temporal.address, namespace: temporal.namespace },
      port: 0,
      runsDir,
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await connection?.close();
    await temporal?.stop();
  });

  it('lists them with their scores and reports, and their run, task, report and comparison routes answer', async () => {
    let runs: Listed[] = [];
    const listed = async () => {
      runs = ((await (await get('/api/runs')).json()) as { runs: Listed[] }).runs;
      return ['run-out', 'run-rel', 'memo-no-run'].every((id) => runs.some((r) => r.id === id));
    };
    await waitUntil(listed, 60_000, 'the runs Temporal knows to be listed');
    for (const id of ['run-home', 'run-out', 'run-rel', 'run-named']) {
      const entry = runs.find((r) => r.id === id);
      // Read from its folder (the workflow alone knows neither the report nor run.json's date).
      expect(entry, id).toMatchObject({
        createdAt: '2025-07-18T14:55:41.123Z',
        reportUrl: `/api/runs/${id}/report/report.html`,
      });
      const report = await get(entry!.reportUrl!);
      expect(report.status, id).toBe(200);
      expect(await report.text()).toBe(`<h1>report of ${id}</h1>`);

      const page = await getJson(`/api/runs/${id}`);
      expect(page.status, id).toBe(200);
      expect(page.body.metrics).toMatchObject({ runId: id, tasks: 4 });
      expect(page.body.tasks.map((t: { id: string }) => t.id)).toEqual(['101', '102', '13-1', '104', '105']);
      const task = await getJson(`/api/runs/${id}/tasks/102`);
      expect(task.status, id).toBe(200);
      expect(task.body).toMatchObject({ runId: id, taskId: '102' });
      const compared = await getJson(`/api/compare?runs=run-home,${id}`);
      expect(compared.status, id).toBe(200);
      expect(compared.body.pairs[0].hard).toMatchObject({ bothPass: 2, aOnly: 0, bOnly: 0 });
    }
    const noRun = runs.find((r) => r.id === 'memo-no-run');
    expect(noRun).toMatchObject({ status: 'terminated' });
    expect(noRun).not.toHaveProperty('reportUrl');
    // A run.json that is a link is no run, in the list as on its pages.
    expect(runs.map((r) => r.id)).not.toContain('json-link');
  });

  it('needs sign-in for all of it; a user reads every run but controls none', async () => {
    for (const p of [
      '/api/runs',
      '/api/runs/run-out',
      '/api/runs/run-out/tasks/102',
      '/api/runs/run-out/report/report.html',
      '/api/compare?runs=run-home,run-out',
    ]) {
      expect((await get(p, null)).status, p).toBe(401);
      expect((await get(p, 'a-wrong-token')).status, p).toBe(401);
      expect((await get(p, userToken)).status, p).toBe(200);
    }
    const pause = await fetch(`${server.url}/api/runs/run-out/pause`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(pause.status).toBe(403);
  });

  it('refuses ids that are paths, links out, run.json links, folders of another run and a memo naming no run', async () => {
    const refused: Array<[string, number, string]> = [
      ['..%2F..%2Fetc', 400, 'bad run id "../../etc"'],
      [encodeURIComponent(`..${path.sep}${path.basename(elsewhere)}`), 400, 'bad run id'],
      ['link-out', 404, 'no run link-out'],
      ['link-run', 404, 'no run link-run: runs/link-run holds another run (run linked-run)'],
      ['json-link', 404, 'no run json-link: runs/json-link holds no run'],
      ['copy-of-home', 404, 'no run copy-of-home: runs/copy-of-home holds another run (run run-home)'],
      ['memo-no-run', 404, 'no run memo-no-run: the folder its workflow names holds no run'],
      ['no-such-run', 404, 'no run no-such-run'],
    ];
    for (const [id, status, error] of refused) {
      for (const route of [`/api/runs/${id}`, `/api/runs/${id}/tasks/102`, `/api/runs/${id}/report/report.html`]) {
        const res = await getJson(route);
        expect(res.status, route).toBe(status);
        expect(res.body.error, route).toContain(error);
        expect(JSON.stringify(res.body), route).not.toContain(elsewhere); // no path of this host
      }
      expect((await get(`/api/compare?runs=run-home,${id}`)).status, id).toBe(status);
    }
  });

  it('a run page whose summary.json is corrupt says so, naming the run and the file (no path of this host)', async () => {
    const res = await getJson('/api/runs/run-corrupt');
    expect(res.status).toBe(500);
    expect(res.body.error).toMatch(/^run run-corrupt: summary\.json cannot be read: unexpected content: /);
    expect(res.body.error).not.toContain(elsewhere);
  });

  it('serves only files inside the run folder: not beside it, not through a link out of it', async () => {
    for (const rel of ['..%2Fsecret.html', 'leak.html', '..%2F..%2F' + path.basename(elsewhere) + '%2Fsecret.html']) {
      const res = await get(`/api/runs/run-out/report/${rel}`);
      expect(res.status, rel).toBe(404);
      expect(await res.text(), rel).not.toContain('beside the run folder');
    }
  });

  it("the CLI's order: readers take runs/<id> first, commands that drive the workflow take the workflow's folder", async () => {
    const other = mkdtempSync(path.join(os.tmpdir(), 'sb-runs-stale-'));
    cpSync(folders['run-out'], path.join(other, 'run-out'), { recursive: true }); // a stale copy under runs/
    const reader = await locateRun({ runsDir: other, temporal: client }, 'run-out');
    expect(located(reader) && reader.dir).toBe(path.join(other, 'run-out'));
    const driver = await locateRun({ runsDir: other, temporal: client, prefer: 'workflow' }, 'run-out');
    expect(located(driver) && driver.dir).toBe(folders['run-out']);
    // Temporal unreachable: a folder of the runs directory is still found; anything else is "Temporal did not answer".
    const unreachable = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }), namespace: 'x' });
    const named = await locateRun({ runsDir, temporal: unreachable }, 'run-named');
    expect(located(named) && named.dir).toBe(folders['run-named']);
    expect(await locateRun({ runsDir, temporal: unreachable }, 'run-out')).toMatchObject({ kind: 'unreachable' });
  }, 30_000);
});
