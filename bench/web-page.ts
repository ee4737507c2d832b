/**
 * Page weight and time to first render of the analysis web app on a conversation with 20 turns, each with a table and a
 * bar chart, served by the real server (real Temporal, sandbox, scripted model). Cold = new browser context (empty
 * cache); warm = reload in the same context (vendor files are immutable-cached, app files revalidate by ETag).
 *   nice -n 10 node --import tsx bench/web-page.ts [--turns 20] [--runs 5]
 */
import type { Page, Response } from 'playwright-core';
import { jsonBody, startAnalysisEnv, waitForTurn } from '../test/helpers/analysis';
import { launchChromium } from '../test/web/browser';
import { SALES_CSV } from '../test/web/salesScript';
import { salesReply } from '../test/web/salesModel';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const TURNS = arg('turns', 20);
const RUNS = arg('runs', 5);

const a = await startAnalysisEnv(salesReply);
try {
  const { id } = await a.json<{ id: string }>('/api/conversations', jsonBody({ title: `${TURNS} turns` }));
  const form = new FormData();
  form.append('file', new Blob([SALES_CSV], { type: 'text/csv' }), 'sales.csv');
  await a.api(`/api/conversations/${id}/files`, { method: 'POST', body: form });
  const t0 = Date.now();
  for (let i = 0; i < TURNS; i++) {
    await waitForTurn(a, id, await send(id, `Turn ${i + 1}: total sales by region as a table and a bar chart`));
  }
  console.log(
    `made a conversation of ${TURNS} turns (${(await a.server.service.events(id)).length} events) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );

  const browser = await launchChromium();
  const url = `${a.server.url}/#/c/${id}`;
  const cold: Measure[] = [];
  const warm: Measure[] = [];
  for (let r = 0; r < RUNS; r++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(markRenders(TURNS));
    const page = await context.newPage();
    cold.push(await measure(page, () => page.goto(url)));
    warm.push(await measure(page, () => page.reload()));
    await context.close();
  }
  await browser.close();
  report('cold (empty cache)', cold);
  report('warm (reload)', warm);
} finally {
  await a.close();
}

/** Posts a message; the turn_ended event can precede the workflow's own end of the turn by a moment (409): retry then. */
async function send(id: string, text: string): Promise<string> {
  for (;;) {
    const res = await a.api(`/api/conversations/${id}/messages`, jsonBody({ text }));
    if (res.status === 202) return ((await res.json()) as { turnId: string }).turnId;
    if (res.status !== 409) throw new Error(`message refused: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Measure {
  jsBytes: number;
  cssBytes: number;
  requests: number;
  firstTurnMs: number;
  allTurnsMs: number;
  allChartsMs: number;
}

/** Bytes of JS and CSS the page loaded (bodies, also when served from cache) and times since navigation start. */
async function measure(page: Page, navigate: () => Promise<unknown>): Promise<Measure> {
  const pending: Promise<void>[] = [];
  const m = { jsBytes: 0, cssBytes: 0, requests: 0 };
  const onResponse = (res: Response) => {
    const type = res.request().resourceType();
    m.requests++;
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      res.body().then(
        (b) => void (type === 'script' ? (m.jsBytes += b.length) : (m.cssBytes += b.length)),
        () => undefined,
      ),
    );
  };
  page.on('response', onResponse);
  await navigate();
  await page.waitForFunction('window.__marks && window.__marks.charts', undefined, { timeout: 120_000, polling: 100 });
  const marks = await page.evaluate<{ first: number; answers: number; charts: number }>('window.__marks');
  await Promise.all(pending);
  page.off('response', onResponse);
  return { ...m, firstTurnMs: marks.first, allTurnsMs: marks.answers, allChartsMs: marks.charts };
}

/** Records, in the page, when the first turn, all answers and all charts are first in the DOM (ms since navigation start). */
function markRenders(turns: number): string {
  return `(() => {
    const marks = (window.__marks = {});
    const count = (sel) => document.querySelectorAll(sel).length;
    const check = () => {
      const now = performance.now();
      if (!marks.first && count('article.turn') >= 1) marks.first = now;
      if (!marks.answers && count('article.turn .answer') >= ${turns}) marks.answers = now;
      if (!marks.charts && count('[data-viz-id=sales_chart] svg.marks') >= ${turns}) marks.charts = now;
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
  })();`;
}

function report(label: string, ms: Measure[]): void {
  const med = (k: keyof Measure) => {
    const v = ms.map((x) => x[k]).sort((x, y) => x - y);
    return v[Math.floor(v.length / 2)];
  };
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `${label}, median of ${ms.length}: JS ${kb(med('jsBytes'))}, CSS ${kb(med('cssBytes'))}, ${med('requests')} requests; ` +
      `first turn shown ${med('firstTurnMs').toFixed(0)} ms, all ${TURNS} answers ${med('allTurnsMs').toFixed(0)} ms, all ${TURNS} charts drawn ${med('allChartsMs').toFixed(0)} ms after navigation start`,
  );
}
