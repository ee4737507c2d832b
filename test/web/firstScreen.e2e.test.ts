/**
 * The web app's first screen and its links into the Temporal Web UI, in headless Chromium against the real server,
 * Temporal dev server (with its Web UI), sandbox and in-process workers; the model is scripted.
 * - The first screen has the message box and the upload: the first message creates the conversation and opens it.
 * - Every Temporal UI link the app shows (a conversation's header in chat and debug, each run in the runs view) is
 *   followed in the browser and lands on that workflow's page in the real Web UI (not its 404 page).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';
import type { WorkerSet } from '../../workers/createWorkers';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';
import { copyInputReply } from '../helpers/copyInput';
import { startBenchmarkRun, startE2E, startInProcessWorkers, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { SAMPLE } from '../helpers/datasets';
import { launchChromium, openPage } from './browser';

describe('web app: first screen and Temporal UI links', () => {
  let env: E2EEnv;
  let workers: WorkerSet;
  let running: Promise<void>;
  let server: RunningServer;
  let browser: Browser;
  let run: StartedRun;
  let uiBase: string;
  let conversationId = '';

  beforeAll(async () => {
    const reply = (r: Parameters<typeof salesAnalyst>[0]) =>
      r.messages.some((m) => m.content.includes('sales.csv')) ? salesAnalyst(r) : copyInputReply(r);
    const conversations = mkdtempSync(path.join(os.tmpdir(), 'sb-web-conv-'));
    env = await startE2E(
      { rules: [], fallback: reply },
      { config: { recalc: { engine: 'none' }, conversation: { dir: conversations } } },
    );
    workers = await startInProcessWorkers(env);
    running = workers.run();
    const runsDir = mkdtempSync(path.join(os.tmpdir(), 'sb-web-runs-'));
    run = await startBenchmarkRun(env, { dataset: SAMPLE, limit: 1, runDir: path.join(runsDir, 'run-one') });
    await run.handle.result();
    uiBase = `http://127.0.0.1:${env.temporal.uiPort}`;
    server = await startServer({
      config: env.config,
      client: env.client,
      temporal: {
        address: env.temporal.address,
        namespace: env.temporal.namespace,
        uiUrl: `${uiBase}/namespaces/${env.temporal.namespace}/workflows`,
      },
      port: 0,
      runsDir,
    });
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await workers?.shutdown();
    await running;
    await env?.close();
  });

  it('the first screen has the message box and the upload; the first message creates the conversation and opens it', async () => {
    const { page, pageErrors, foreignRequests, close } = await openPage(browser, server.url, {
      signInUrl: server.loginUrl,
    });
    await page.goto(server.url);
    const message = page.getByLabel('Message');
    await message.waitFor();
    expect(await page.getByRole('button', { name: 'Attach files…' }).isVisible()).toBe(true);
    expect(await page.locator('.conv-list li').count()).toBe(0);
    await page
      .locator('#file-input')
      .setInputFiles({ name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from(SALES_CSV) });
    await page.locator('.chip-attached', { hasText: 'sales.csv' }).waitFor();
    await message.fill('What is the total amount in sales.csv?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/#\/c\/[^/]+$/, { timeout: 30_000 });
    conversationId = decodeURIComponent(page.url().split('#/c/')[1]);
    await page.locator('.status-completed').waitFor({ timeout: 120_000 });
    expect(await page.locator('article.turn .answer').textContent()).toContain('47');
    // The file went into the new conversation before the message; the list shows the conversation.
    await server.service.resolveFile(conversationId, 'sales.csv');
    await expect.poll(() => page.locator('.conv-list li').count()).toBe(1);
    expect(pageErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    await close();
  }, 180_000);

  it('every Temporal UI link the app shows opens that workflow in the Web UI', async () => {
    expect(conversationId).not.toBe('');
    const { page, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
    const links = new Map<string, string>();
    const collect = async (where: string) => {
      const anchors = page.locator(`a[href^="${uiBase}"]`);
      await anchors.first().waitFor({ timeout: 30_000 });
      for (const href of await anchors.evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href)))
        links.set(href, where);
    };
    await page.goto(`${server.url}/#/c/${encodeURIComponent(conversationId)}`);
    await collect('chat header');
    await page.goto(`${server.url}/#/c/${encodeURIComponent(conversationId)}/debug`);
    await collect('debug header');
    await page.goto(`${server.url}/#/runs`);
    await collect('runs view');
    const expected = [`conv-${conversationId}`, run.runId];
    expect([...links.keys()].map((href) => decodeURIComponent(href.split('/workflows/')[1]))).toEqual(
      expect.arrayContaining(expected),
    );
    for (const [href, where] of links) await expectWorkflowPage(page, href, where);
    await close();
  }, 180_000);
});

/** The Web UI redirects a workflow's page to its latest run (`…/workflows/<id>/<run id>/…`) and shows the id; a route it lacks shows its 404 page. */
async function expectWorkflowPage(page: Page, href: string, where: string): Promise<void> {
  const workflowId = decodeURIComponent(href.split('/workflows/')[1]);
  await page.goto(href);
  const runPage = new RegExp(`/workflows/${escape(encodeURIComponent(workflowId))}/[0-9a-f-]{36}/`);
  await expect
    .poll(() => page.url(), {
      timeout: 30_000,
      message: `${where}: ${href} did not open the workflow's run (now at ${page.url()})`,
    })
    .toMatch(runPage);
  await page.getByText(workflowId, { exact: true }).first().waitFor({ timeout: 30_000 });
  expect(await page.locator('body').innerText(), `${where}: ${href}`).not.toMatch(/\b404\b/);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
