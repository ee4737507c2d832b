import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetFolderOf } from '../../benchmarks/archive';
import { detectBenchmark } from '../../benchmarks';

const VERIFIED = path.resolve(__dirname, '../../data/verified-sample');

function tarGz(contentDir: string, name: string): string {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'sb-arc-')), name);
  execFileSync('tar', ['-czf', out, '-C', contentDir, '.']);
  return out;
}

describe('release archives', () => {
  it('unpacks a .tar.gz release once into a cache keyed by its checksum and finds the dataset folder inside', async () => {
    const staging = mkdtempSync(path.join(tmpdir(), 'sb-rel-'));
    cpSync(VERIFIED, path.join(staging, 'spreadsheetbench_verified_400'), { recursive: true });
    const archive = tarGz(staging, 'spreadsheetbench_verified_400.tar.gz');
    const cache = mkdtempSync(path.join(tmpdir(), 'sb-cache-'));
    const folder = await datasetFolderOf(archive, cache);
    expect(path.basename(folder)).toBe('spreadsheetbench_verified_400');
    expect(readdirSync(cache)).toHaveLength(1);
    expect(readdirSync(cache)[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await datasetFolderOf(archive, cache)).toBe(folder);
    expect(readdirSync(cache)).toHaveLength(1);
    expect(await detectBenchmark(folder)).toMatchObject({ edition: 'verified_400' });
  });
  it('refuses an archive that is not a SpreadsheetBench release, and a file that is not a tar.gz', async () => {
    const staging = mkdtempSync(path.join(tmpdir(), 'sb-rel-'));
    mkdirSync(path.join(staging, 'docs'));
    writeFileSync(path.join(staging, 'docs', 'README.md'), 'hello');
    const cache = mkdtempSync(path.join(tmpdir(), 'sb-cache-'));
    const notRelease = tarGz(staging, 'other.tar.gz');
    await expect(datasetFolderOf(notRelease, cache)).rejects.toThrow(
      `archive ${notRelease} is not a SpreadsheetBench release: no dataset.json with a spreadsheet/ folder inside`,
    );
    const fake = path.join(staging, 'fake.tar.gz');
    writeFileSync(fake, 'not gzip');
    await expect(datasetFolderOf(fake, cache)).rejects.toThrow(/cannot be unpacked \(not a gzip tar\)/);
    expect(readdirSync(cache).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });
});
