import { z } from 'zod';

/** SpreadsheetBench's agent and scoring settings (recorded in run.json's `agentSettings` and `scoringMode`). */
export const spreadsheetbenchConfigSchema = z
  .strictObject({
    maxSteps: z
      .number()
      .int()
      .positive()
      .default(5)
      .describe(
        'Multi-round settings (row_exec, react_exec, row_react_exec): model steps per task, each a reply ' +
          'whose code is run on test case 1; the official prompt calls it max_turn_num.',
      ),
    maxRevisions: z
      .number()
      .int()
      .nonnegative()
      .default(3)
      .describe('SheetCopilot: revisions of a failing solution per test case in its final stage.'),
    previewRows: z
      .number()
      .int()
      .positive()
      .default(5)
      .describe("Rows of each sheet shown in the prompt's data preview (the official `--row`)."),
    scoringMode: z
      .enum(['official', 'strict'])
      .default('official')
      .describe(
        "`official`: the official evaluation's rules; `strict`: the same with the answer_position fixes of " +
          'benchmarks/spreadsheetbench/scoring/answerPosition.ts. Flag --mode.',
      ),
  })
  .describe('SpreadsheetBench: agent settings and scoring.');
