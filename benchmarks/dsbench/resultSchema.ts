import { z } from 'zod';
import { TASK_FAILURE_CLASSES } from '../../contracts/taskResult';
import type { DsbenchAnswer, DsbenchJudgment, DsbenchQuestionResult } from './result';

/**
 * A DSBench question's files read back by later activities (a judge after the answer, a rejudge), `show`, finalize
 * and later versions: tasks/<id>/answer.json, tasks/<id>/judgment.json, results/<id>.json. Loose objects keep the
 * fields a newer writer adds.
 */
const usageSchema = z.looseObject({ inputTokens: z.number(), outputTokens: z.number() });
const verdictSchema = z.enum(['correct', 'incorrect', 'unparseable']);

export const dsbenchAnswerSchema = z.looseObject({
  taskId: z.string(),
  model: z.string(),
  response: z.string(),
  promptTokens: z.number(),
  truncated: z.boolean(),
  usage: usageSchema,
  costUsd: z.number(),
  llmCalls: z.number(),
  wallMs: z.number(),
}) satisfies z.ZodType<DsbenchAnswer>;

export const dsbenchJudgmentSchema = z.looseObject({
  taskId: z.string(),
  judgeModel: z.string(),
  reply: z.string(),
  verdict: verdictSchema,
  usage: usageSchema,
  costUsd: z.number(),
  callKey: z.string(),
}) satisfies z.ZodType<DsbenchJudgment>;

export const dsbenchQuestionResultSchema = z.looseObject({
  taskId: z.string(),
  competitionId: z.string(),
  question: z.string(),
  answerType: z.enum(['choice', 'integer', 'numeric', 'text', 'object']),
  target: z.string(),
  predicted: z.string().optional(),
  verdict: verdictSchema.optional(),
  judgeReply: z.string().optional(),
  judgeModel: z.string().optional(),
  exactMatch: z.boolean().optional(),
  truncated: z.boolean().optional(),
  soft: z.number(),
  hard: z.number(),
  failure: z.looseObject({ class: z.enum(TASK_FAILURE_CLASSES), message: z.string() }).optional(),
  usage: usageSchema,
  costUsd: z.number(),
  llmCalls: z.number(),
  wallMs: z.number(),
}) satisfies z.ZodType<DsbenchQuestionResult>;
