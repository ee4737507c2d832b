import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium';
import { writeReport } from '../../benchmarks/spreadsheetbench/report/writeReport';
import { baselineRun, buildRunFolder, makeTempDir, standardRun } from './fixtures';

/** Opens the generated report.html in Debian's headless Chromium (file:// URL, nothing else reachable). */
describe('report.html in a browser', () => {
  let browser: Browser;
  let reportUrl: string;
  const requests: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    const tmp = await makeTempDir();
    const runDir = await buildRunFolder(tmp, standardRun());
    const baseDir = await buildRunFolder(tmp, baselineRun());
    reportUrl = pathToFileURL((await writeReport({ runDir, compareDir: baseDir })).html).href;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the charts, the task table and the comparison without loading anything external', async () => {
    const page = await browser.newPage();
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(reportUrl);
    const charts = page.locator('#charts svg.chart');
    // scores by type, tokens by stage, cost by stage, failure classes
    expect(await charts.count()).toBe(4);
    const titles = await page.locator('#charts svg.chart .chart-title').allTextContents();
    expect(titles).toEqual([
      'Soft / hard score by instruction type',
      'Tokens by stage',
      'Cost by stage (USD)',
      'Failure classes (tasks)',
    ]);
    // 3 groups (all + 2 types) x (soft, hard) bars, each with a visible width proportional to its value
    const scoreBars = charts.nth(0).locator('rect.bar');
    expect(await scoreBars.count()).toBe(6);
    const widths = await scoreBars.evaluateAll((els) =>
      els.map((e) => (e as unknown as { getBBox(): { width: number } }).getBBox().width),
    );
    expect(widths[0] / widths[1]).toBeCloseTo(0.6667 / 0.5, 2); // all: soft 66.7% vs hard 50%
    expect(await charts.nth(3).locator('rect.bar').getAttribute('data-series')).toBe('tasks');
    const rows = page.locator('#tasks tbody tr');
    expect(await rows.count()).toBe(5);
    expect(await rows.locator('td.id').allTextContents()).toEqual(['101', '102', '13-1', '104', '105']);
    expect(await page.locator('#tasks tr.pass').count()).toBe(2);
    expect(await page.locator('#tasks tr.pending').count()).toBe(1);
    expect(await page.locator('#comparison td.fixed').allTextContents()).toEqual(['fixed']);
    expect(await page.locator('#comparison td.broken').allTextContents()).toEqual(['broken']);
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    await page.close();
  });

  it('links each task id to a readable transcript page that resolves', async () => {
    const page = await browser.newPage();
    await page.goto(reportUrl);
    await page.locator('#tasks a.transcript', { hasText: '13-1' }).click();
    await page.waitForURL(/tasks\/13-1\/transcript\.html$/);
    expect(await page.locator('h1').textContent()).toBe('Task 13-1');
    expect(await page.locator('.msg').count()).toBe(5);
    expect(await page.locator('.msg.assistant').count()).toBe(2);
    // transcript text is escaped, never executed
    expect(await page.locator('.msg.user pre').first().textContent()).toContain('<script>alert("x")</script>');
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('.exec pre').first().textContent()).toBe("print('hello')");
    const back = await page.locator('a', { hasText: 'transcript.json' }).getAttribute('href');
    const res = await page.goto(new URL(back!, page.url()).href);
    expect(res?.ok()).toBe(true);
    expect(JSON.parse((await res!.text()) || '{}').messages).toHaveLength(5);
    await page.close();
  });
});
