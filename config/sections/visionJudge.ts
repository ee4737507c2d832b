import { z } from 'zod';

/**
 * The vision model that judges SpreadsheetBench 2 Visualization tasks on their charts (the release's
 * run_visual_vlm_checklist_eval.py: charts as images, a checklist, accuracy 1 when the score is above 0.7). Without a
 * `baseUrl` nothing is judged: a run says its Visualization tasks are unjudged, and `sheetbench rejudge` judges them
 * once one is configured. Defaults are the release's (glm-4.6v, temperature 0.1, 4,096 tokens, 300 s).
 */
export const visionJudgeConfigSchema = z
  .strictObject({
    baseUrl: z
      .string()
      .optional()
      .describe(
        "The OpenAI-compatible endpoint of the vision model (it must take image_url content parts); the release's is " +
          'https://open.bigmodel.cn/api/paas/v4. Unset: Visualization tasks are left unjudged, and say so.',
      ),
    model: z.string().default('glm-4.6v').describe("The vision model (the release's default: glm-4.6v)."),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .default('VLM_API_KEY')
      .describe(
        "The environment variable that holds the endpoint's key, read by the worker at each judgment (OPENAI_API_KEY " +
          'when it is unset, as the release reads them); the key itself is never in a config file or a run folder.',
      ),
    temperature: z.number().min(0).max(2).default(0.1).describe("Sampling temperature (the release's 0.1)."),
    maxTokens: z.number().int().positive().default(4096).describe("Most tokens a verdict may have (the release's)."),
    requestTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(300_000)
      .describe("How long one judgment may take (the release's 300 s)."),
    maxCharts: z
      .number()
      .int()
      .positive()
      .default(12)
      .describe(
        'Most chart images sent in one judgment; a workbook with more is judged on its first ones and says so.',
      ),
    maxImageBytes: z
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024)
      .describe('Largest chart image sent (PNG bytes); a larger one fails the judgment, naming the chart.'),
    exportTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(120_000)
      .describe("How long LibreOffice may take to export one output's charts."),
  })
  .describe(
    "SpreadsheetBench 2 Visualization: the vision endpoint that judges charts against the task's checklist " +
      "(`criteria`). The prompt is this project's own, not the release's (see benchmarks/spreadsheetbench2/visualization/).",
  );

export type VisionJudgeConfig = z.infer<typeof visionJudgeConfigSchema>;
