import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/load';
import { LEGACY_KEYS } from '../../config/legacyKeys';
import { contextWindowOf } from '../../lib/llm/contextWindows';

const OLD_FILE = path.resolve(__dirname, '../fixtures/config/old-keys.config.json');

/** A folder whose sheetbench.config.json is `config` (an object) or a copy of a fixture file (a path). */
function folderWith(config: object | string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-cfg-'));
  const file = path.join(dir, 'sheetbench.config.json');
  if (typeof config === 'string') copyFileSync(config, file);
  else writeFileSync(file, JSON.stringify(config));
  return dir;
}

function load(dir: string, flags: Parameters<typeof loadConfig>[0] = {}, env: NodeJS.ProcessEnv = {}) {
  const warnings: string[] = [];
  const config = loadConfig(flags, env, dir, (line) => warnings.push(line));
  return { config, warnings };
}

describe('config files of older versions keep working', () => {
  it('reads every old key at its new place, with one warning line naming the new key', () => {
    const dir = folderWith(OLD_FILE);
    const { config, warnings } = load(dir);
    expect(config.spreadsheetbench).toEqual({ maxSteps: 7, maxRevisions: 2, previewRows: 4, scoringMode: 'strict' });
    expect(config.run).toEqual({ concurrency: 3 });
    expect(config.dsbench.maxSteps).toBe(3);
    expect(config.conversation.maxSteps).toBe(9);
    expect(config.llm.contextWindows).toEqual({ 'my-model': 32000, '*': 64000 });
    expect(contextWindowOf('my-model', config.llm.contextWindows)).toBe(32000);
    expect(contextWindowOf('gpt-3.5-turbo-0125', config.llm.contextWindows)).toBe(16_385);
    expect(contextWindowOf('unlisted-model', config.llm.contextWindows)).toBe(64000);
    expect(warnings).toHaveLength(LEGACY_KEYS.length);
    const file = path.join(dir, 'sheetbench.config.json');
    for (const key of LEGACY_KEYS)
      expect(warnings).toContain(`config: ${key.from} is deprecated, read as ${key.to} (rename it) in ${file}`);
    expect(warnings.every((w) => !w.includes('\n'))).toBe(true);
  });

  it('a file with only new keys loads without a warning', () => {
    const { config, warnings } = load(folderWith({ spreadsheetbench: { maxSteps: 6 }, conversation: { maxSteps: 4 } }));
    expect(config.spreadsheetbench.maxSteps).toBe(6);
    expect(config.conversation.maxSteps).toBe(4);
    expect(warnings).toEqual([]);
  });

  it('an old key and its new key set to different values are refused, naming both', () => {
    const dir = folderWith({ run: { maxTurns: 7 }, spreadsheetbench: { maxSteps: 6 } });
    expect(() => load(dir)).toThrow(ConfigError);
    expect(() => load(dir)).toThrow(
      /run\.maxTurns was renamed spreadsheetbench\.maxSteps, and both are set .*keep only spreadsheetbench\.maxSteps/,
    );
    // The same value under both names is not a conflict.
    expect(
      load(folderWith({ run: { maxTurns: 6 }, spreadsheetbench: { maxSteps: 6 } })).config.spreadsheetbench.maxSteps,
    ).toBe(6);
  });

  it('old context limits merge into llm.contextWindows, whose own entries win', () => {
    const dir = folderWith({ dsbench: { contextLimits: { a: 1000, b: 2000 } }, llm: { contextWindows: { b: 3000 } } });
    expect(load(dir).config.llm.contextWindows).toEqual({ a: 1000, b: 3000 });
  });

  it('a key no version knows is refused, naming it', () => {
    expect(() => load(folderWith({ run: { maxTurnz: 7 } }))).toThrow(
      /invalid configuration: run: Unrecognized key: "maxTurnz"/,
    );
    expect(() => load(folderWith({ spreadsheetBench: {} }))).toThrow(/Unrecognized key: "spreadsheetBench"/);
  });

  it('environment variables and flags still override the file, old keys included', () => {
    const dir = folderWith(OLD_FILE);
    const { config } = load(
      dir,
      { spreadsheetbench: { scoringMode: 'official' }, run: { concurrency: 8 }, llm: { model: 'flag-model' } },
      { TEMPORAL_ADDRESS: '10.0.0.1:7233', OPENAI_BASE_URL: 'http://llm.example/v1', SHEETBENCH_MODEL: 'env-model' },
    );
    expect(config.spreadsheetbench.scoringMode).toBe('official');
    expect(config.spreadsheetbench.maxSteps).toBe(7);
    expect(config.run.concurrency).toBe(8);
    expect(config.llm.model).toBe('flag-model');
    expect(config.llm.baseUrl).toBe('http://llm.example/v1');
    expect(config.temporal.address).toBe('10.0.0.1:7233');
    expect(load(dir, {}, { SHEETBENCH_MODEL: 'env-model' }).config.llm.model).toBe('env-model');
  });

  it('SHEETBENCH_CONFIG names the file, old keys read the same way', () => {
    const { config, warnings } = load(
      mkdtempSync(path.join(os.tmpdir(), 'sb-cfg-')),
      {},
      { SHEETBENCH_CONFIG: OLD_FILE },
    );
    expect(config.spreadsheetbench.maxSteps).toBe(7);
    expect(warnings[0]).toBe(
      `config: run.maxTurns is deprecated, read as spreadsheetbench.maxSteps (rename it) in ${OLD_FILE}`,
    );
  });
});
