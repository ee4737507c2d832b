/**
 * The web app end to end in headless Chromium: the REAL server (server/start.ts: conversation API + runs + web routes),
 * a real Temporal dev server, the real bwrap sandbox running the Python the scripted model writes, and a worker in its
 * own process (so it can be killed mid-turn). The model is scripted (scripted-llm); its calls can be held by the test.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';
import { FAST_FAILOVER, startE2E, workerProcessEnv, type E2EEnv } from '../helpers/e2e';
import { claimPort, type PortClaim } from '../helpers/portClaim';
import { spawnWorker, type WorkerProcess } from '../helpers/workerProcess';
import { launchChromium, newConversation, openPage } from './browser';
import { EventStreamLog } from './eventStreamLog';
import { SALES_CSV, SALES_TOTALS } from './salesScript';
import { hold, salesModel, type Hold } from './salesModel';

const QUESTION = 'Total sales by region, as a table and a bar chart';

describe('analysis web app end to end (real server, Temporal, sandbox; scripted model)', () => {
  let env: E2EEnv;
  let server: RunningServer;
  let worker: WorkerProcess;
  let browser: Browser;
  /** The server's port, the same at every start (the restart test brings it back where the page expects it). */
  let port: PortClaim;
  /** Held when set: the model's call after a tool result (the answer), and its first call of a turn (the code). */
  let holdAnswer: Hold | undefined;
  let holdFirst: Hold | undefined;

  const model = salesModel({ answer: () => holdAnswer, first: () => holdFirst });

  const startWorker = async () => {
    worker = spawnWorker({ ...workerProcessEnv(env), SHEETBENCH_WORKER_RECALC: '0' });
    await worker.ready;
  };

  beforeAll(async () => {
    env = await startE2E(
      { rules: [], fallback: model },
      { config: { ...FAST_FAILOVER, recalc: { engine: 'none' }, conversation: { maxUploadBytes: 100_000 } } },
    );
    await startWorker();
    port = await claimPort();
    server = await startApiServer();
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    holdAnswer?.open();
    holdFirst?.open();
    await browser?.close();
    await server?.close();
    port?.release();
    worker?.crash();
    await env?.close();
  });

  /** The real server (conversation API, runs, web app) on the claimed port; its sign-in state persists across starts. */
  const startApiServer = () =>
    startServer({
      config: env.config,
      client: env.client,
      temporal: { address: env.temporal.address, namespace: env.temporal.namespace },
      port: port.port,
    });

  async function newConversationWithCsv(page: Page): Promise<string> {
    await page.goto(server.url);
    await newConversation(page);
    await page
      .locator('#file-input')
      .setInputFiles({ name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from(SALES_CSV) });
    await page.locator('.chip-uploaded').waitFor();
    return decodeURIComponent(page.url().split('#/c/')[1]);
  }

  async function ask(page: Page, text = QUESTION): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('upload a CSV, ask for grouped totals and a bar chart: streamed steps, table rows and bars match the data, the file downloads byte for byte, the debug view has the prompt and stdout', async () => {
    holdAnswer = hold();
    const { page, pageErrors, foreignRequests, close } = await openPage(browser, server.url, {
      signInUrl: server.loginUrl,
    });
    const id = await newConversationWithCsv(page);
    await ask(page);
    const turn = page.locator('article.turn').first();
    // streamed while the turn is still running (the answer call is held)
    await expect.poll(() => turn.locator('.stdout').first().textContent(), { timeout: 90_000 }).toContain('West');
    expect(await turn.locator('.working').count()).toBe(1);
    expect(await turn.locator('details.code').count()).toBeGreaterThan(0);
    holdAnswer.open();
    await turn.locator('.status-completed').waitFor({ timeout: 90_000 });

    const rows = await turn
      .locator('[data-viz-id=totals] tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toEqual(SALES_TOTALS.map(([r, s]) => [r, String(s)]));
    const bars = turn.locator('[data-viz-id=sales_chart] svg .mark-rect path');
    await expect.poll(() => bars.count()).toBe(SALES_TOTALS.length);
    const heights = await bars.evaluateAll((els) =>
      els.map((e) => (e as unknown as { getBBox(): { height: number } }).getBBox().height),
    );
    const max = Math.max(...SALES_TOTALS.map((t) => t[1]));
    SALES_TOTALS.forEach(([, total], i) => expect(heights[i] / Math.max(...heights)).toBeCloseTo(total / max, 2));
    expect(await turn.locator('[data-viz-id=sales_chart] svg text').allTextContents()).toEqual(
      expect.arrayContaining(['Total sales by region', 'Region', 'Sales (USD)']),
    );

    const link = turn.locator('a.file-link', { hasText: 'by_region.csv' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(await readFile(await download.path())).toEqual(
      await readFile(await server.service.resolveFile(id, 'by_region.csv')),
    );
    expect(await turn.locator('.answer').textContent()).toContain('North');

    await page.getByRole('tab', { name: 'Debug' }).click();
    const steps = page.locator('.debug-step');
    await expect.poll(() => steps.count()).toBeGreaterThanOrEqual(2);
    await steps.first().locator('details.prompt summary').click();
    expect(await steps.first().locator('.prompt-msg.role-user pre').first().textContent()).toContain(QUESTION);
    expect(await steps.first().locator('.prompt-msg.role-system pre').first().textContent()).toContain('sales.csv');
    expect(await page.locator('.debug-step pre.stdout').first().textContent()).toContain('West');
    expect(pageErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    await close();
  }, 240_000);

  it('reload mid-turn: the page shows the running turn where it stands and then its end, nothing twice', async () => {
    holdAnswer = hold();
    const { page, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
    await newConversationWithCsv(page);
    await ask(page);
    await expect.poll(() => page.locator('article.turn .stdout').count(), { timeout: 90_000 }).toBe(1);
    const before = await page.locator('article.turn .work > li').count();
    await page.reload();
    await expect.poll(() => page.locator('article.turn .stdout').count()).toBe(1);
    expect(await page.locator('article.turn .work > li').count()).toBe(before);
    expect(await page.locator('.working').count()).toBe(1);
    holdAnswer.open();
    await page.locator('.status-completed').waitFor({ timeout: 90_000 });
    expect(await page.locator('article.turn').count()).toBe(1);
    expect(await page.locator('article.turn .stdout').count()).toBe(1);
    await close();
  }, 240_000);

  it('kill the worker mid-turn: the turn stays running on the page, then resumes on a new worker and finishes', async () => {
    holdAnswer = hold();
    const { page, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
    await newConversationWithCsv(page);
    await ask(page);
    await expect.poll(() => page.locator('article.turn .stdout').count(), { timeout: 90_000 }).toBe(1);
    worker.crash(); // the held answer call dies with it
    await worker.exited;
    holdAnswer.open();
    await new Promise((r) => setTimeout(r, 2000));
    expect(await page.locator('.working').count()).toBe(1); // still running, nothing lost
    await startWorker();
    await page.locator('.status-completed').waitFor({ timeout: 150_000 });
    expect(await page.locator('article.turn .answer').textContent()).toContain('West');
    expect(await page.locator('article.turn .stdout').count()).toBe(1); // the execution was not shown (or run) twice
    await close();
  }, 300_000);

  it('the server restarts mid-turn: the page says so, retries while it is away, then resumes the stream without a reload', async ({
    onTestFailed,
  }) => {
    holdAnswer = hold();
    const { page, pageErrors, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
    const log = new EventStreamLog(page, server.url);
    onTestFailed(() =>
      console.log(`page errors: ${pageErrors.join(' | ') || 'none'}\nevent streams and steps:\n${log}`),
    );
    const id = await newConversationWithCsv(page);
    await ask(page);
    await expect.poll(() => page.locator('article.turn .stdout').count(), { timeout: 90_000 }).toBe(1);
    const seenBefore = (await server.service.events(id)).length;

    await server.close();
    log.mark('server stopped');
    await page.locator('.banner', { hasText: 'reconnecting' }).waitFor({ timeout: 30_000 });
    await expect
      .poll(() => log.after('server stopped', 'ERR_CONNECTION_REFUSED').length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2);
    server = await startApiServer();
    log.mark('server back');
    holdAnswer.open(); // the turn goes on in its worker meanwhile: the page must pick up what it missed
    await page.locator('.status-completed').waitFor({ timeout: 90_000 });
    expect(await page.locator('article.turn .answer').textContent()).toContain('West');
    expect(await page.locator('article.turn .stdout').count()).toBe(1); // nothing shown twice
    await page.locator('.banner').waitFor({ state: 'detached', timeout: 30_000 });
    // reopened by the page from the last event it had (more may have been logged since it was counted)
    const after = Number(/\/events\?after=(\d+)$/.exec(log.after('server back', 'response 200')[0]?.what ?? '')?.[1]);
    expect(after).toBeGreaterThanOrEqual(seenBefore);
    expect(pageErrors).toEqual([]);
    await close();
  }, 240_000);

  it('cancel a turn: it ends as cancelled on the page', async () => {
    holdFirst = hold();
    const { page, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
    await newConversationWithCsv(page);
    await ask(page);
    await page.getByRole('button', { name: 'Cancel turn' }).click();
    await page.locator('.status-cancelled').waitFor({ timeout: 90_000 });
    holdFirst.open();
    holdFirst = undefined;
    await expect.poll(() => page.getByRole('button', { name: 'Cancel turn' }).count(), { timeout: 30_000 }).toBe(0);
    await close();
  }, 240_000);

  it('bad input on the page: a refused or oversized upload, a message while a turn runs, an unknown id — each said where it happens, nothing typed lost', async () => {
    holdFirst = hold();
    const { page, pageErrors, close } = await openPage(browser, server.url, { signInUrl: server.loginUrl });
    await newConversationWithCsv(page);
    await page.locator('#file-input').setInputFiles([
      { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n' + '1,2\n'.repeat(60_000)) },
      { name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ]);
    const failed = page.locator('.chip-failed');
    await expect.poll(() => failed.count()).toBe(2);
    expect(await failed.nth(0).textContent()).toMatch(/limit/);
    expect(await failed.nth(1).textContent()).toContain('tool.exe');
    await ask(page);
    await page.locator('article.turn').waitFor();
    await page.getByLabel('Message').fill('and per product?');
    await page.getByLabel('Message').press('Enter');
    await expect
      .poll(() => page.locator('.composer-error').textContent(), { timeout: 30_000 })
      .toContain('your message is kept');
    expect(await page.getByLabel('Message').inputValue()).toBe('and per product?');
    holdFirst.open();
    holdFirst = undefined;
    await page.locator('.status-completed').waitFor({ timeout: 90_000 });
    await page.goto(`${server.url}/#/c/does-not-exist`);
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('does-not-exist');
    expect(pageErrors).toEqual([]);
    await close();
  }, 240_000);
});
