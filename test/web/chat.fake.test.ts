/**
 * The web app in headless Chromium against the FAKE conversation API (test/helpers/fakeAnalysisApi.ts, a test double that
 * plays scripted events): UI behaviour only — streaming, rendering of tables/charts, files, debug view, reload, cancel and
 * the bad-input paths. The same page against the real agent/Temporal/sandbox is test/web/chat.e2e.test.ts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnalysisApi } from '../helpers/fakeAnalysisApi';
import { launchChromium, newConversation, openPage } from './browser';
import { EventStreamLog } from './eventStreamLog';
import { CODE_V1, SALES_CSV, SALES_TOTALS, salesScript } from './salesScript';

const CSV_FILE = { name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from(SALES_CSV) };
const QUESTION = 'total sales by region as a bar chart';
/** The server-restart test's own time, set on the test: its waits share it (it normally takes under 5 s). */
const RESTART_TEST_MS = 60_000;
/** Kept back from the waits so a failed wait still has time to print the event streams' log and close its page. */
const REPORT_MARGIN_MS = 5_000;
/** The few DOM globals the page-side callbacks use (the project's tsconfig has no DOM lib). */
type Doc = { document: { documentElement: { scrollWidth: number }; activeElement: unknown } };

describe('analysis web app (UI against the fake API)', () => {
  const app = fakeApp();
  const { fake } = app;

  async function openNewConversation(page: Page): Promise<string> {
    await page.goto(fake.url);
    await newConversation(page);
    await page.getByLabel('Message').waitFor();
    return decodeURIComponent(page.url().split('#/c/')[1]);
  }

  async function askWithCsv(page: Page): Promise<void> {
    await page.locator('#file-input').setInputFiles(CSV_FILE);
    await page.locator('.chip-uploaded').waitFor();
    await page.getByLabel('Message').fill(QUESTION);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('upload a CSV, ask: the steps stream in, the table rows and the bars match the data, the file downloads byte for byte', async () => {
    app.pauseAt = 4; // hold the turn after the first execution's result
    const { page, pageErrors, foreignRequests, close } = await openPage(app.browser, fake.url);
    const id = await openNewConversation(page);
    await askWithCsv(page);
    const turn = page.locator('article.turn').first();
    // mid-turn: the reasoning step, the (collapsed) code and the execution's stdout are on the page, no answer yet
    await expect.poll(() => turn.locator('.stdout').first().textContent()).toContain('West   210');
    expect(await turn.locator('.step').first().textContent()).toContain('Load the CSV');
    expect(await turn.locator('details.code').first().getAttribute('open')).toBeNull();
    expect(await turn.locator('.working').count()).toBe(1);
    expect(await turn.locator('.answer').count()).toBe(0);
    await turn.locator('details.code summary').first().click();
    expect(await turn.locator('details.code pre').first().textContent()).toBe(CODE_V1);
    fake.release(id);
    await turn.locator('.status-completed').waitFor();

    // the table fills once its data file is fetched, which may come after the turn shows as completed
    const rows = () =>
      turn
        .locator('[data-viz-id=totals] tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    await expect.poll(rows).toEqual(SALES_TOTALS.map(([r, s]) => [r, String(s)]));
    const chart = turn.locator('[data-viz-id=sales_chart]');
    const bars = chart.locator('svg .mark-rect path');
    await expect.poll(() => bars.count()).toBe(SALES_TOTALS.length);
    const heights = await bars.evaluateAll((els) =>
      els.map((e) => (e as unknown as { getBBox(): { height: number } }).getBBox().height),
    );
    const max = Math.max(...SALES_TOTALS.map((t) => t[1]));
    SALES_TOTALS.forEach(([, total], i) => expect(heights[i] / Math.max(...heights)).toBeCloseTo(total / max, 2));
    const texts = await chart.locator('svg text').allTextContents();
    expect(texts).toEqual(
      expect.arrayContaining(['Total sales by region', 'Region', 'Sales (USD)', 'North', 'South', 'East', 'West']),
    );

    const [download] = await Promise.all([page.waitForEvent('download'), turn.locator('a.file-link').click()]);
    const fromServer = await readFile(path.join(fake.conversations.get(id)!.workspace, 'out/sales_by_region.csv'));
    expect(download.suggestedFilename()).toBe('sales_by_region.csv');
    expect(await readFile(await download.path())).toEqual(fromServer);

    expect(await turn.locator('.answer strong').textContent()).toBe('West');
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined(); // model HTML is sanitised
    expect(await turn.locator('.usage').textContent()).toContain('2094 tokens');
    expect(pageErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    await close();
  });

  it('debug view: the full prompt, the reply, stdout, the diff between code versions, timings and the sandbox', async () => {
    app.pauseAt = undefined;
    const { page, pageErrors, close } = await openPage(app.browser, fake.url);
    const id = await openNewConversation(page);
    await askWithCsv(page);
    await page.locator('.status-completed').waitFor();
    await page.getByRole('tab', { name: 'Debug' }).click();
    await page.waitForURL(new RegExp(`#/c/${id}/debug$`));
    const steps = page.locator('.debug-step');
    await expect.poll(() => steps.count()).toBe(2);
    await steps.first().locator('details.prompt summary').click();
    expect(await steps.first().locator('.prompt-msg.role-system pre').textContent()).toContain(
      'You are a data analyst',
    );
    expect(await steps.first().locator('.prompt-msg.role-user pre').textContent()).toBe(QUESTION);
    expect(await steps.first().locator('pre.stdout').textContent()).toContain('East   105.5');
    expect(await steps.first().locator('.timing').textContent()).toContain('model820 ms');
    await steps.nth(1).locator('details.diff summary').click();
    const added = await steps.nth(1).locator('details.diff .add').allTextContents();
    expect(added.map((l) => l.trim())).toContain("+ save_chart(totals, 'bar', x='region', y='sales')");
    expect(await steps.nth(1).locator('details.diff .del').allTextContents()).toEqual([
      "- totals = df.groupby('region').sales.sum()",
      '- print(totals)',
    ]);
    expect(await steps.first().locator('.sandbox summary').textContent()).toContain('Python 3.11.2');
    expect(pageErrors).toEqual([]);
    await close();
  });

  it('reload mid-turn: the turn shows where it stands, then finishes, with no step shown twice', async () => {
    app.pauseAt = 4;
    const { page, close } = await openPage(app.browser, fake.url);
    const id = await openNewConversation(page);
    await askWithCsv(page);
    const work = page.locator('article.turn .work > li');
    await expect.poll(() => work.count()).toBe(3); // step, code, python_execute with its result
    await page.reload();
    await expect.poll(() => page.locator('article.turn .stdout').count()).toBe(1);
    expect(await work.count()).toBe(3);
    expect(await page.locator('.working').count()).toBe(1);
    fake.release(id);
    await page.locator('.status-completed').waitFor();
    expect(await work.count()).toBe(6);
    expect(await page.locator('article.turn').count()).toBe(1);
    await close();
  });

  it('cancel a running turn: it ends as cancelled and nothing more streams in', async () => {
    app.pauseAt = 2;
    const { page, close } = await openPage(app.browser, fake.url);
    const id = await openNewConversation(page);
    await askWithCsv(page);
    await expect.poll(() => page.locator('article.turn .work > li').count()).toBe(2);
    await page.getByRole('button', { name: 'Cancel turn' }).click();
    await page.locator('.status-cancelled').waitFor();
    expect(await page.locator('article.turn .work > li').count()).toBe(2);
    expect(fake.conversations.get(id)!.running).toBeUndefined();
    await expect.poll(() => page.getByRole('button', { name: 'Cancel turn' }).count()).toBe(0);
    await close();
  });
});

describe('analysis web app: bad input (against the fake API)', () => {
  const app = fakeApp();
  const { fake } = app;

  it('an upload over the limit or of a refused type is shown on its file, and the typed text stays', async () => {
    const { page, close } = await openPage(app.browser, fake.url);
    await page.goto(fake.url);
    await newConversation(page);
    await page.getByLabel('Message').fill('my question');
    await page.locator('#file-input').setInputFiles([
      { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.alloc(5000, 'a') },
      { name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ]);
    const failed = page.locator('.chip-failed');
    await expect.poll(() => failed.count()).toBe(2);
    expect(await failed.nth(0).textContent()).toContain('over the 4000-byte upload limit');
    expect(await failed.nth(1).textContent()).toContain('tool.exe: refused type');
    expect(await page.getByLabel('Message').inputValue()).toBe('my question');
    await close();
  });

  it('a message while a turn runs is refused on the page, kept, and sent once the turn is over', async () => {
    app.pauseAt = 1;
    const { page, close } = await openPage(app.browser, fake.url);
    await page.goto(fake.url);
    await newConversation(page);
    await page.waitForURL(/#\/c\//);
    const id = decodeURIComponent(page.url().split('#/c/')[1]);
    await page.getByLabel('Message').fill('first');
    await page.getByLabel('Message').press('Enter');
    await page.locator('article.turn .step').waitFor();
    await page.getByLabel('Message').fill('second question');
    await page.getByLabel('Message').press('Enter');
    await expect.poll(() => page.locator('.composer-error').textContent()).toContain('a turn is already running');
    expect(await page.getByLabel('Message').inputValue()).toBe('second question');
    app.pauseAt = undefined;
    fake.release(id);
    await page.locator('.status-completed').waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('article.turn').count()).toBe(2);
    expect(await page.locator('article.turn').nth(1).locator('.msg.user .text').textContent()).toBe('second question');
    await close();
  });

  it('an unknown conversation id gets a clear message, not a blank page', async () => {
    const { page, pageErrors, close } = await openPage(app.browser, fake.url);
    await page.goto(`${fake.url}/#/c/no-such-id`);
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('no conversation no-such-id');
    expect(await page.locator('nav.sidebar').count()).toBe(1);
    expect(pageErrors).toEqual([]);
    await close();
  });

  it(
    'the server goes away mid-turn and comes back: the page says so, retries, then resumes the stream without a reload',
    { timeout: RESTART_TEST_MS },
    async ({ onTestFailed }) => {
      // Every wait gets what is left of the test's own time (less a margin), so a stall fails on that wait and the
      // log below is printed, never cut by the test timeout.
      const deadline = Date.now() + RESTART_TEST_MS - REPORT_MARGIN_MS;
      const left = () => Math.max(deadline - Date.now(), 1);
      app.pauseAt = 4; // turn_started, step, code, tool_call, tool_result: then the turn waits for release
      const { page, pageErrors, close } = await openPage(app.browser, fake.url);
      page.setDefaultTimeout(left());
      const log = new EventStreamLog(page, fake.url);
      let id = '';
      onTestFailed(() => {
        const conv = fake.conversations.get(id);
        console.log(
          `conversation ${id}: ${conv?.events.length} events on the server, turn ${conv?.running ? 'running' : 'not running'}; page errors: ${pageErrors.join(' | ') || 'none'}\nevent streams and steps:\n${log}`,
        );
      });
      await page.goto(fake.url);
      await newConversation(page);
      id = decodeURIComponent(page.url().split('#/c/')[1]);
      await page.getByLabel('Message').fill(QUESTION);
      await page.getByLabel('Message').press('Enter');
      const work = page.locator('article.turn .work > li');
      await page.locator('article.turn .stdout').waitFor({ timeout: left() }); // the tool's result: the turn is paused
      expect(await work.count()).toBe(3);
      const seenBefore = fake.conversations.get(id)!.events.length;

      await fake.stop();
      log.mark('server stopped');
      await page.locator('.banner', { hasText: 'reconnecting' }).waitFor({ timeout: left() });
      // while the server is away the page keeps trying (two refused reconnects), then it comes back
      await expect
        .poll(() => log.after('server stopped', 'ERR_CONNECTION_REFUSED').length, { timeout: left() })
        .toBeGreaterThanOrEqual(2);
      await fake.start();
      log.mark('server back');
      fake.release(id);
      await page.locator('.status-completed').waitFor({ timeout: left() });
      log.mark('turn completed on the page');
      expect(await work.count()).toBe(6);
      await page.locator('.banner').waitFor({ state: 'detached', timeout: left() });
      // resumed by the page's own reopen, from the last event it had
      const resumed = log.after('server back', 'response 200');
      expect(resumed[0]?.what).toContain(`/events?after=${seenBefore}`);
      console.log(
        `reconnect: ${resumed[0].ms - log.timeOf('server back')!} ms after the server was back; turn completed ${log.timeOf('turn completed on the page')! - log.timeOf('server back')!} ms after`,
      );
      await close();
    },
  );

  it('phone width: nothing overflows sideways; every control has a label; keyboard focus is visible', async () => {
    app.pauseAt = undefined;
    const { page, close } = await openPage(app.browser, fake.url, { width: 390, height: 800 });
    await page.goto(fake.url);
    await newConversation(page);
    await page.getByLabel('Message').fill(QUESTION);
    await page.getByLabel('Message').press('Enter');
    await page.locator('.status-completed').waitFor();
    await page.locator('[data-viz-id=sales_chart] svg.marks').waitFor();
    expect(
      await page.evaluate(() => (globalThis as unknown as Doc).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390);
    // every control has an accessible name (Chromium's accessibility tree computes it from labels, aria-label or text)
    const controls = page.locator('button, input:not([type=file]), select, textarea, a[href]');
    const unlabeled: string[] = [];
    for (let i = 0; i < (await controls.count()); i++) {
      const el = controls.nth(i);
      if (!(await el.isVisible())) continue;
      const snapshot = await el.ariaSnapshot();
      if (!/^- [\w-]+ "[^"]+"/.test(snapshot)) unlabeled.push(snapshot);
    }
    expect(unlabeled).toEqual([]);
    await page.getByLabel('Message').focus();
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const g = globalThis as unknown as Doc & { getComputedStyle(el: unknown): { outlineStyle: string } };
      return g.getComputedStyle(g.document.activeElement).outlineStyle;
    });
    expect(outline).not.toBe('none');
    await close();
  });
});

/** The fake API (scripted sales turn, 4000-byte upload limit) and a browser, for one describe block. */
function fakeApp() {
  const app = {
    browser: undefined as unknown as Browser,
    /** Pause the next turns after this many events (released by fake.release). */
    pauseAt: undefined as number | undefined,
    fake: undefined as unknown as FakeAnalysisApi,
  };
  app.fake = new FakeAnalysisApi({ script: (msg) => salesScript({ pauseAt: app.pauseAt })(msg), maxUploadBytes: 4000 });
  beforeAll(async () => {
    await app.fake.start();
    app.browser = await launchChromium();
  });
  afterAll(async () => {
    await app.browser?.close();
    await app.fake.stop();
  });
  return app;
}
