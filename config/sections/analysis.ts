import { z } from 'zod';

/** The analysis agent's web_fetch policy. */
export const analysisFetchConfigSchema = z
  .strictObject({
    timeoutMs: z.number().int().positive().default(30_000).describe("One fetch's time limit."),
    perHostPerMinute: z.number().int().positive().default(30).describe('Fetches per host per minute.'),
    maxRedirects: z.number().int().nonnegative().default(5).describe('Redirects followed per fetch.'),
    allowPrivateAddresses: z
      .boolean()
      .default(false)
      .describe(
        'Loopback, private, link-local, CGNAT, multicast… are refused unless this is true (tests, trusted ' +
          'local data servers).',
      ),
    allowHosts: z
      .array(z.string())
      .optional()
      .describe('When set, only these host names (exact, lower-case) may be fetched.'),
    allowAddresses: z
      .array(z.string())
      .optional()
      .describe(
        'Exact IP addresses allowed even though private/loopback (one trusted internal data server, without ' +
          'opening all ranges).',
      ),
    userAgent: z.string().default('sheetbench-analysis/1.0').describe('User-Agent header of fetches.'),
  })
  .describe("The analysis agent's web_fetch tool: limits and which addresses it may reach.");

const DEFAULT_ALLOWED_PACKAGES = [
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
];

/** The analysis agent's tools (analysis/tools): sandbox limits per conversation, allowed packages, web_fetch policy. */
export const analysisConfigSchema = z
  .strictObject({
    executionTimeoutMs: z.number().int().positive().default(60_000).describe("One python_execute call's time limit."),
    restoreBudgetMs: z
      .number()
      .int()
      .positive()
      .default(120_000)
      .describe(
        'How long python_execute may spend re-running earlier cells to restore a lost kernel before it ' +
          'reports `stateReset`.',
      ),
    workspaceMaxBytes: z
      .number()
      .int()
      .positive()
      .default(100 * 1024 * 1024)
      .describe("Largest a conversation's workspace may grow."),
    downloadMaxBytes: z
      .number()
      .int()
      .positive()
      .default(50 * 1024 * 1024)
      .describe('Largest file web_fetch may download.'),
    allowedPackages: z
      .array(z.string())
      .default(DEFAULT_ALLOWED_PACKAGES)
      .describe(
        "What python_execute's `packages` may name; all are pre-installed in the sandbox venv (no install at " +
          'run time).',
      ),
    maxReturnChars: z
      .number()
      .int()
      .positive()
      .default(20_000)
      .describe(
        'Characters of stdout/stderr/file text handed back to the model per tool call (the rest stays in the ' +
          'workspace).',
      ),
    fetch: analysisFetchConfigSchema.default(analysisFetchConfigSchema.parse({})),
  })
  .describe("The analysis agent's tools: sandbox limits per conversation, allowed packages, web_fetch policy.");

/** The analysis task suite as a benchmark (data/analysis). */
export const analysisSuiteConfigSchema = z
  .strictObject({
    dataUrl: z
      .string()
      .url()
      .optional()
      .describe(
        "Base URL of a server serving the suite's `files/` (the level-2 fetch requests); without it they are skipped.",
      ),
  })
  .describe('The analysis task suite as a benchmark (data/analysis): where its fetch requests download from.');
