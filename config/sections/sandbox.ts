import { z } from 'zod';

export const sandboxConfigSchema = z
  .strictObject({
    backend: z
      .enum(['auto', 'bwrap', 'docker', 'unsafe'])
      .default('auto')
      .describe(
        'How code is isolated: `auto` (Docker if an engine answers, else bubblewrap), `bwrap`, `docker`, or ' +
          '`unsafe` (no isolation: trusted code only).',
      ),
    executionTimeoutMs: z.number().int().positive().default(60_000).describe("One benchmark execution's time limit."),
    memoryMiB: z.number().int().min(1024).default(2048).describe('Memory limit of one sandboxed kernel.'),
    maxProcesses: z.number().int().positive().default(64).describe('Process limit of one sandboxed kernel.'),
    packageWhitelist: z
      .array(z.string())
      .default([])
      .describe('Extra packages an agent may ask for (none are installed at run time otherwise).'),
    dockerImage: z.string().default('sheetbench-sandbox:latest').describe('Image of the docker backend.'),
    workRoot: z
      .string()
      .optional()
      .describe(
        "Where execution work dirs are made, set to mode 711 (a root worker's sandbox uid enters it; the folders " +
          'above it need not be open); default: <tmp>/sheetbench-work.',
      ),
    forkServer: z
      .boolean()
      .default(true)
      .describe(
        'bwrap only: kernels for work dirs in workRoot are forked from one warm interpreter per worker ' +
          '(pandas and openpyxl imported once; each kernel still gets its own namespaces, work dir, cgroup and ' +
          'limits); false: a fresh bwrap + Python start each.',
      ),
  })
  .describe("Where agents' code runs (benchmark executions).");
