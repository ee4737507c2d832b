import { z } from 'zod';

/** The six SheetCopilot stages, numbered as on the CLI (`rerun --from-stage K`). */
export const COPILOT_STAGES = ['observe', 'understand', 'plan', 'implement', 'validate', 'final'] as const;
export type CopilotStageName = (typeof COPILOT_STAGES)[number];

export function stageNumber(name: CopilotStageName): number {
  return COPILOT_STAGES.indexOf(name) + 1;
}

/** `tasks/<id>/stages/<k>-<name>[-<suffix>].json` */
export function stageFileName(name: CopilotStageName, suffix?: string): string {
  return `${stageNumber(name)}-${name}${suffix ? `-${suffix}` : ''}.json`;
}

const usageSchema = z.object({ inputTokens: z.number(), outputTokens: z.number() });
const promptRecordSchema = z.object({ template: z.string(), source: z.string(), sha256: z.string() });

/** One LLM call of a stage: the prompt that was sent (and which template made it) and what came back. */
export const exchangeSchema = z.object({
  prompt: promptRecordSchema,
  promptText: z.string(),
  response: z.string(),
  finishReason: z.string(),
  usage: usageSchema,
  costUsd: z.number(),
  cached: z.boolean(),
  callKey: z.string(),
  /** Why the reply is unusable (truncated, no code, wrong language), if it is. */
  problem: z.string().optional(),
});
export type Exchange = z.infer<typeof exchangeSchema>;

export const observeOutputSchema = z.object({
  stage: z.literal('observe'),
  testCase: z.number().int(),
  success: z.boolean(),
  text: z.string(),
  paths: z.object({ input: z.string(), output: z.string() }),
  problem: z.string().optional(),
});
export type ObserveOutput = z.infer<typeof observeOutputSchema>;

export const understandOutputSchema = z.object({
  stage: z.literal('understand'),
  exchange: exchangeSchema,
  sections: z.record(z.string(), z.string()),
});

export const planOutputSchema = z.object({ stage: z.literal('plan'), exchange: exchangeSchema });

export const implementOutputSchema = z.object({
  stage: z.literal('implement'),
  exchange: exchangeSchema,
  code: z.string(),
});

export const executionSummarySchema = z.object({
  outputProduced: z.boolean(),
  feedback: z.string(),
  error: z.string(),
  timedOut: z.boolean(),
});
export type ExecutionSummary = z.infer<typeof executionSummarySchema>;

export const inspectionSchema = z.object({
  recalculated: z.boolean(),
  pieces: z.array(z.record(z.string(), z.unknown())),
  flags: z.array(z.object({ kind: z.string(), detail: z.string() })),
  /** Why the answer cells could not be read, if they could not. */
  problem: z.string().optional(),
});
export type Inspection = z.infer<typeof inspectionSchema>;

export const validateOutputSchema = z.object({
  stage: z.literal('validate'),
  execution: executionSummarySchema,
  inspection: inspectionSchema.nullable(),
  exchange: exchangeSchema,
  passed: z.boolean(),
  correctedCode: z.string().optional(),
});

export const reviseOutputSchema = z.object({
  stage: z.literal('revise'),
  testCase: z.number().int(),
  revision: z.number().int(),
  exchange: exchangeSchema,
  code: z.string().optional(),
});

export const finalAttemptSchema = z.object({
  revision: z.number().int(),
  code: z.string(),
  execution: executionSummarySchema,
  success: z.boolean(),
  /** Why no further revision was asked for or usable. */
  stopReason: z.string().optional(),
});

export const finalOutputSchema = z.object({
  stage: z.literal('final'),
  testCase: z.number().int(),
  success: z.boolean(),
  attempts: z.array(finalAttemptSchema),
});
export type FinalOutput = z.infer<typeof finalOutputSchema>;

export const STAGE_OUTPUT_SCHEMAS = {
  observe: observeOutputSchema,
  understand: understandOutputSchema,
  plan: planOutputSchema,
  implement: implementOutputSchema,
  validate: validateOutputSchema,
  final: finalOutputSchema,
} as const;
export type StageOutput<N extends CopilotStageName> = z.infer<(typeof STAGE_OUTPUT_SCHEMAS)[N]>;
export type ReviseOutput = z.infer<typeof reviseOutputSchema>;

/** `## heading` sections of a reply (stage 2 asks for four). */
export function markdownSections(text: string): Record<string, string> {
  const sections: Record<string, string> = {};
  let current: string | undefined;
  for (const line of text.split('\n')) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      current = heading[1];
      sections[current] = '';
    } else if (current !== undefined) sections[current] += `${line}\n`;
  }
  return Object.fromEntries(Object.entries(sections).map(([k, v]) => [k, v.trim()]));
}

/** The reference fork's rule (lowl6/SpreadsheetBench), made exact: passed when the reply says PASSED, not FAILED. */
export function validationPassed(reply: string): boolean {
  const upper = reply.toUpperCase();
  return upper.includes('VALIDATION PASSED') && !upper.includes('VALIDATION FAILED');
}
