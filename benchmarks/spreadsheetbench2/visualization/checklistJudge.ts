/**
 * Visualization tasks are judged on their charts, as the release's run_visual_vlm_checklist_eval.py does: the output's
 * charts as images go to a vision model with the task's checklist; the model answers each item, the score is the
 * share of items it answers yes, and the task passes when the score is above 0.7. The endpoint is any
 * OpenAI-compatible chat API that takes image content parts (the release uses glm-4.6v).
 *
 * The prompt and reply format are this project's (the release's prompt is not reproduced here): one JSON object
 * `{"items": [{"item": N, "satisfied": true|false, "why": "..."}]}`; a reply without it is `unparseable` (re-judged by
 * `rejudge`), never counted as a fail.
 */
import OpenAI from 'openai';
import { z } from 'zod';

/** The release's rule: accuracy 1 when the checklist score is above this. */
export const CHECKLIST_PASS_ABOVE = 0.7;

export interface VisionEndpoint {
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Default 0 (a judge should not sample). */
  temperature?: number;
  maxTokens?: number;
}

export interface ChartImage {
  /** What the image shows (`Sheet1 chart 1`). */
  label: string;
  png: Buffer;
}

export interface ChecklistVerdict {
  verdict: 'judged' | 'unparseable' | 'no_charts';
  /** Items answered yes / items (judged only). */
  score?: number;
  accuracy: 0 | 1;
  items?: { item: number; satisfied: boolean; why?: string }[];
  reply?: string;
  model: string;
}

const replySchema = z.object({
  items: z.array(z.object({ item: z.number().int(), satisfied: z.boolean(), why: z.string().optional() }).loose()),
});

export function checklistPrompt(instruction: string, checklist: readonly string[], charts: readonly ChartImage[]) {
  return [
    'You judge charts made in a spreadsheet for this request:',
    instruction,
    '',
    `The ${charts.length} image(s) that follow are the charts of the submitted workbook (${charts.map((c) => c.label).join('; ')}).`,
    'Check each item of the checklist against the charts:',
    ...checklist.map((c, i) => `${i + 1}. ${c}`),
    '',
    'Reply with one JSON object only: {"items": [{"item": <number>, "satisfied": true or false, "why": "<short reason>"}]}, one entry per item.',
  ].join('\n');
}

/** The verdict of a reply: every item answered once, or unparseable. */
export function verdictOf(reply: string, checklist: readonly string[], model: string): ChecklistVerdict {
  const json = /\{[\s\S]*\}/.exec(reply)?.[0];
  let parsed: z.infer<typeof replySchema> | undefined;
  try {
    parsed = json ? replySchema.parse(JSON.parse(json)) : undefined;
  } catch {
    parsed = undefined;
  }
  const numbers = parsed?.items.map((i) => i.item).sort((a, b) => a - b);
  const complete = numbers?.length === checklist.length && numbers.every((n, i) => n === i + 1);
  if (!parsed || !complete) return { verdict: 'unparseable', accuracy: 0, reply, model };
  const score = parsed.items.filter((i) => i.satisfied).length / checklist.length;
  return {
    verdict: 'judged',
    score,
    accuracy: score > CHECKLIST_PASS_ABOVE ? 1 : 0,
    items: parsed.items.map(({ item, satisfied, why }) => ({ item, satisfied, ...(why ? { why } : {}) })),
    reply,
    model,
  };
}

/** Asks the vision endpoint once; an output without charts fails without a call. */
export async function judgeCharts(
  endpoint: VisionEndpoint,
  task: { instruction: string; checklist: readonly string[] },
  charts: readonly ChartImage[],
): Promise<ChecklistVerdict> {
  if (!charts.length) return { verdict: 'no_charts', accuracy: 0, model: endpoint.model };
  const client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 2 });
  const completion = await client.chat.completions.create({
    model: endpoint.model,
    temperature: endpoint.temperature ?? 0,
    max_tokens: endpoint.maxTokens ?? 1024,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: checklistPrompt(task.instruction, task.checklist, charts) },
          ...charts.map((c) => ({
            type: 'image_url' as const,
            image_url: { url: `data:image/png;base64,${c.png.toString('base64')}` },
          })),
        ],
      },
    ],
  });
  return verdictOf(completion.choices[0]?.message.content ?? '', task.checklist, endpoint.model);
}
