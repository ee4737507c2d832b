import { access } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, headless (Playwright's own browser download cannot work here); as test/report/browser.test.ts. */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `extraArgs`: more Chromium switches, e.g. `--host-resolver-rules=MAP evil.test 127.0.0.1` for another site's name. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  await access(CHROMIUM).catch(() => {
    throw new Error(`${CHROMIUM} missing: run scripts/setup.d/report.sh (via scripts/setup.sh)`);
  });
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs] });
}

/** A page that records uncaught errors and every request that left the server under test (there must be none). */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  opts: { width?: number; height?: number; signInUrl?: string } = {},
) {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    acceptDownloads: true,
  });
  const page: Page = await context.newPage();
  const pageErrors: string[] = [];
  const foreignRequests: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith(baseUrl) && !r.url().startsWith('data:')) foreignRequests.push(r.url());
  });
  if (opts.signInUrl) await signIn(page, opts.signInUrl);
  return { page, pageErrors, foreignRequests, close: () => context.close() };
}

/** Opens the server's login URL as a user would: the page swaps the token for its session cookie and shows who is in. */
export async function signIn(page: Page, loginUrl: string): Promise<void> {
  await page.goto(loginUrl);
  await page.locator('.signed-in .user-name').waitFor();
  if (new URL(page.url()).searchParams.has('token'))
    throw new Error(`the token stayed in the address bar: ${page.url()}`);
}

/**
 * "+ New conversation", then its page: the click creates the conversation first, so until the address changes the
 * first screen's own message box is still the one on the page (what is typed there goes along; files do not).
 */
export async function newConversation(page: Page): Promise<void> {
  await page.getByRole('button', { name: '+ New conversation' }).click();
  await page.waitForURL(/#\/c\/[^/]+$/);
}
