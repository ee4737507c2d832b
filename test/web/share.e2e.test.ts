/**
 * Grounded numbers, downloads and sharing in headless Chromium against the real server (sign-in with a users file),
 * Temporal, the sandbox and the scripted analyst: the invented number is marked and a grounded one shows its source on
 * hover; the notebook downloads from the menu; the owner makes a link; another user opens it read-only and forks it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/auth/usersFile';
import { jsonBody, startAnalysisEnv, waitForTurn, type AnalysisEnv } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';
import { launchChromium, openPage, signIn } from './browser';

describe('grounded numbers, downloads and sharing in the browser', () => {
  let a: AnalysisEnv;
  let browser: Browser;
  const tokens: Record<string, string> = {};
  let id = '';
  let link = '';

  beforeAll(async () => {
    const usersFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-users-')), 'users.json');
    for (const name of ['alice', 'bob']) tokens[name] = await addUser(usersFile, name, 'user');
    a = await startAnalysisEnv(salesAnalyst, { server: { usersFile } });
    const alice = (p: string, init: RequestInit = {}) =>
      fetch(`${a.server.url}${p}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${tokens.alice}` },
      });
    id = (
      (await (await alice('/api/conversations', jsonBody({ title: 'Sales', pattern: 'react' }))).json()) as {
        id: string;
      }
    ).id;
    const form = new FormData();
    form.append('file', new Blob([SALES_CSV]), 'sales.csv');
    await alice(`/api/conversations/${id}/files`, { method: 'POST', body: form });
    const { turnId } = (await (
      await alice(`/api/conversations/${id}/messages`, jsonBody({ text: 'What is the total? [INVENT]' }))
    ).json()) as { turnId: string };
    await waitForTurn(a, id, turnId, 300_000);
    browser = await launchChromium();
  }, 400_000);
  afterAll(async () => {
    await browser?.close();
    await a?.close();
  });

  const loginUrl = (user: string) => `${a.server.url}/?token=${encodeURIComponent(tokens[user])}`;
  const open = async (user: string) => {
    const opened = await openPage(browser, a.server.url);
    await signIn(opened.page, loginUrl(user));
    return opened;
  };

  it("marks the invented number, shows a grounded number's source on hover, and downloads the notebook from the menu", async () => {
    const { page, pageErrors, foreignRequests, close } = await open('alice');
    await page.goto(`${a.server.url}/#/c/${id}`);
    const answer = page.locator('article.turn .answer');
    await answer.locator('.num').first().waitFor({ timeout: 60_000 });
    expect(await answer.locator('mark.num.ungrounded').allTextContents()).toEqual(['12%']);
    const grounded = answer.locator('span.num.grounded');
    expect(await grounded.allTextContents()).toEqual(['47']);
    await grounded.hover();
    expect(await grounded.getAttribute('title')).toMatch(/^printed by python_execute, step t1-s\d+, line 1: 47$/);
    expect(await page.locator('.grounding-summary').textContent()).toBe(
      '1 of 2 numbers found in this turn\u2019s tool outputs; 1 not found (marked)',
    );

    await page.locator('.conv-head .export-menu > summary').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Notebook (.ipynb)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${id}.ipynb`);
    const notebook = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
      nbformat: number;
      cells: Array<{ cell_type: string; source: string }>;
    };
    expect(notebook.nbformat).toBe(4);
    expect(
      notebook.cells.some(
        (c) => c.cell_type === 'markdown' && c.source.includes("Numbers not found in this turn's tool outputs: 12%"),
      ),
    ).toBe(true);

    await page.locator('.share-menu > summary').click();
    await page.getByRole('button', { name: 'Share read-only' }).click();
    const linkInput = page.locator('.share-list [aria-label="Share link"]').first();
    await linkInput.waitFor();
    link = (await linkInput.inputValue())!;
    expect(link).toMatch(new RegExp(`^${a.server.url.replace(/[.]/g, '\\.')}/#/s/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    expect(pageErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    await close();
  }, 120_000);

  it('another user opens the link read-only (no message box), sees the marks, forks it and lands in the fork', async () => {
    const { page, pageErrors, close } = await open('bob');
    await page.goto(link);
    await expect
      .poll(() => page.locator('.badge.read-only').textContent(), { timeout: 30_000 })
      .toBe('read-only · shared by alice');
    await page.locator('article.turn mark.num.ungrounded').waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Message').count()).toBe(0);
    expect(await page.locator('.share-menu').count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Debug' }).count()).toBe(0); // the link does not include the debug view
    await page.getByRole('button', { name: 'Fork into my conversations' }).click();
    await page.waitForURL(/#\/c\/c[a-z0-9]+$/);
    const forkId = page.url().split('#/c/')[1];
    expect(forkId).not.toBe(id);
    await page.locator('.conv-list a[aria-current=page]').waitFor();
    await expect.poll(() => page.locator('.conv-head h2').textContent(), { timeout: 30_000 }).toBe('Sales (fork)');
    await page.getByLabel('Message').waitFor();
    // The fork's turns are rebuilt from its event log after the page opens: wait for them, do not sample once.
    await expect.poll(() => page.locator('article.turn').count(), { timeout: 30_000 }).toBe(1);
    // The original is not among bob's conversations, and a forged link says why it is refused.
    expect(await page.locator(`.conv-list a[href="#/c/${id}"]`).count()).toBe(0);
    await page.goto(`${link.slice(0, -3)}AAA`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('this share link is not valid: it was altered, or forged');
    expect(pageErrors).toEqual([]);
    await close();
  }, 120_000);
});
