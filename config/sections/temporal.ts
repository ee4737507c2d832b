import { z } from 'zod';

/** How the embedded dev server runs (the tests start theirs the same way). Measured in bench/run-912-synthetic.ts. */
export const devServerConfigSchema = z
  .strictObject({
    eagerActivities: z
      .boolean()
      .default(true)
      .describe(
        "A workflow task's completion hands its new activities straight back to the worker instead of " +
          'through the task queue (the main worker serves workflows and activities on one queue).',
      ),
    sqlitePragmas: z
      .record(z.string().regex(/^\w+$/), z.string().regex(/^\w+$/))
      .default({ journal_mode: 'wal', synchronous: 'normal' })
      .describe(
        "SQLite pragmas of the server's state file. `journal_mode=wal` + `synchronous=normal` keep every " +
          'commit across a killed server process, but the last commits may be lost on power loss or an OS ' +
          "crash; `{}` restores SQLite's defaults.",
      ),
    dynamicConfig: z
      .record(z.string().regex(/^[\w.]+$/), z.union([z.string(), z.number(), z.boolean()]))
      .default({})
      .describe(
        'Further server settings by key, e.g. `{"limit.historyCount.suggestContinueAsNew": 200}` (the tests ' +
          'use it to make runs continue as new early).',
      ),
  })
  .describe("The embedded `temporal server start-dev` (also the tests' servers).");

export const failoverConfigSchema = z
  .strictObject({
    heartbeatTimeoutMs: z
      .number()
      .int()
      .min(4_000)
      .optional()
      .describe(
        "Caps every activity's heartbeat timeout (10–60 s in the workflows): a killed worker's activity is retried " +
          'elsewhere within this. Activities then beat every quarter of it at most and the workers pass a beat on ' +
          'within a second (not up to 0.8 × the timeout later), so a live but busy worker keeps most of it as ' +
          "slack. Unset: the workflows' timeouts.",
      ),
    workflowTaskTimeoutMs: z
      .number()
      .int()
      .min(1_000)
      .max(120_000)
      .optional()
      .describe(
        'Workflow task timeout of the workflows started (a task held by a killed worker is given to another after ' +
          "this). Too short, and a slow workflow task is retried again and again. Unset: Temporal's 10 s.",
      ),
  })
  .describe(
    "How soon a dead worker's work moves to another (carried in each run's and conversation's workflow input: " +
      'a change applies to workflows started after it). The tests that kill workers set it short.',
  );

export const tlsConfigSchema = z
  .strictObject({
    serverName: z
      .string()
      .optional()
      .describe("Server name to verify the certificate against (SNI), when not the address's host."),
    caPath: z
      .string()
      .optional()
      .describe("PEM file of the CA that signed the server's certificate (default: the system's CAs)."),
    certPath: z.string().optional().describe("PEM file of this client's certificate (mutual TLS)."),
    keyPath: z.string().optional().describe("PEM file of this client's private key (mutual TLS)."),
  })
  .describe('TLS to your own Temporal cluster; unset: plain TCP.');

export const temporalConfigSchema = z
  .strictObject({
    address: z
      .string()
      .optional()
      .describe(
        'host:port of your Temporal server; unset: the tool starts (or reuses) an embedded `temporal server ' +
          'start-dev`. Env TEMPORAL_ADDRESS.',
      ),
    namespace: z.string().default('sheetbench').describe('Temporal namespace. Env TEMPORAL_NAMESPACE.'),
    tls: tlsConfigSchema.optional(),
    stateDir: z.string().default('.state/temporal').describe('Embedded dev server: folder of its SQLite state.'),
    port: z.number().int().default(7233).describe('Embedded dev server: its gRPC port.'),
    uiPort: z.number().int().default(8233).describe('Embedded dev server: its Web UI port.'),
    retentionDays: z.number().int().min(1).default(30).describe('Embedded dev server: days closed workflows are kept.'),
    devServer: devServerConfigSchema.default(devServerConfigSchema.parse({})),
    taskQueue: z
      .string()
      .default('sheetbench')
      .describe('Task queue of the main worker (workflows and their activities).'),
    recalcTaskQueue: z
      .string()
      .default('sheetbench-recalc')
      .describe('Task queue of the recalc worker (LibreOffice or Excel recalculation).'),
    failover: failoverConfigSchema.default({}),
  })
  .describe('Where the Temporal server is, and how the embedded one runs.');
