import { access } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, headless (Playwright's own browser download cannot work here). */
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

/**
 * Headless Chromium with nothing but the page under test reachable; fails naming the setup script when it is missing.
 * `extraArgs`: more Chromium switches, e.g. `--host-resolver-rules=MAP evil.test 127.0.0.1` for another site's name.
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  await access(CHROMIUM).catch(() => {
    throw new Error(`${CHROMIUM} missing: run scripts/setup.d/report.sh (via scripts/setup.sh)`);
  });
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs] });
}
