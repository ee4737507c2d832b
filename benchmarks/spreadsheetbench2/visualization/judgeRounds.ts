/**
 * The rounds of one judgment, `tasks/<key>/charts/round-<n>.json` beside the charts they judged (removed with them when
 * the charts are exported again): round 0 asked for the whole checklist, each later round for the items the rounds
 * before left out. An output judged chart by chart (chartGroups.ts) has rounds per group, `group-<g>-round-<n>.json`,
 * each group's over its own items. A round's question is computed from the rounds before it only, so a round retried after a crash
 * asks the very same request (answered from the response cache, never paid twice).
 */
import path from 'node:path';
import { z } from 'zod';
import { readJsonIfPresent, readRequiredJson } from '../../../lib/json';
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

/** A round's file; `group` is the 0-based group of a judgment made chart by chart (absent: one call for all). */
const roundPath = (runDir: string, key: string, round: number, group?: number) =>
  path.join(
    chartsDir(runDir, key),
    group === undefined ? `round-${round}.json` : `group-${group + 1}-round-${round}.json`,
  );

export const writeJudgeRound = (runDir: string, key: string, record: JudgeRound, group?: number) =>
  writeJsonAtomic(roundPath(runDir, key, record.round, group), record);

/** Rounds 0 … before-1 of the task's current judgment (of one group). */
export async function roundsBefore(runDir: string, key: string, before: number, group?: number): Promise<JudgeRound[]> {
  const rounds: JudgeRound[] = [];
  for (let r = 0; r < before; r++)
    rounds.push(await readRequiredJson(roundPath(runDir, key, r, group), judgeRoundSchema));
  return rounds;
}

/** Every round recorded so far for one group. */
export async function roundsOfGroup(runDir: string, key: string, group: number): Promise<JudgeRound[]> {
  const rounds: JudgeRound[] = [];
  for (;;) {
    const r = await readJsonIfPresent(roundPath(runDir, key, rounds.length, group), judgeRoundSchema);
    if (!r) return rounds;
    rounds.push(r);
  }
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

/**
 * The verdict of a judgment made in groups (one per chart, and one for the rest), from each group's rounds: as the
 * release, unparseable when any group's first reply was; else every group's items over the whole checklist.
 */
export function verdictOfGroups(
  checklist: readonly ChecklistItem[],
  groupRounds: readonly (readonly JudgeRound[])[],
): ParsedVerdict {
  if (groupRounds.some((rounds) => rounds.length > 0 && rounds[0].verdict !== 'judged'))
    return { verdict: 'unparseable', accuracy: 0 };
  return combinedVerdict(
    checklist,
    groupRounds.flatMap((rounds) => rounds.flatMap((r) => r.items)),
  );
}
