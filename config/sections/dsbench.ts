import { z } from 'zod';

/** DSBench data analysis: judge, tokenizer and agent (recorded in run.json's `benchmarkSettings` at run creation). */
export const dsbenchConfigSchema = z
  .strictObject({
    judgeModel: z
      .string()
      .default('gpt-4o-2024-05-13')
      .describe(
        'Model that judges answers; the original judges with GPT-4o (2024-05-13), any model the endpoint ' +
          'serves will do.',
      ),
    judgeTemplate: z
      .string()
      .optional()
      .describe(
        'A judge template file with the slots {question}, {answer}, {predicted} (default: ' +
          'benchmarks/dsbench/judge-template.txt).',
      ),
    encodings: z
      .record(z.string(), z.enum(['cl100k_base', 'o200k_base']))
      .default({})
      .describe(
        'Tokenizer per model when its name does not tell (default: o200k for GPT-4o/4.1/5/o-series, else ' +
          'cl100k); the prompt keeps its last (context window − 6000) tokens (llm.contextWindows).',
      ),
    attachImage: z
      .boolean()
      .optional()
      .describe("Attach the competition's image; unset: as the original does, for every model but gpt-3.5."),
    maxSteps: z
      .number()
      .int()
      .positive()
      .default(5)
      .describe('`--agent agent`: model steps per question, each a reply whose code is run (ReAct loop).'),
  })
  .describe('DSBench data analysis: judge, tokenizer and agent.');
