import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxFactory, type FactoryConfig, type FactoryExtras } from '../../lib/sandbox/index';

export const testConfig = (backend: FactoryConfig['backend'] = 'bwrap'): FactoryConfig => ({
  backend,
  executionTimeoutMs: 10_000,
  memoryMiB: 1024,
  maxProcesses: 64,
  dockerImage: 'sheetbench-sandbox:test',
});

/** No background pandas import: tests measure and assert behaviour, not warm-up. */
export function bwrapFactory(extras: FactoryExtras = { warmModules: [] }) {
  return createSandboxFactory(testConfig('bwrap'), extras);
}

/**
 * A world-searchable temp root holding `work/` (the sandbox work dir) and, next to it (outside the work dir),
 * an answer file the sandbox must never reach.
 */
export function makeWorkRoot(): { root: string; workDir: string; answerPath: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'sb-test-'));
  chmodSync(root, 0o755);
  const workDir = join(root, 'work');
  mkdirSync(workDir);
  const answerPath = join(root, '1_999_answer.xlsx');
  writeFileSync(answerPath, 'SECRET-ANSWER-CONTENT');
  return { root, workDir, answerPath, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
