import { z } from 'zod';

/** What any benchmark run uses: tasks at once and what it may spend. Each benchmark's own settings have a section. */
export const runConfigSchema = z
  .strictObject({
    concurrency: z
      .number()
      .int()
      .positive()
      .default(4)
      .describe('Task workflows in flight at once. Flag --concurrency.'),
    budgetUsd: z
      .number()
      .positive()
      .optional()
      .describe(
        'Run-wide dollar cap: the run pauses when it is reached (raise it with `sheetbench budget`). Flag ' +
          '--budget-usd.',
      ),
    budgetTokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Run-wide token cap: the run pauses when it is reached. Flag --budget-tokens.'),
    taskBudgetUsd: z
      .number()
      .positive()
      .optional()
      .describe('Dollar cap of one task: a task that reaches it fails with BudgetExceeded.'),
  })
  .describe('Any benchmark run: tasks in flight and budgets.');
