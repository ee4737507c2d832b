import { z } from 'zod';

/** Everything configurable, with embedded defaults. Files (sheetbench.config.json), env and CLI flags override. */
export const temporalConfigSchema = z.object({
  /** When unset, the tool starts (or reuses) an embedded `temporal server start-dev`. */
  address: z.string().optional(),
  namespace: z.string().default('sheetbench'),
  tls: z
    .object({ serverName: z.string().optional(), caPath: z.string().optional(), certPath: z.string().optional(), keyPath: z.string().optional() })
    .optional(),
  /** Embedded dev server settings. */
  stateDir: z.string().default('.state/temporal'),
  port: z.number().int().default(7233),
  uiPort: z.number().int().default(8233),
  retentionDays: z.number().int().min(1).default(30),
  taskQueue: z.string().default('sheetbench'),
  recalcTaskQueue: z.string().default('sheetbench-recalc'),
});

export const priceSchema = z.object({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() });

export const llmConfigSchema = z.object({
  provider: z.enum(['openai', 'local']).default('openai'),
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  model: z.string().default('local-gemma3-270m'),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  requestTimeoutMs: z.number().int().positive().default(120_000),
  /** Path of the GGUF file for the local provider (default: the one set-up installed). */
  localModelPath: z.string().optional(),
  /** USD per million tokens, per model name. Unknown models cost 0 (tokens are still counted). */
  prices: z.record(z.string(), priceSchema).default({}),
  maxRetryAfterMs: z.number().int().positive().default(60_000),
  /** Shared by every worker process on this host that uses the same `rateLimitDir` (one per provider/key). */
  maxConcurrentRequests: z.number().int().positive().optional(),
  tokensPerMinute: z.number().int().positive().optional(),
  rateLimitDir: z.string().default('.state/rate-limit'),
  /**
   * Limits shared by every worker on every host, held by a Temporal workflow per provider (`llm-rate-limit/<name>`,
   * name defaults to the base URL's host). Unset: no cross-host limit.
   */
  sharedLimits: z
    .object({
      name: z.string().optional(),
      requestsPerMinute: z.number().int().positive().optional(),
      tokensPerMinute: z.number().int().positive().optional(),
      maxConcurrent: z.number().int().positive().optional(),
      /** The sliding window (tests shorten it). */
      windowMs: z.number().int().positive().default(60_000),
    })
    .optional(),
  /** Failures of one class a call may have before it stops; classes not listed are bounded by the activity's retry policy. */
  retryLimits: z
    .partialRecord(z.enum(['rate_limit', 'provider_5xx', 'timeout', 'connection', 'malformed_reply']), z.number().int().positive())
    .default({ rate_limit: 10, provider_5xx: 4, timeout: 4, connection: 4, malformed_reply: 2 }),
});

export const sandboxConfigSchema = z.object({
  backend: z.enum(['auto', 'bwrap', 'docker', 'unsafe']).default('auto'),
  executionTimeoutMs: z.number().int().positive().default(60_000),
  memoryMiB: z.number().int().min(1024).default(2048),
  maxProcesses: z.number().int().positive().default(64),
  /** Extra packages an agent may ask for (none are installed at run time otherwise). */
  packageWhitelist: z.array(z.string()).default([]),
  dockerImage: z.string().default('sheetbench-sandbox:latest'),
  /** Where execution work dirs are made (must be reachable by the sandbox's unprivileged uid); default: <tmp>/sheetbench-work. */
  workRoot: z.string().optional(),
});

export const recalcConfigSchema = z.object({
  engine: z.enum(['libreoffice', 'excel', 'none']).default('libreoffice'),
  timeoutMs: z.number().int().positive().default(120_000),
});

export const artifactsConfigSchema = z.object({
  /**
   * Where this host mounts the run store. When set, runs started here pass their folder relative to it, and workers
   * resolve relative run folders against their own root (see artifacts/artifactsRoot.ts). Unset: absolute paths.
   */
  root: z.string().optional(),
});

export const runConfigSchema = z.object({
  concurrency: z.number().int().positive().default(4),
  maxTurns: z.number().int().positive().default(5),
  maxRevisions: z.number().int().nonnegative().default(3),
  previewRows: z.number().int().positive().default(5),
  scoringMode: z.enum(['official', 'strict']).default('official'),
  budgetUsd: z.number().positive().optional(),
  budgetTokens: z.number().int().positive().optional(),
  taskBudgetUsd: z.number().positive().optional(),
});

export const configSchema = z.object({
  temporal: temporalConfigSchema.default(temporalConfigSchema.parse({})),
  llm: llmConfigSchema.default(llmConfigSchema.parse({})),
  sandbox: sandboxConfigSchema.default(sandboxConfigSchema.parse({})),
  recalc: recalcConfigSchema.default(recalcConfigSchema.parse({})),
  run: runConfigSchema.default(runConfigSchema.parse({})),
  artifacts: artifactsConfigSchema.default(artifactsConfigSchema.parse({})),
});

export type Config = z.infer<typeof configSchema>;
export type LlmConfig = z.infer<typeof llmConfigSchema>;
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
export type TemporalConfig = z.infer<typeof temporalConfigSchema>;
