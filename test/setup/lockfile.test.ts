import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(__dirname, '../..');

describe('npm ci installs from the committed lock file', () => {
  it('accepts package.json and package-lock.json as committed (npm ci --dry-run in a clean folder)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-npmci-'));
    for (const f of ['package.json', 'package-lock.json']) copyFileSync(path.join(REPO, f), path.join(dir, f));
    // npm ci refuses ("can only install packages when your package.json and package-lock.json ... are in sync") and
    // exits non-zero when the lock lacks a package, e.g. a per-platform optional one that is missing from the registry.
    const { stdout } = await promisify(execFile)(
      'npm',
      ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'],
      { cwd: dir, maxBuffer: 16 << 20 },
    );
    expect(stdout).toMatch(/add @temporalio\/worker 1\.24\.0/);
    expect(stdout).toMatch(/add @swc\/core-linux-x64-gnu /);
  }, 120_000);
});
