import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium';
import { SA } from '../../lib/temporal/searchAttributes';
import { copyInputReply } from '../helpers/copyInput';
import { startBenchmarkRun, startE2E, startInProcessWorkers, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';

/** Workflow ids of a run as the runner names them: the run workflow (id = run id) and one child per task. */
function workflowIdsOf(run: StartedRun, tasks: string[]): string[] {
  return [run.runId, ...tasks.map((t) => `${run.runId}/task/${t}`)];
}

/** The Temporal Web UI of a test dev server, filtered by the BenchRunId search attribute, in headless Chromium. */
describe('Temporal Web UI lists a run by search attribute', () => {
  let env: E2EEnv;
  let browser: Browser;
  let runA: StartedRun;
  let runB: StartedRun;
  const tasksA = ['39604', '79-7'];
  const tasksB = ['599-9'];

  beforeAll(async () => {
    browser = await launchChromium();
    env = await startE2E(
      { rules: Object.values(DEV20_SOLUTIONS), fallback: copyInputReply },
      { config: { recalc: { engine: 'none' } } },
    );
    runA = await startBenchmarkRun(env, { dataset: DEV20, tasks: tasksA });
    runB = await startBenchmarkRun(env, { dataset: DEV20, tasks: tasksB });
    const workers = await startInProcessWorkers(env);
    const running = workers.run();
    try {
      await Promise.all([runA.handle.result(), runB.handle.result()]);
    } finally {
      await workers.shutdown();
      await running;
    }
    await waitForVisibility(env, runA.runId, tasksA.length + 1);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  it('shows exactly the run workflow and its task workflows for BenchRunId="<run>"', async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    const base = `http://127.0.0.1:${env.temporal.uiPort}`;
    page.on('request', (r) => !r.url().startsWith(base) && !r.url().startsWith('data:') && external.push(r.url()));
    const query = `${SA.runId.name}="${runA.runId}"`;
    await page.goto(`${base}/namespaces/${env.temporal.namespace}/workflows?query=${encodeURIComponent(query)}`);

    const expected = workflowIdsOf(runA, tasksA);
    for (const id of expected) await page.getByText(id, { exact: true }).first().waitFor({ timeout: 30_000 });
    const listed = await listedWorkflowIds(page, [...expected, ...workflowIdsOf(runB, tasksB)]);
    expect(listed.sort()).toEqual([...expected].sort());
    expect(external).toEqual([]);
    await page.close();
  });

  it('shows the other run instead when filtered by its id', async () => {
    const page = await browser.newPage();
    const query = `${SA.runId.name}="${runB.runId}"`;
    await page.goto(
      `http://127.0.0.1:${env.temporal.uiPort}/namespaces/${env.temporal.namespace}/workflows?query=${encodeURIComponent(query)}`,
    );
    const expected = workflowIdsOf(runB, tasksB);
    for (const id of expected) await page.getByText(id, { exact: true }).first().waitFor({ timeout: 30_000 });
    const listed = await listedWorkflowIds(page, [...workflowIdsOf(runA, tasksA), ...expected]);
    expect(listed.sort()).toEqual([...expected].sort());
    await page.close();
  });
});

/** Which of `candidates` appear as a workflow id on the page (exact text of an element, e.g. the id link in a row). */
async function listedWorkflowIds(page: Page, candidates: string[]): Promise<string[]> {
  const listed: string[] = [];
  for (const id of candidates) if ((await page.getByText(id, { exact: true }).count()) > 0) listed.push(id);
  return listed;
}

/** Visibility is eventually consistent: wait until the server lists the run's workflows before asking the UI. */
async function waitForVisibility(env: E2EEnv, runId: string, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { count: n } = await env.client.workflow.count(`${SA.runId.name}="${runId}"`);
    if (n >= count) return;
    if (Date.now() > deadline) throw new Error(`visibility lists ${n} of ${count} workflows of ${runId}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
