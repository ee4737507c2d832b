import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '../../analysis/tools/index';
import { analysisConfigSchema, type AnalysisConfig } from '../../config/schema';

/**
 * A conversation workspace in a world-searchable temp root, with a secret file next to it (outside the workspace)
 * that no tool may reach.
 */
export function makeWorkspace(): { root: string; workspaceDir: string; secretPath: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'analysis-test-'));
  chmodSync(root, 0o755);
  const workspaceDir = join(root, 'workspace');
  mkdirSync(workspaceDir);
  const secretPath = join(root, 'secret.txt');
  writeFileSync(secretPath, 'TOP-SECRET-OUTSIDE');
  return { root, workspaceDir, secretPath, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function testAnalysisConfig(overrides: Record<string, unknown> = {}): AnalysisConfig {
  return analysisConfigSchema.parse({ executionTimeoutMs: 20_000, ...overrides });
}

let n = 0;
export function toolContext(workspaceDir: string, config: AnalysisConfig = testAnalysisConfig(), extra: Partial<ToolContext> = {}): ToolContext {
  return { conversationId: `test-conv-${process.pid}-${++n}`, workspaceDir, config, ...extra };
}
