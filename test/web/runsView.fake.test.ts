/** The runs view in headless Chromium (runs from run folders; the fake conversation API only serves the page's other calls). */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnalysisApi } from '../helpers/fakeAnalysisApi';
import { buildRunFolder, standardRun } from '../report/fixtures';
import { launchChromium, openPage } from './browser';
import { salesScript } from './salesScript';

async function finishedRun(runsDir: string, runId: string, soft: number): Promise<void> {
  const dir = await buildRunFolder(runsDir, standardRun(runId));
  await writeFile(
    path.join(dir, 'summary.json'),
    JSON.stringify({ runId, tasks: 5, scored: 5, failed: 0, overall: { tasks: 5, soft, hard: 0.4 }, costUsd: 0.5 }),
  );
  await writeFile(path.join(dir, 'report.html'), `<h1>report ${runId}</h1>`);
}

describe('runs view (UI)', () => {
  let browser: Browser;
  let runsDir: string;
  let fake: FakeAnalysisApi;

  beforeAll(async () => {
    runsDir = await mkdtemp(path.join(os.tmpdir(), 'sb-runs-view-'));
    await finishedRun(runsDir, 'run-one', 0.625);
    fake = new FakeAnalysisApi({ script: salesScript(), runsDir });
    await fake.start();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.stop();
  });

  it('lists runs with scores, cost and a working report link, and shows a new run without a reload', async () => {
    const { page, pageErrors, close } = await openPage(browser, fake.url);
    // The page's timers run on a clock the test moves: the next refresh comes when the clock passes it, not after a wait.
    await page.clock.install();
    await page.goto(`${fake.url}/#/runs`);
    const row = page.locator('tr[data-run-id=run-one]');
    await row.waitFor();
    expect(await row.locator('td.soft').textContent()).toBe('62.5%');
    expect(await row.locator('td.hard').textContent()).toBe('40.0%');
    expect(await row.locator('td.cost').textContent()).toBe('$0.5000');
    const href = await row.locator('a.report-link').getAttribute('href');
    const report = await page.request.get(new URL(href!, fake.url).href);
    expect(await report.text()).toBe('<h1>report run-one</h1>');
    await finishedRun(runsDir, 'run-two', 0.9);
    await page.clock.runFor(3_000); // one refresh interval
    await page.locator('tr[data-run-id=run-two]').waitFor();
    expect(await page.locator('tr[data-run-id=run-two] td.soft').textContent()).toBe('90.0%');
    expect(pageErrors).toEqual([]);
    await close();
  });

  it('stops polling once the view is left, even with a load in flight then', async () => {
    const { page, pageErrors, close } = await openPage(browser, fake.url);
    await page.clock.install();
    let inFlight = 0;
    let requests = 0;
    let answer: () => void = () => undefined;
    // The first load is answered at once; the refresh after it is held until the view is left (a load in flight then).
    // A request marked `sentinel` is the test's own, made after the clock moved: by the time it is routed, any refresh a
    // leftover timer asked for has been routed too.
    await page.route('**/api/runs*', async (route) => {
      if (route.request().url().includes('sentinel')) return route.fulfill({ status: 204 });
      requests++;
      inFlight++;
      if (requests > 1) await new Promise<void>((resolve) => (answer = resolve));
      await route.continue();
      inFlight--;
    });
    await page.goto(`${fake.url}/#/runs`);
    await page.locator('tr[data-run-id=run-one]').waitFor();
    await page.clock.runFor(3_000); // one refresh interval: the next load is asked
    await expect.poll(() => inFlight).toBe(1);
    await page.evaluate("location.hash = '#/'");
    await page.locator('section.home').waitFor();
    const atLeave = requests;
    answer(); // the load in flight at the leave is answered after it
    await expect.poll(() => inFlight).toBe(0);
    await page.clock.runFor(10_000); // more than three refresh intervals (3 s)
    await page.evaluate(() => fetch('/api/runs?sentinel'));
    expect(requests).toBe(atLeave);
    expect(pageErrors).toEqual([]);
    await close();
  });
});
