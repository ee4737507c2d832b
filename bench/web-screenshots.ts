/**
 * Screenshots of the analysis web app served by the real server (real Temporal, sandbox, scripted model) into bench/out/:
 * web-chat.png (a turn with its table and bar chart), web-debug.png, web-runs.png (a finished run folder with its report
 * and a run workflow Temporal knows), web-phone.png (the chat at 390 px).
 *   nice -n 10 node --import tsx bench/web-screenshots.ts
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SA } from '../lib/temporal/searchAttributes';
import { writeReport } from '../benchmarks/spreadsheetbench/report/writeReport';
import { jsonBody, startAnalysisEnv, waitForTurn } from '../test/helpers/analysis';
import { buildRunFolder, standardRun } from '../test/report/fixtures';
import { launchChromium } from '../test/web/browser';
import { SALES_CSV } from '../test/web/salesScript';
import { salesReply } from '../test/web/salesModel';

const OUT = path.resolve('bench/out');
await mkdir(OUT, { recursive: true });
// The runs route lists runs/ of the working directory: give it one finished run folder (with report.html), removed at the end.
const runDir = await buildRunFolder(path.resolve('runs'), standardRun(`web-screenshots-${process.pid}`));
await writeReport({ runDir });
await writeFile(
  path.join(runDir, 'summary.json'),
  JSON.stringify({
    runId: path.basename(runDir),
    tasks: 5,
    scored: 4,
    failed: 1,
    overall: { tasks: 4, soft: 0.6667, hard: 0.5 },
    costUsd: 0.0312,
  }),
);

const a = await startAnalysisEnv(salesReply);
try {
  // A run workflow no worker serves: Temporal lists it as running.
  await a.env.client.workflow.start('benchmarkRun', {
    workflowId: 'run-2026-11-23-live',
    taskQueue: 'screenshots-no-worker',
    args: [{}],
    typedSearchAttributes: [
      { key: SA.runId, value: 'run-2026-11-23-live' },
      { key: SA.benchmark, value: 'spreadsheetbench' },
      { key: SA.agent, value: 'multi' },
      { key: SA.model, value: 'scripted-model' },
    ],
  });
  const { id } = await a.json<{ id: string }>('/api/conversations', jsonBody({ title: 'Q3 sales by region' }));
  const form = new FormData();
  form.append('file', new Blob([SALES_CSV], { type: 'text/csv' }), 'sales.csv');
  await a.api(`/api/conversations/${id}/files`, { method: 'POST', body: form });
  const { turnId } = await a.json<{ turnId: string }>(
    `/api/conversations/${id}/messages`,
    jsonBody({ text: 'Total sales by region, as a table and a bar chart' }),
  );
  await waitForTurn(a, id, turnId);

  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(`${a.server.url}/#/c/${id}`);
  await page.locator('[data-viz-id=sales_chart] svg.marks').waitFor();
  await page.locator('details.code summary').first().click();
  await page
    .locator('article.turn')
    .first()
    .evaluate((el) => (el as unknown as { scrollIntoView(): void }).scrollIntoView());
  await page.screenshot({ path: path.join(OUT, 'web-chat.png') });
  await page.locator('[data-viz-id=sales_chart]').screenshot({ path: path.join(OUT, 'web-chart.png') });
  await page.getByRole('tab', { name: 'Debug' }).click();
  await page.locator('.debug-step').first().waitFor();
  await page.locator('.debug-step details.prompt summary').first().click();
  await page.screenshot({ path: path.join(OUT, 'web-debug.png'), fullPage: true });
  await page.goto(`${a.server.url}/#/runs`);
  await page.locator('tr[data-run-id=run-2026-11-23-live]').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(OUT, 'web-runs.png') });
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto(`${a.server.url}/#/c/${id}`);
  await phone.locator('[data-viz-id=sales_chart] svg.marks').waitFor();
  await phone.screenshot({ path: path.join(OUT, 'web-phone.png'), fullPage: true });
  await browser.close();
  console.log(`screenshots in ${OUT}: web-chat.png web-chart.png web-debug.png web-runs.png web-phone.png`);
} finally {
  await a.close();
  await rm(runDir, { recursive: true, force: true });
}
