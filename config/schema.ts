import { z } from 'zod';

/**
 * How the embedded dev server runs (the tests start theirs the same way). Eager activities: a workflow task's
 * completion hands its new activities straight back to the worker instead of through the task queue (the main worker
 * serves workflows and activities on one queue). SQLite pragmas: `journal_mode=wal` + `synchronous=normal` keep every
 * commit across a killed server process (the WAL is written before each commit returns), but the last commits may be
 * lost on power loss or an OS crash (not fsynced at each commit); `{}` restores SQLite's defaults. Measured in
 * bench/run-912-synthetic.ts (`--eager`, `--pragmas`). `dynamicConfig`: further server settings by key, e.g.
 * `{"limit.historyCount.suggestContinueAsNew": 200}` (the tests use it to make runs continue as new early).
 */
export const devServerConfigSchema = z.object({
  eagerActivities: z.boolean().default(true),
  sqlitePragmas: z
    .record(z.string().regex(/^\w+$/), z.string().regex(/^\w+$/))
    .default({ journal_mode: 'wal', synchronous: 'normal' }),
  dynamicConfig: z.record(z.string().regex(/^[\w.]+$/), z.union([z.string(), z.number(), z.boolean()])).default({}),
});

/** Everything configurable, with embedded defaults. Files (sheetbench.config.json), env and CLI flags override. */
export const temporalConfigSchema = z.object({
  /** When unset, the tool starts (or reuses) an embedded `temporal server start-dev`. */
  address: z.string().optional(),
  namespace: z.string().default('sheetbench'),
  tls: z
    .object({
      serverName: z.string().optional(),
      caPath: z.string().optional(),
      certPath: z.string().optional(),
      keyPath: z.string().optional(),
    })
    .optional(),
  /** Embedded dev server settings. */
  stateDir: z.string().default('.state/temporal'),
  port: z.number().int().default(7233),
  uiPort: z.number().int().default(8233),
  retentionDays: z.number().int().min(1).default(30),
  devServer: devServerConfigSchema.default(devServerConfigSchema.parse({})),
  taskQueue: z.string().default('sheetbench'),
  recalcTaskQueue: z.string().default('sheetbench-recalc'),
});

/**
 * The main worker's Temporal options (workflows and their activities on one task queue). Unset ones take the SDK's
 * defaults: maxCachedWorkflows from the heap size (thousands), pollers min(10, slots), 10 s sticky timeout.
 * Chosen by bench/run-912-synthetic.ts (`--config '{"worker":{...}}'`); see the README's bench section.
 */
export const workerConfigSchema = z.object({
  /** Workflows kept in memory between their tasks; must exceed run.concurrency (evictions replay in full, see below). */
  maxCachedWorkflows: z.number().int().nonnegative().optional(),
  maxConcurrentWorkflowTaskExecutions: z.number().int().min(2).optional(),
  maxConcurrentWorkflowTaskPolls: z.number().int().min(2).optional(),
  maxConcurrentActivityTaskPolls: z.number().int().positive().optional(),
  /** Activities running at once in one worker (LLM calls waiting on the model count too). */
  maxConcurrentActivityTaskExecutions: z.number().int().positive().default(64),
  /** A workflow task not picked up from this worker's sticky queue within this goes to any worker (after a crash). */
  stickyQueueScheduleToStartTimeoutMs: z.number().int().positive().optional(),
});

/** USD per million tokens; cached input and reasoning tokens are priced at the input/output rate unless given. */
export const priceSchema = z.object({
  inputPerMTok: z.number().nonnegative(),
  outputPerMTok: z.number().nonnegative(),
  cachedInputPerMTok: z.number().nonnegative().optional(),
  reasoningPerMTok: z.number().nonnegative().optional(),
});

export const llmConfigSchema = z.object({
  provider: z.enum(['openai', 'local']).default('openai'),
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  /** Without an endpoint: an embedded model (lib/llm/localModels.json), default Qwen2.5-Coder-0.5B-Instruct. */
  model: z.string().default('local-qwen2.5-coder-0.5b'),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  /** `reasoning_effort` sent to reasoning models (OpenAI o-series and GPT-5.x, and endpoints that accept it); unset: not sent. */
  reasoningEffort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
  /**
   * Per model name, what the model accepts where models differ (lib/llm/modelCapabilities.ts has the built-in table):
   * `maxTokensField` (`max_tokens` | `max_completion_tokens`: the field that carries `maxTokens`) and `sampling`
   * (false: only the default temperature/top_p is accepted, so they are left out). A model outside the table that
   * refuses one of these fields (a 400 `unsupported_parameter`/`unsupported_value`) is retried once without it.
   */
  modelCapabilities: z
    .record(
      z.string(),
      z.object({
        maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
        sampling: z.boolean().optional(),
      }),
    )
    .default({}),
  requestTimeoutMs: z.number().int().positive().default(120_000),
  /** Path of a GGUF file for the local provider (default: the embedded model `model` names, installed by set-up). */
  localModelPath: z.string().optional(),
  /**
   * USD per million tokens, per model name, overriding the price library (@pydantic/genai-prices, bundled). A model
   * neither prices is refused by a run with a dollar budget and reported as of unknown cost otherwise.
   */
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
    .partialRecord(
      z.enum(['rate_limit', 'provider_5xx', 'timeout', 'connection', 'malformed_reply']),
      z.number().int().positive(),
    )
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
  /**
   * bwrap only: kernels for work dirs in workRoot (benchmark executions) are forked from one warm interpreter per
   * worker (pandas and openpyxl imported once; each kernel still gets its own namespaces, work dir, cgroup and limits).
   * false: every kernel is a fresh bwrap + Python start.
   */
  forkServer: z.boolean().default(true),
});

export const recalcConfigSchema = z.object({
  engine: z.enum(['libreoffice', 'excel', 'none']).default('libreoffice'),
  timeoutMs: z.number().int().positive().default(120_000),
});

export const artifactsConfigSchema = z.object({
  /**
   * Where this host mounts the run store. When set, runs started here pass their folder relative to it, and workers
   * resolve relative run folders against their own root (see lib/runStore/artifactsRoot.ts). Unset: absolute paths.
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

/** DSBench data analysis: judge, tokenizer and context limits (recorded in run.json at run creation). */
export const dsbenchConfigSchema = z.object({
  /** The original judges with GPT-4o (2024-05-13); any model the endpoint serves will do. */
  judgeModel: z.string().default('gpt-4o-2024-05-13'),
  /** A judge template file with the slots {question}, {answer}, {predicted} (default: benchmarks/dsbench/judge-template.txt). */
  judgeTemplate: z.string().optional(),
  /** Context window per model (tokens); the prompt keeps its last (limit − 6000) tokens. */
  contextLimits: z.record(z.string(), z.number().int().positive()).default({
    'gpt-3.5-turbo-0125': 16_385,
    'gpt-4-turbo-2024-04-09': 128_000,
    'gpt-4o-2024-05-13': 128_000,
    'gpt-4o': 128_000,
    'gpt-4o-mini': 128_000,
    'gpt-4.1': 1_047_576,
    'gpt-4.1-mini': 1_047_576,
  }),
  defaultContextLimit: z.number().int().positive().default(128_000),
  /** Tokenizer per model when the name does not tell (default: o200k for GPT-4o/4.1/5/o-series, else cl100k). */
  encodings: z.record(z.string(), z.enum(['cl100k_base', 'o200k_base'])).default({}),
  /** Attach the competition's image (the original does, except for gpt-3.5). */
  attachImage: z.boolean().optional(),
  /** Agent setting: rounds of the ReAct loop with code execution. */
  agentMaxRounds: z.number().int().positive().default(5),
});

/** Analysis conversations (the agent of `sheetbench serve` / `ask`): where they live and what one may spend. */
export const conversationConfigSchema = z.object({
  /** Conversation folders (workspace, event log, transcripts, debug records); must be traversable by the sandbox uid. */
  dir: z.string().default('.state/conversations'),
  maxMessageChars: z.number().int().positive().default(20_000),
  maxUploadBytes: z
    .number()
    .int()
    .positive()
    .default(50 * 1024 * 1024),
  /** Model steps one turn may take (each pattern's loops are bounded by this too). */
  maxStepsPerTurn: z.number().int().positive().default(12),
  /** Whole-conversation budgets; a turn that would exceed one stops with a budget error. */
  budgetTokens: z.number().int().positive().optional(),
  budgetUsd: z.number().positive().optional(),
  budgetSteps: z.number().int().positive().optional(),
  /** The same failing tool call (same tool, same arguments) this many times ends the turn. */
  maxRepeatedFailures: z.number().int().positive().default(3),
  /** Parallel branches of Tree-of-Thoughts and agents of Ensemble. */
  branches: z.number().int().min(2).max(5).default(3),
  /** Turns before the workflow continues as new (history stays small). */
  turnsPerRun: z.number().int().positive().default(20),
  /** 'text' describes tools in the prompt and parses ```action blocks (endpoints without native tool calling; the embedded models always use it). */
  toolCalling: z.enum(['native', 'text']).default('native'),
});

/** The analysis agent's tools (analysis/tools): sandbox limits per conversation, allowed packages, web_fetch policy. */
export const analysisFetchConfigSchema = z.object({
  timeoutMs: z.number().int().positive().default(30_000),
  perHostPerMinute: z.number().int().positive().default(30),
  maxRedirects: z.number().int().nonnegative().default(5),
  /** Loopback, private, link-local, CGNAT, multicast… are refused unless this is true (tests, trusted local data servers). */
  allowPrivateAddresses: z.boolean().default(false),
  /** When set, only these host names (exact, lower-case) may be fetched. */
  allowHosts: z.array(z.string()).optional(),
  /** Exact IP addresses allowed even though private/loopback (one trusted internal data server, without opening all ranges). */
  allowAddresses: z.array(z.string()).optional(),
  userAgent: z.string().default('sheetbench-analysis/1.0'),
});

export const analysisConfigSchema = z.object({
  executionTimeoutMs: z.number().int().positive().default(60_000),
  /** How long python_execute may spend re-running earlier cells to restore a lost kernel before it reports `stateReset`. */
  restoreBudgetMs: z.number().int().positive().default(120_000),
  workspaceMaxBytes: z
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  downloadMaxBytes: z
    .number()
    .int()
    .positive()
    .default(50 * 1024 * 1024),
  /** What python_execute's `packages` may name; all of them are pre-installed in the sandbox venv (no install at run time). */
  allowedPackages: z
    .array(z.string())
    .default([
      'pandas',
      'numpy',
      'scipy',
      'matplotlib',
      'seaborn',
      'plotly',
      'requests',
      'beautifulsoup4',
      'scikit-learn',
      'openpyxl',
    ]),
  /** Characters of stdout/stderr/file text handed back to the model per tool call (the rest stays in the workspace). */
  maxReturnChars: z.number().int().positive().default(20_000),
  fetch: analysisFetchConfigSchema.default(analysisFetchConfigSchema.parse({})),
});

/** The analysis task suite as a benchmark (data/analysis): where its fetch requests download from. */
export const analysisSuiteConfigSchema = z.object({
  /** Base URL of a server serving the suite's `files/` (the level-2 fetch requests); without it they are skipped. */
  dataUrl: z.string().url().optional(),
});

/** `sheetbench serve`: sign-in, the names it answers to, and who may do what (server/README.md, "Security model"). */
export const serverConfigSchema = z.object({
  /** The token, cookie secret, audit log and (by default) users file live here, each file mode 0600. */
  stateDir: z.string().default('.state/server'),
  /** Host names (besides localhost, 127.0.0.1, [::1] and the listen address) the server answers to, e.g. its DNS name. */
  publicNames: z.array(z.string().min(1)).default([]),
  /** How long a browser session (the cookie got for the token) lasts. */
  sessionHours: z.number().positive().default(168),
  /** A share link's life when its owner does not choose one, and the longest one may choose. */
  shareLinkHours: z.number().positive().default(168),
  maxShareLinkHours: z.number().positive().default(720),
  /** A users file for small teams: one token per user, with a role (`sheetbench auth add-user`). */
  usersFile: z.string().optional(),
  /** A sign-in proxy in front (e.g. oauth2-proxy): its user header is believed only from these exact addresses. */
  proxy: z
    .object({
      header: z.string().default('x-forwarded-email'),
      addresses: z.array(z.string().min(1)).default([]),
      /** Roles of proxy users by name (default role: user). */
      roles: z.record(z.string(), z.enum(['user', 'operator', 'admin'])).default({}),
    })
    .default({ header: 'x-forwarded-email', addresses: [], roles: {} }),
});

export const configSchema = z
  .object({
    temporal: temporalConfigSchema.default(temporalConfigSchema.parse({})),
    worker: workerConfigSchema.default(workerConfigSchema.parse({})),
    llm: llmConfigSchema.default(llmConfigSchema.parse({})),
    sandbox: sandboxConfigSchema.default(sandboxConfigSchema.parse({})),
    recalc: recalcConfigSchema.default(recalcConfigSchema.parse({})),
    run: runConfigSchema.default(runConfigSchema.parse({})),
    artifacts: artifactsConfigSchema.default(artifactsConfigSchema.parse({})),
    dsbench: dsbenchConfigSchema.default(dsbenchConfigSchema.parse({})),
    conversation: conversationConfigSchema.default(conversationConfigSchema.parse({})),
    analysis: analysisConfigSchema.default(analysisConfigSchema.parse({})),
    analysisSuite: analysisSuiteConfigSchema.default(analysisSuiteConfigSchema.parse({})),
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
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
export type TemporalConfig = z.infer<typeof temporalConfigSchema>;
export type DevServerConfig = z.infer<typeof devServerConfigSchema>;
export type WorkerConfig = z.infer<typeof workerConfigSchema>;
export type ConversationConfig = z.infer<typeof conversationConfigSchema>;
export type AnalysisConfig = z.infer<typeof analysisConfigSchema>;
