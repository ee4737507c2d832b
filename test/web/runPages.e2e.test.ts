/**
 * The run, task and comparison pages against real runs (Temporal, sandbox, scripted model that gets one known cell
 * wrong), served by the real server with sign-in, in Debian's Chromium; and the API routes' abuse cases: no sign-in,
 * path traversal in run and task ids, unknown ids, a symlinked output, mismatched runs, results without cell diffs,
 * workbooks that cannot be opened, a run in progress.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToEnd, startBenchmarkRun, startE2E, type E2EEnv } from '../helpers/e2e';
import { SAMPLE } from '../helpers/datasets';
import { SA } from '../../lib/temporal/searchAttributes';
import { sampleSolver } from '../helpers/sampleSolver';
import { copyInputReply } from '../helpers/copyInput';
import { startServer, type RunningServer } from '../../server/start';
import { FILE_CSP } from '../../server/routes/conversations';
import { launchChromium, openPage } from './browser';

const UI = 'http://temporal-ui.test/namespaces/sheetbench/workflows';
/** web-a gets 2001-1's Orders!C4 wrong; web-b (2 epochs) is right but for 1001's Sales!B7 on its second attempt. */
const wrong = (callKey: string, task: string) =>
  (callKey.startsWith('web-a/') && task === '2001-1') || (callKey.startsWith('web-b/1001@2/') && task === '1001');

describe('run, task and comparison pages (real runs, real server, Chromium)', () => {
  let env: E2EEnv;
  let server: RunningServer;
  let browser: Browser;
  let runsDir: string;
  /** Where `run --out` put a run: outside the runs folder the server lists. */
  let elsewhere: string;
  const dir = (id: string) => path.join(runsDir, id);
  const get = (p: string, signedIn = true) =>
    fetch(`${server.url}${p}`, signedIn ? { headers: { authorization: `Bearer ${server.token}` } } : {});
  const getJson = async (p: string) => {
    const res = await get(p);
    // A reply is read field by field, as the page reads it; each route's shape is the server's contract (README).

    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    env = await startE2E(
      { rules: [sampleSolver(wrong)], fallback: copyInputReply },
      { config: { recalc: { engine: 'none' } } },
    );
    runsDir = path.join(os.tmpdir(), `sb-pages-${Date.now()}`);
    mkdirSync(runsDir, { recursive: true });
    await runToEnd(env, await startBenchmarkRun(env, { dataset: SAMPLE, runId: 'web-a', runDir: dir('web-a') }));
    await runToEnd(
      env,
      await startBenchmarkRun(env, { dataset: SAMPLE, runId: 'web-b', runDir: dir('web-b'), epochs: 2 }),
    );
    elsewhere = mkdtempSync(path.join(os.tmpdir(), 'sb-pages-out-'));
    await runToEnd(
      env,
      await startBenchmarkRun(env, { dataset: SAMPLE, runId: 'web-out', runDir: path.join(elsewhere, 'web-out') }),
    );
    // Variants of web-a as the edge cases see them (each a real run folder, edited).
    editManifest(dir('web-a'), dir('web-old'), { runId: 'web-old' });
    for (const t of ['1001', '2001-1', '1002']) rmSync(path.join(dir('web-old'), 'tasks', t, 'cell-diffs.json'));
    writeFileSync(
      path.join(dir('web-old'), 'outputs/single_scripted-model/1_2001-1_output.xlsx'),
      'PK this is no workbook',
    );
    editManifest(dir('web-a'), dir('web-strict'), { runId: 'web-strict', scoringMode: 'strict' });
    server = await startServer({
      config: env.config,
      client: env.client,
      temporal: { address: env.temporal.address, namespace: env.temporal.namespace, uiUrl: UI },
      port: 0,
      runsDir,
    });
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await env?.close();
  });

  describe('API', () => {
    it('every route needs sign-in', async () => {
      for (const p of [
        '/api/runs/web-a',
        '/api/runs/web-a/tasks/2001-1',
        '/api/runs/web-a/tasks/2001-1/cases/1/grid',
        '/api/runs/web-a/tasks/2001-1/cases/1/output',
        '/api/compare?runs=web-a,web-b',
      ]) {
        expect((await get(p, false)).status, p).toBe(401);
      }
    });

    it('a run: metrics with intervals, the floor and a task table', async () => {
      const { status, body } = await getJson('/api/runs/web-a');
      expect(status).toBe(200);
      expect(body.metrics).toMatchObject({ runId: 'web-a', tasks: 3, epochs: 1 });
      expect(body.metrics.hard.mean).toBeCloseTo(2 / 3, 12);
      expect(body.floor).toMatchObject({ testCases: 9, passedByInput: 0 });
      expect(body.tasks.map((t: { id: string; verdict: string }) => [t.id, t.verdict])).toEqual([
        ['1001', 'pass'],
        ['2001-1', 'fail'],
        ['1002', 'pass'],
      ]);
      expect(body.temporalUiUrl).toBe(`${UI}/web-a`);
    });

    it('a task: its mismatches, its grid and its output workbook as a download that runs no script', async () => {
      const { body: view } = await getJson('/api/runs/web-a/tasks/2001-1');
      expect(view.testCases[0].mismatches.map((m: { cell: string }) => m.cell)).toEqual(['Orders!C4']);
      expect(view.temporalUiUrl).toBe(`${UI}/${encodeURIComponent('web-a/task/2001-1')}`);
      const { body: grid } = await getJson('/api/runs/web-a/tasks/2001-1/cases/2/grid');
      expect(grid.problems).toEqual([]);
      const got = grid.pieces[0].got.flat().filter((c: { mismatch?: string }) => c.mismatch);
      expect(got).toHaveLength(1);
      const output = await get('/api/runs/web-a/tasks/2001-1/cases/2/output');
      expect(output.status).toBe(200);
      expect(output.headers.get('content-disposition')).toBe('attachment; filename="2_2001-1_output.xlsx"');
      expect(output.headers.get('content-type')).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(output.headers.get('content-security-policy')).toBe(FILE_CSP);
      expect(output.headers.get('x-content-type-options')).toBe('nosniff');
      expect(
        Buffer.from(await output.arrayBuffer())
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
    });

    it('refuses path traversal in run and task ids, and names unknown ids', async () => {
      expect((await get('/api/runs/..%2F..%2Fetc')).status).toBe(400);
      expect((await get('/api/runs/..')).status).toBe(404);
      const unknownRun = await getJson('/api/runs/no-such-run/tasks/1001');
      expect(unknownRun).toEqual({ status: 404, body: { error: 'no run no-such-run' } });
      const traversalTask = await getJson(`/api/runs/web-a/tasks/${encodeURIComponent('../../run')}`);
      expect(traversalTask.status).toBe(404);
      expect(traversalTask.body.error).toContain('run web-a has no task "../../run"');
      expect((await get(`/api/runs/web-a/tasks/${encodeURIComponent('../1001')}/cases/1/output`)).status).toBe(404);
      expect((await getJson('/api/runs/web-a/tasks/1001/cases/9/grid')).body.error).toContain('has no test case 9');
      expect((await get('/api/runs/web-a/tasks/1001/cases/x/output')).status).toBe(400);
      expect((await get('/api/runs/web-a/tasks/1001?epoch=0')).status).toBe(400);
      expect((await getJson('/api/runs/web-a/tasks/1001?epoch=2')).body.error).toContain(
        'run web-a has no attempt 2 of task 1001',
      );
    });

    it('a run whose folder was given with --out elsewhere: listed, and its run, task, grid, output and comparison found through its memo', async () => {
      const listed = (await getJson('/api/runs')).body.runs.map((r: { id: string }) => r.id);
      expect(listed).toContain('web-out');
      const { status, body } = await getJson('/api/runs/web-out');
      expect(status).toBe(200);
      expect(body.metrics).toMatchObject({ runId: 'web-out', tasks: 3 });
      expect(body.tasks.map((t: { verdict: string }) => t.verdict)).toEqual(['pass', 'pass', 'pass']);
      const view = await getJson('/api/runs/web-out/tasks/2001-1');
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({ runId: 'web-out', taskId: '2001-1', grids: true });
      expect((await getJson('/api/runs/web-out/tasks/2001-1/cases/2/grid')).body.problems).toEqual([]);
      const output = await get('/api/runs/web-out/tasks/2001-1/cases/2/output');
      expect(output.status).toBe(200);
      expect(output.headers.get('content-disposition')).toBe('attachment; filename="2_2001-1_output.xlsx"');
      const compared = await getJson('/api/compare?runs=web-a,web-out');
      expect(compared.status).toBe(200);
      expect(compared.body.pairs[0].hard).toMatchObject({ bothPass: 2, bOnly: 1, aOnly: 0 });
    });

    it('a memo that names another run, no run, a path out of the artifacts root or a forged run is not served', async () => {
      const forged = (id: string) => {
        const folder = path.join(elsewhere, id);
        editManifest(path.join(elsewhere, 'web-out'), folder, { runId: id });
        return folder;
      };
      const hashOf = (folder: string): string => {
        try {
          return JSON.parse(readFileSync(path.join(folder, 'run.json'), 'utf8')).experimentHash;
        } catch {
          return 'no-run-here';
        }
      };
      const linked = path.join(elsewhere, 'evil-link');
      mkdirSync(linked);
      symlinkSync(path.join(forged('evil-link-target'), 'run.json'), path.join(linked, 'run.json'));
      const cases: Array<{ id: string; runDir: string; type?: string; hash?: string; why: string }> = [
        { id: 'evil-other', runDir: dir('web-a'), why: 'holds another run' },
        { id: 'evil-etc', runDir: '/etc', why: 'holds no run' },
        { id: 'evil-up', runDir: '../../../etc', why: 'is not a folder of this host' },
        {
          id: 'evil-hash',
          runDir: forged('evil-hash'),
          hash: 'not-its-experiment',
          why: "holds another experiment than the workflow's",
        },
        { id: 'evil-link', runDir: linked, hash: hashOf(linked), why: 'holds no run' },
        // A folder that would pass, named by a workflow that is not a run's: not looked at.
        { id: 'evil-type', runDir: forged('evil-type'), type: 'conversation', why: '' },
      ];
      for (const c of cases) {
        const handle = await env.client.workflow.start(c.type ?? 'benchmarkRun', {
          workflowId: c.id,
          taskQueue: 'no-worker-polls-this',
          args: [{}],
          memo: { runDir: c.runDir, experimentHash: c.hash ?? hashOf(c.runDir) },
          typedSearchAttributes: [{ key: SA.runId, value: c.id }],
        });
        await handle.terminate('an abuse case: only its memo matters');
      }
      for (const c of cases) {
        for (const route of [
          `/api/runs/${c.id}`,
          `/api/runs/${c.id}/tasks/1001`,
          `/api/runs/${c.id}/tasks/1001/cases/1/output`,
        ]) {
          const res = await getJson(route);
          expect(res.status, `${c.id} ${route}`).toBe(404);
          expect(res.body.error, c.id).toBe(
            c.why ? `no run ${c.id}: the folder its workflow names ${c.why}` : `no run ${c.id}`,
          );
        }
        expect((await getJson(`/api/compare?runs=web-a,${c.id}`)).status, c.id).toBe(404);
      }
    });

    it('an output that is a symlink out of the run folder is not served', async () => {
      const link = path.join(dir('web-old'), 'outputs/single_scripted-model/3_1001_output.xlsx');
      unlinkSync(link);
      symlinkSync('/etc/passwd', link);
      const res = await getJson('/api/runs/web-old/tasks/1001/cases/3/output');
      expect(res.status).toBe(404);
      expect(res.body.error).toContain('has no output workbook for test case 3');
    });

    it('old results say "no cell diff recorded"; a workbook that cannot be opened is named in the grid', async () => {
      const { body: view } = await getJson('/api/runs/web-old/tasks/2001-1');
      expect(view.notes[0]).toContain('no cell diff recorded');
      expect(
        view.testCases.every(
          (c: { diffRecorded: boolean; mismatches: unknown[] }) =>
            c.diffRecorded === false && c.mismatches.length === 0,
        ),
      ).toBe(true);
      const { body: grid } = await getJson('/api/runs/web-old/tasks/2001-1/cases/1/grid');
      expect(grid.problems.join()).toMatch(/the output workbook cannot be opened: File is not a zip file/);
      expect(grid.pieces[0].expected).not.toBeNull();
    });

    it('compare: pairs runs of one dataset; refuses another scoring mode, naming both runs', async () => {
      const { status, body } = await getJson('/api/compare?runs=web-a,web-b');
      expect(status).toBe(200);
      // B's 1001 passes on 1 of 2 attempts (no majority): only A passes it; only B passes 2001-1.
      expect(body.pairs[0].hard).toMatchObject({
        bothPass: 1,
        aOnly: 1,
        bOnly: 1,
        neither: 0,
        taskIds: { aOnly: ['1001'], bOnly: ['2001-1'], bothPass: ['1002'] },
      });
      const refused = await getJson('/api/compare?runs=web-a,web-strict');
      expect(refused).toEqual({
        status: 409,
        body: {
          error: 'runs web-a and web-strict have different scoring modes (official vs strict): they cannot be paired',
        },
      });
      expect((await getJson('/api/compare?runs=web-a,..%2Fx')).status).toBe(400);
      expect((await get('/api/compare')).status).toBe(400);
    });
  });

  describe('in the browser', () => {
    it('run page: scores with intervals, by type, the floor, and a task table that filters and searches', async () => {
      const { page, pageErrors, foreignRequests, close } = await openPage(browser, server.url, {
        signInUrl: server.loginUrl,
      });
      const cspViolations: string[] = [];
      page.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspViolations.push(m.text()));
      await page.goto(`${server.url}/#/runs`);
      await page.locator('tr[data-run-id=web-a] a.run-link').click();
      await page.locator('.run-page .score-cards .hard dd').waitFor();
      expect(await page.locator('.score-cards .hard dd').textContent()).toMatch(/^66\.7% \[\d+\.\d–\d+\.\d\]$/);
      expect(await page.locator('table.by-type tbody tr').count()).toBe(2);
      expect(await page.locator('.floor').textContent()).toContain('0 of 9 test cases already pass');
      expect(await page.locator('table.task-table tbody tr').count()).toBe(3);
      await page.selectOption('select[aria-label=verdict]', 'fail');
      expect(await page.locator('table.task-table tbody tr').allTextContents()).toEqual([
        expect.stringContaining('2001-1'),
      ]);
      await page.selectOption('select[aria-label=verdict]', '');
      await page.fill('input[aria-label="search task ids"]', '100');
      expect(
        await page
          .locator('table.task-table tbody tr')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task-id'))),
      ).toEqual(['1001', '1002']);
      await page.fill('input[aria-label="search task ids"]', '');
      await page.selectOption('select[aria-label=type]', 'Sheet-Level Manipulation');
      expect(await page.locator('table.task-table tbody tr').count()).toBe(1);
      expect(pageErrors).toEqual([]);
      expect(foreignRequests).toEqual([]);
      expect(cspViolations).toEqual([]);
      await close();
    });

    it('task page: the grid highlights the mismatched cell with expected and got shown, the output downloads, the trajectory is there', async () => {
      const { page, pageErrors, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
      await page.goto(`${server.url}/#/runs/web-a`);
      await page.locator('tr[data-task-id="2001-1"] a').click();
      const tc = page.locator('article.test-case[data-case="1"]');
      await tc.locator('.sheet-got td.mismatch').waitFor();
      expect(await tc.locator('.sheet-got td.mismatch').count()).toBe(1);
      const bad = tc.locator('.sheet-got td.mismatch');
      expect(await bad.getAttribute('data-cell')).toBe('C4');
      const expected = await tc.locator('.sheet-expected td[data-cell=C4]').textContent();
      const got = (await bad.textContent())!.replace(/ \(mismatch:.*\)$/, '');
      expect(Number(got)).toBe(Number(expected) + 1);
      expect(await bad.getAttribute('title')).toBe(`expected ${expected} (number), got ${got} (number)`);
      expect(await tc.locator('.sheet-input td[data-cell=C4]').textContent()).toBe('');
      expect(await tc.locator('ul.mismatches li[data-cell="Orders!C4"]').textContent()).toContain(
        `expected ${expected} (number), got ${got} (number)`,
      );
      // The grid shows values the way the workbook does, and the input, expected and got side by side.
      expect(
        await tc.locator('.side-by-side .sheet').evaluateAll((s) => s.map((x) => x.querySelector('h4')?.textContent)),
      ).toEqual(['input', 'expected', 'got']);
      const download = await page.request.get(
        new URL((await tc.locator('a.download').getAttribute('href'))!, server.url).href,
      );
      expect(download.headers()['content-disposition']).toBe('attachment; filename="1_2001-1_output.xlsx"');
      expect((await download.body()).subarray(0, 2).toString()).toBe('PK');
      expect(await page.locator('a.temporal-link').getAttribute('href')).toBe(
        `${UI}/${encodeURIComponent('web-a/task/2001-1')}`,
      );
      expect(await page.locator('.step-card[data-stage=generate] .reply pre').textContent()).toContain(
        "ws = wb['Orders']",
      );
      expect(await page.locator('.step-card[data-stage=execute] .execution').count()).toBe(3);
      expect(pageErrors).toEqual([]);
      await close();
    });

    it('a run made with --out elsewhere opens from the runs list like any other', async () => {
      const { page, pageErrors, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
      await page.goto(`${server.url}/#/runs`);
      await page.locator('tr[data-run-id=web-out] a.run-link').click();
      await page.locator('.run-page .score-cards .hard dd').waitFor();
      expect(await page.locator('table.task-table tbody tr').count()).toBe(3);
      await page.locator('tr[data-task-id="2001-1"] a').click();
      await page.locator('article.test-case[data-case="1"] .sheet-got').waitFor();
      expect(pageErrors).toEqual([]);
      await close();
    });

    it('an old run shows "no cell diff recorded" and the cause of an unreadable workbook, without breaking', async () => {
      const { page, pageErrors, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
      await page.goto(`${server.url}/#/runs/web-old/t/2001-1`);
      await page.locator('article.test-case[data-case="1"] .grid-problem').waitFor();
      expect(await page.locator('.note').first().textContent()).toContain('no cell diff recorded');
      expect(await page.locator('article.test-case[data-case="1"] .grid-problem').textContent()).toContain(
        'the output workbook cannot be opened',
      );
      await page.goto(`${server.url}/#/runs/web-a/t/nope`);
      expect(await page.locator('.task-page .error').textContent()).toContain('run web-a has no task "nope"');
      expect(pageErrors).toEqual([]);
      await close();
    });

    it('comparison: select two runs, see the paired table and intervals, open a task in both runs side by side', async () => {
      const { page, pageErrors, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
      await page.goto(`${server.url}/#/runs`);
      await page.locator('tr[data-run-id=web-a] input.select-run').check();
      await page.locator('tr[data-run-id=web-b] input.select-run').check();
      await page.locator('a.compare-link').click();
      await page.locator('article.pair').waitFor();
      expect(page.url()).toContain('#/compare/web-a,web-b');
      expect(await page.locator('table.leaderboard tbody tr').count()).toBe(2);
      expect(await page.locator('td.both').textContent()).toBe('1');
      expect(await page.locator('td.b-only').textContent()).toBe('1');
      expect(await page.locator('td.a-only').textContent()).toBe('1');
      expect(await page.locator('td.neither').textContent()).toBe('0');
      expect(await page.locator('dd.mcnemar').textContent()).toBe('1.00');
      expect(await page.locator('dd.soft-diff').textContent()).toMatch(/^[+−]\d+\.\d pp \[[+−]\d+\.\d, [+−]\d+\.\d\]$/);
      await page.locator('dd.b-only-ids a').click();
      await page.locator('.side-by-side-task .column[data-run-id=web-b] .step-card').first().waitFor();
      expect(
        await page
          .locator('.side-by-side-task .column')
          .evaluateAll((c) => c.map((x) => x.getAttribute('data-run-id'))),
      ).toEqual(['web-a', 'web-b']);
      expect(await page.locator('.column[data-run-id=web-a] .step-card[data-stage=generate]').count()).toBe(1);
      expect(await page.locator('.column[data-run-id=web-b] .step-card[data-stage=generate]').count()).toBe(1);
      // A pair the server refuses is shown with its reason.
      await page.goto(`${server.url}/#/compare/web-a,web-strict`);
      expect(await page.locator('.compare .error').textContent()).toContain(
        'different scoring modes (official vs strict)',
      );
      expect(pageErrors).toEqual([]);
      await close();
    });

    it('updates live while a run is in progress', async () => {
      // web-live: web-b's folder while its attempts are still being recorded.
      const live = dir('web-live');
      editManifest(dir('web-b'), live, { runId: 'web-live' });
      rmSync(path.join(live, 'summary.json'));
      const held = path.join(runsDir, 'held-results');
      mkdirSync(held);
      for (const f of readdirSync(path.join(live, 'results')).filter((f) => f !== '1001.json'))
        renameSync(path.join(live, 'results', f), path.join(held, f));
      const { page, pageErrors, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
      // The page's refresh timers run on a clock the test moves: each refresh comes when the clock passes it.
      await page.clock.install();
      await page.goto(`${server.url}/#/runs/web-live`);
      await page.locator('.banner.live').waitFor();
      expect(await page.locator('.banner.live').textContent()).toContain('1 of 6 attempts recorded');
      expect(await page.locator('tr.verdict-pending').count()).toBe(2);
      // The remaining attempts arrive, then the summary: the page follows without a reload.
      for (const f of readdirSync(held)) renameSync(path.join(held, f), path.join(live, 'results', f));
      await page.clock.runFor(3_000); // one refresh interval
      await page.locator('tr.verdict-pending').first().waitFor({ state: 'detached' });
      writeFileSync(path.join(live, 'summary.json'), readFileSync(path.join(dir('web-b'), 'summary.json')));
      await page.clock.runFor(3_000);
      await page.locator('.banner.live').waitFor({ state: 'detached' });
      expect(await page.locator('.card.pass-at[data-k="2"] dd').textContent()).toBe('100.0%');
      expect(pageErrors).toEqual([]);
      await close();
    });
  });
});

/** A copy of a run folder with run.json fields changed (another run id, another scoring mode). */
function editManifest(from: string, to: string, changes: Record<string, unknown>): void {
  cpSync(from, to, { recursive: true });
  const file = path.join(to, 'run.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...changes }, null, 2));
}
