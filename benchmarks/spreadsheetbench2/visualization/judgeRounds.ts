/**
 * The rounds of one judgment, `tasks/<key>/charts/round-<n>.json` beside the charts they judged (removed with them when
 * the charts are exported again): round 0 asked for the whole checklist, each later round for the items the rounds
 * before left out. A round's question is computed from the rounds before it only, so a round retried after a crash
 * asks the very same request (answered from the response cache, never paid twice).
 */
import path from 'node:path';
import { z } from 'zod';
import { readRequiredJson } from '../../../lib/json';
import { writeJsonAtomic } from '../../../lib/runStore/files';
import { chartsDir } from './preparedCharts';
import { combinedVerdict, type ChecklistItem, type ItemVerdict, type ParsedVerdict } from './checklistJudge';

const idSchema = z.union([z.number(), z.string()]);

export const judgeRoundSchema = z.object({
  round: z.number(),
  callKey: z.string(),
  asked: z.array(idSchema),
  verdict: z.enum(['judged', 'unparseable']),
  items: z.array(z.object({ id: idSchema, pass: z.boolean(), reason: z.string().optional() })),
  reply: z.string(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  costUsd: z.number(),
});
export type JudgeRound = z.infer<typeof judgeRoundSchema>;

const roundPath = (runDir: string, key: string, round: number) =>
  path.join(chartsDir(runDir, key), `round-${round}.json`);

export const writeJudgeRound = (runDir: string, key: string, record: JudgeRound) =>
  writeJsonAtomic(roundPath(runDir, key, record.round), record);

/** Rounds 0 … before-1 of the task's current judgment. */
export async function roundsBefore(runDir: string, key: string, before: number): Promise<JudgeRound[]> {
  const rounds: JudgeRound[] = [];
  for (let r = 0; r < before; r++) rounds.push(await readRequiredJson(roundPath(runDir, key, r), judgeRoundSchema));
  return rounds;
}

/** What round `round` asks: the whole checklist first, then the items no round before answered. */
export function itemsToAsk(checklist: readonly ChecklistItem[], before: readonly JudgeRound[]): ChecklistItem[] {
  const answered = new Set(before.flatMap((r) => r.items.map((i) => i.id)));
  return checklist.filter((c) => !answered.has(c.id));
}

/**
 * The verdict of the rounds so far: unparseable when the first reply was (no repair follows it, as the release
 * gives up on it), else the items of every round over the whole checklist (an unparseable repair adds nothing).
 */
export function verdictOfRounds(checklist: readonly ChecklistItem[], rounds: readonly JudgeRound[]): ParsedVerdict {
  if (rounds[0]?.verdict !== 'judged') return { verdict: 'unparseable', accuracy: 0 };
  const items: ItemVerdict[] = rounds.flatMap((r) => r.items);
  return combinedVerdict(checklist, items);
}
