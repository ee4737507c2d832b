import { z } from 'zod';
import { describeExecution, type ExecutionReport } from './executionReport';
import { executionTimeoutMs } from './limits';
import { withSandbox } from './sandboxSessions';
import type { AnalysisTool } from './types';

export const nodeExecuteArgs = z.object({
  code: z
    .string()
    .min(1)
    .describe(
      'A JavaScript (Node.js, CommonJS) program; print results with console.log. Files go in the current folder (the workspace).',
    ),
  timeout: z.number().positive().optional().describe('Seconds (capped by the configured execution limit)'),
});

export const nodeExecuteTool: AnalysisTool<z.infer<typeof nodeExecuteArgs>, ExecutionReport> = {
  name: 'node_execute',
  description:
    'Runs JavaScript with Node.js in the same sandbox as python_execute: the workspace is the only writable folder and there is no network. Each call is a fresh process (no variables persist).',
  args: nodeExecuteArgs,
  run(args, ctx) {
    const timeoutMs = executionTimeoutMs(args.timeout, ctx.config);
    return withSandbox(ctx, 'node', async (sandbox) =>
      describeExecution(await sandbox.execute(args.code, { timeoutMs, signal: ctx.signal }), ctx),
    );
  },
};
