import type { ToolContext } from '../../analysis/tools/index';
import { makeWorkRoot } from '../sandbox/helpers';
import { analysisConfigSchema, type AnalysisConfig } from '../../config/schema';

/** A conversation workspace (a sandbox work dir) with an answer file next to it, outside, that no tool may reach. */
export function makeWorkspace(): { root: string; workspaceDir: string; secretPath: string; cleanup: () => void } {
  const { root, workDir, answerPath, cleanup } = makeWorkRoot();
  return { root, workspaceDir: workDir, secretPath: answerPath, cleanup };
}

export function testAnalysisConfig(overrides: Record<string, unknown> = {}): AnalysisConfig {
  return analysisConfigSchema.parse({ executionTimeoutMs: 20_000, ...overrides });
}

let n = 0;
export function toolContext(
  workspaceDir: string,
  config: AnalysisConfig = testAnalysisConfig(),
  extra: Partial<ToolContext> = {},
): ToolContext {
  return { conversationId: `test-conv-${process.pid}-${++n}`, workspaceDir, config, ...extra };
}
