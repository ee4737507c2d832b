import type { Browser, Page } from 'playwright-core';

export { launchChromium } from '../helpers/chromium';

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
