/**
 * The web app under its Content-Security-Policy (server/routes/web.ts pageCsp), in headless Chromium against the FAKE
 * conversation API: an agent-written Vega-Lite spec with expressions renders through Vega's interpreter, and no page of
 * the app (chat with table, charts and Markdown; debug view; runs view) triggers a single CSP violation.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnalysisApi, type ScriptEntry } from '../helpers/fakeAnalysisApi';
import { launchChromium, newConversation, openPage } from './browser';
import { salesScript } from './salesScript';

/** Values 1..4 doubled by a `calculate`, the first dropped by a `filter`, the top bar coloured by a `test`: three expressions. */
const EXPR_SPEC = {
  data: {
    values: [
      { k: 'a', value: 1 },
      { k: 'b', value: 2 },
      { k: 'c', value: 3 },
      { k: 'd', value: 4 },
    ],
  },
  transform: [{ calculate: 'datum.value * 2', as: 'doubled' }, { filter: 'datum.doubled > 2' }],
  mark: 'bar',
  encoding: {
    x: { field: 'k', type: 'nominal', sort: null },
    y: { field: 'doubled', type: 'quantitative' },
    color: { condition: { test: 'datum.doubled >= 8', value: '#d62728' }, value: '#1f77b4' },
  },
};
const EXPR_CHART: ScriptEntry = {
  type: 'visualization',
  data: { output: { id: 'expr_chart', type: 'vega_lite', title: 'Doubled', spec: EXPR_SPEC } },
};
const ANSWER: ScriptEntry = {
  type: 'answer',
  data: {
    text: '**West** sells most.\n\n| region | sales |\n|:--|--:|\n| West | 210 |\n\n```python\nprint(totals)\n```\n\nSee [the file](#files).',
  },
};

/** Runs before any page script: every `securitypolicyviolation` the page sees goes into window.__csp. */
const RECORD_VIOLATIONS = `window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.effectiveDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || '')));`;

const violations = (page: Page) => page.evaluate(() => (globalThis as unknown as { __csp: string[] }).__csp);
/** The few DOM globals the page-side callbacks use (the project's tsconfig has no DOM lib). */
type Win = {
  getComputedStyle(el: unknown): { position: string };
  vegaEmbed(el: unknown, spec: unknown, opts: unknown): Promise<unknown>;
  document: { createElement(tag: string): unknown; body: { append(el: unknown): void } };
};

describe('web app under its Content-Security-Policy (against the fake API)', () => {
  let browser: Browser;
  let fake: FakeAnalysisApi;

  beforeAll(async () => {
    // The sales turn (table, bar chart) with an agent-written vega_lite chart, and an answer without salesScript's planted
    // `<img onerror>`: Chromium reports that handler as a script-src-attr violation when DOMPurify parses it (refused
    // twice over, then removed), which is the CSP doing its job but would hide a real violation in the count.
    fake = new FakeAnalysisApi({
      script: async (msg) => {
        const entries = await salesScript({ delayMs: 5 })(msg);
        const answer = entries.findIndex((e) => 'type' in e && e.type === 'answer');
        entries.splice(answer, 1, EXPR_CHART, ANSWER);
        return entries;
      },
    });
    await fake.start();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.stop();
  });

  it('a Vega-Lite spec with calculate, filter and test expressions renders through the interpreter, with no CSP violation on any view', async () => {
    const { page, pageErrors, foreignRequests, close } = await openPage(browser, fake.url);
    await page.addInitScript(RECORD_VIOLATIONS);
    const cspConsole: string[] = [];
    page.on(
      'console',
      (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && cspConsole.push(m.text()),
    );
    const response = await page.goto(fake.url);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self' 'sha256-");
    await newConversation(page);
    await page.getByLabel('Message').fill('total sales by region, and the doubled values');
    await page.getByLabel('Message').press('Enter');
    await page.locator('.status-completed').waitFor();
    expect(await page.locator('.answer strong').textContent()).toBe('West');
    expect(await page.locator('.answer td[align=right]').textContent()).toBe('210');

    // calculate doubled 1..4 to 2..8, filter dropped the 2: three bars 4, 6, 8; the test expression coloured the 8
    const bars = page.locator('[data-viz-id=expr_chart] svg .mark-rect path');
    await expect.poll(() => bars.count()).toBe(3);
    const heights = await bars.evaluateAll((els) =>
      els.map((e) => (e as unknown as { getBBox(): { height: number } }).getBBox().height),
    );
    expect(heights.map((h) => h / heights[2])).toEqual([expect.closeTo(0.5, 2), expect.closeTo(0.75, 2), 1]);
    expect(await bars.evaluateAll((els) => els.map((e) => e.getAttribute('fill')))).toEqual([
      '#1f77b4',
      '#1f77b4',
      '#d62728',
    ]);
    expect(await page.locator('[data-viz-id=expr_chart] svg .role-axis-label text').allTextContents()).toEqual(
      expect.arrayContaining(['b', 'c', 'd']),
    );
    expect(await page.locator('[data-viz-id=expr_chart] svg .role-axis-label text').allTextContents()).not.toContain(
      'a',
    );
    expect(await page.locator('[data-viz-id=expr_chart] .viz-error').count()).toBe(0);
    // vega-embed's actions menu and vega-tooltip work with their CSS from app.css (their own <style> is refused)
    const chart = page.locator('[data-viz-id=expr_chart]');
    expect(
      await chart.locator('summary').evaluate((el) => (globalThis as unknown as Win).getComputedStyle(el).position),
    ).toBe('absolute');
    await chart.locator('summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), chart.getByText('Save as SVG').click()]);
    expect(await readFile(await download.path(), 'utf8')).toMatch(/^<svg[^>]*>[\s\S]*mark-rect[\s\S]*<\/svg>$/);
    await page.locator('[data-viz-id=sales_chart] svg .mark-rect path').nth(3).hover();
    await page.locator('#vg-tooltip-element.visible').waitFor();
    expect(await page.locator('#vg-tooltip-element').textContent()).toMatch(/West.*210/);

    await page.getByRole('tab', { name: 'Debug' }).click();
    await expect.poll(() => page.locator('.debug-step').count()).toBe(2);
    await page.locator('.debug-step details.diff summary').nth(0).click();
    await page.goto(`${fake.url}/#/runs`);
    await page.locator('section.runs').waitFor();

    expect(await violations(page)).toEqual([]);
    expect(cspConsole).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    await close();
  });

  it('the policy really bites: eval is refused and recorded, and the same spec without ast/expr does not render', async () => {
    const { page, close } = await openPage(browser, fake.url);
    await page.addInitScript(RECORD_VIOLATIONS);
    await page.goto(fake.url);
    await newConversation(page);
    await page.getByLabel('Message').fill('chart');
    await page.getByLabel('Message').press('Enter');
    await page.locator('[data-viz-id=expr_chart] svg .mark-rect path').first().waitFor();
    expect(await violations(page)).toEqual([]);

    // In a timer: code run by page.evaluate itself may eval (DevTools is exempt), a later task of the page may not.
    const evalResult = await page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          setTimeout(() => {
            try {
              resolve(String(new Function('return 1')()));
            } catch (e) {
              resolve((e as Error).name);
            }
          }),
        ),
    );
    expect(evalResult).toBe('EvalError');
    // vega-embed's default (expressions compiled with Function) fails on the same spec
    const compiled = await page.evaluate(async (spec) => {
      const g = globalThis as unknown as Win;
      const el = g.document.createElement('div');
      g.document.body.append(el);
      await new Promise((resolve) => setTimeout(resolve)); // out of page.evaluate's own task (see above)
      try {
        await g.vegaEmbed(el, spec, { renderer: 'svg', actions: false, defaultStyle: false, tooltip: false });
        return 'rendered';
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    }, EXPR_SPEC);
    expect(compiled).toMatch(/^EvalError/);
    const seen = await violations(page);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.filter((v) => !v.startsWith('script-src eval'))).toEqual([]);
    await close();
  });
});
