import { z } from 'zod';
import { analysisConfigSchema, analysisSuiteConfigSchema } from './sections/analysis';
import { artifactsConfigSchema } from './sections/artifacts';
import { conversationConfigSchema } from './sections/conversation';
import { dsbenchConfigSchema } from './sections/dsbench';
import { llmConfigSchema } from './sections/llm';
import { recalcConfigSchema } from './sections/recalc';
import { runConfigSchema } from './sections/run';
import { sandboxConfigSchema } from './sections/sandbox';
import { serverConfigSchema } from './sections/server';
import { spreadsheetbenchConfigSchema } from './sections/spreadsheetbench';
import { type devServerConfigSchema, temporalConfigSchema } from './sections/temporal';
import { visionJudgeConfigSchema } from './sections/visionJudge';
import { workerConfigSchema } from './sections/worker';

export { analysisConfigSchema, analysisFetchConfigSchema, analysisSuiteConfigSchema } from './sections/analysis';
export { artifactsConfigSchema } from './sections/artifacts';
export { conversationConfigSchema } from './sections/conversation';
export { dsbenchConfigSchema } from './sections/dsbench';
export { llmConfigSchema, priceSchema } from './sections/llm';
export { recalcConfigSchema } from './sections/recalc';
export { runConfigSchema } from './sections/run';
export { sandboxConfigSchema } from './sections/sandbox';
export { serverConfigSchema } from './sections/server';
export { spreadsheetbenchConfigSchema } from './sections/spreadsheetbench';
export { devServerConfigSchema, temporalConfigSchema } from './sections/temporal';
export { visionJudgeConfigSchema, type VisionJudgeConfig } from './sections/visionJudge';
export { workerConfigSchema } from './sections/worker';

/**
 * Everything configurable, with embedded defaults: one section per concern, one per benchmark. Every field carries its
 * description (`.describe`), the single source of config/README.md's reference (`sheetbench config docs`). Files
 * (sheetbench.config.json), env and flags override (load.ts); keys of older versions are read by legacyKeys.ts.
 */
export const configSchema = z
  .strictObject({
    temporal: temporalConfigSchema.default(temporalConfigSchema.parse({})),
    worker: workerConfigSchema.default(workerConfigSchema.parse({})),
    llm: llmConfigSchema.default(llmConfigSchema.parse({})),
    sandbox: sandboxConfigSchema.default(sandboxConfigSchema.parse({})),
    recalc: recalcConfigSchema.default(recalcConfigSchema.parse({})),
    artifacts: artifactsConfigSchema.default(artifactsConfigSchema.parse({})),
    run: runConfigSchema.default(runConfigSchema.parse({})),
    spreadsheetbench: spreadsheetbenchConfigSchema.default(spreadsheetbenchConfigSchema.parse({})),
    dsbench: dsbenchConfigSchema.default(dsbenchConfigSchema.parse({})),
    visionJudge: visionJudgeConfigSchema.default(visionJudgeConfigSchema.parse({})),
    analysisSuite: analysisSuiteConfigSchema.default(analysisSuiteConfigSchema.parse({})),
    conversation: conversationConfigSchema.default(conversationConfigSchema.parse({})),
    analysis: analysisConfigSchema.default(analysisConfigSchema.parse({})),
    server: serverConfigSchema.default(serverConfigSchema.parse({})),
  })
  .superRefine((config, ctx) => {
    // Evicting workflows that are still running replays them in full on every task, and on SDK 1.24 eviction under
    // load hits core errors ("This is an SDK bug", nondeterminism on the run workflow): bench/run-912-synthetic.ts.
    const cache = config.worker.maxCachedWorkflows;
    if (cache !== undefined && cache <= config.run.concurrency) {
      ctx.addIssue({
        code: 'custom',
        path: ['worker', 'maxCachedWorkflows'],
        message: `must be above run.concurrency (${config.run.concurrency}): a run keeps that many task workflows and itself in flight`,
      });
    }
  });

export type Config = z.infer<typeof configSchema>;
export type LlmConfig = z.infer<typeof llmConfigSchema>;
export type DsbenchConfig = z.infer<typeof dsbenchConfigSchema>;
export type SpreadsheetbenchConfig = z.infer<typeof spreadsheetbenchConfigSchema>;
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
export type TemporalConfig = z.infer<typeof temporalConfigSchema>;
export type DevServerConfig = z.infer<typeof devServerConfigSchema>;
export type WorkerConfig = z.infer<typeof workerConfigSchema>;
export type ConversationConfig = z.infer<typeof conversationConfigSchema>;
export type AnalysisConfig = z.infer<typeof analysisConfigSchema>;
