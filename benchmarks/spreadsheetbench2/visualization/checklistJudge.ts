/**
 * Visualization tasks are judged on their charts, by the rules of the release's evaluation/
 * run_visual_vlm_checklist_eval.py (read in RUCKBReasoning/SpreadsheetBench-2 at d83edf9): the task's `criteria` are the
 * checklist (an item's text is its `instruction`, else its `description`); the output's charts go as PNG image parts to
 * an OpenAI-compatible vision model (default glm-4.6v, temperature 0.1, 4,096 tokens); its reply lists the items that
 * pass and those that fail as JSON (`pass_ids`, `fail`; an older `results` list is read too); the score is the items
 * passed over the checklist's length (an item the reply leaves out does not pass), and accuracy is 1 when the score is
 * above 0.7. A reply with no readable JSON scores nothing: here it is `unparseable`, which `sheetbench rejudge` judges
 * again.
 *
 * THE PROMPT IS THIS PROJECT'S OWN, not the release's: its wording is ours (the release's text is not reproduced), it
 * asks for the release's reply shape and rules (visual evidence only, an item naming a chart by its title checked on
 * that chart, a short reason per failed item). Verdicts may differ from the release's for that reason alone.
 * As the release, a reply that left items out is followed by at most two more calls asking for those items only
 * (workflows/spreadsheetbench2/chartJudging.ts). As the release, an output with several charts is judged chart by chart
 * (chartGroups.ts: the items naming a chart by title with that chart alone, the rest with every chart). Not done as the
 * release does: it stitches the charts into one image when fewer exported than the workbook holds.
 */
import type { ChatRequest } from '../../../lib/llm/types';
import type { V2Task } from '../dataset';

/** The release's rule: accuracy 1 when the checklist score is above this. */
export const CHECKLIST_PASS_ABOVE = 0.7;

export interface ChecklistItem {
  id: number | string;
  assertion: string;
  /** The chart the item is about, by its title (the record's `chart`). */
  chart?: string;
}

export interface JudgeSettings {
  model: string;
  temperature: number;
  maxTokens: number;
}

export interface ItemVerdict {
  id: number | string;
  pass: boolean;
  reason?: string;
}

export type ParsedVerdict =
  | { verdict: 'judged'; score: number; accuracy: 0 | 1; items: ItemVerdict[]; missing: (number | string)[] }
  | { verdict: 'unparseable'; accuracy: 0 };

/** The task's checklist (its `criteria`), in order. */
export function checklistOf(task: Pick<V2Task, 'criteria'>): ChecklistItem[] {
  return (task.criteria ?? []).map((c) => ({
    id: c.id,
    assertion: c.instruction ?? c.description ?? '',
    ...(c.chart !== undefined ? { chart: c.chart } : {}),
  }));
}

/** Our system prompt (not the release's wording; see the file's head). */
export function judgeSystemPrompt(charts: number): string {
  return [
    `You grade ${charts === 1 ? 'a chart' : `${charts} charts`} made in a spreadsheet against a checklist.`,
    'For every checklist item decide PASS or FAIL from what the image(s) visibly show, nothing else.',
    'When an item names a chart by its title, look at that chart only.',
    'Give each FAIL a reason of a few words; give no reason for a PASS.',
    'Answer with JSON only, no markdown, using only the ids of the checklist:',
    '{"pass_ids": [<ids that pass>], "fail": [{"id": <id>, "reason": "<why>"}]}',
  ].join('\n');
}

export function judgeUserText(checklist: readonly ChecklistItem[], labels: readonly string[]): string {
  return [
    `The attached image${labels.length === 1 ? ' is the chart' : `s are the ${labels.length} charts`} of the submitted workbook (${labels.join('; ')}).`,
    'Checklist:',
    ...checklist.map((c) => `${c.id}. ${c.assertion}`),
  ].join('\n');
}

/** The judgment request: our prompt, the checklist, and every chart as a PNG data URL. */
export function judgeRequest(
  settings: JudgeSettings,
  checklist: readonly ChecklistItem[],
  charts: readonly { label: string; png: Buffer }[],
): ChatRequest {
  return {
    model: settings.model,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    messages: [
      { role: 'system', content: judgeSystemPrompt(charts.length) },
      {
        role: 'user',
        content: judgeUserText(
          checklist,
          charts.map((c) => c.label),
        ),
        images: charts.map((c) => `data:image/png;base64,${c.png.toString('base64')}`),
      },
    ],
  };
}

/** The JSON object of a reply: without the model's box markers and a markdown fence, from its first `{` to its last `}`. */
function jsonOf(reply: string): unknown {
  let text = reply.replaceAll('<|begin_of_box|>', '').replaceAll('<|end_of_box|>', '').trim();
  const fence = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  if (fence) text = fence[1].trim();
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

const idIn = (ids: readonly (number | string)[], raw: unknown): number | string | undefined => {
  const asNumber = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  return ids.find((id) => id === asNumber || id === raw);
};

/** Each item the reply names, last word wins: `results` entries, then `pass_ids`, then `fail` (the release's order). */
function itemsOf(data: Record<string, unknown>, ids: readonly (number | string)[]): Map<number | string, ItemVerdict> {
  const found = new Map<number | string, ItemVerdict>();
  const put = (raw: unknown, pass: boolean, reason?: unknown) => {
    const id = idIn(ids, raw);
    if (id === undefined) return;
    found.set(id, { id, pass, ...(typeof reason === 'string' && reason ? { reason } : {}) });
  };
  if (Array.isArray(data.results))
    for (const r of data.results as unknown[])
      if (r && typeof r === 'object') {
        const { id, result, reason } = r as Record<string, unknown>;
        put(id, String(result ?? 'FAIL').toUpperCase() === 'PASS', reason);
      }
  if (Array.isArray(data.pass_ids)) for (const id of data.pass_ids as unknown[]) put(id, true);
  if (Array.isArray(data.fail))
    for (const f of data.fail as unknown[])
      if (f && typeof f === 'object')
        put((f as Record<string, unknown>).id, false, (f as Record<string, unknown>).reason);
      else put(f, false);
  return found;
}

/** The verdict of a reply on (part of) a checklist, by the release's counting. */
export function verdictOf(reply: string, checklist: readonly ChecklistItem[]): ParsedVerdict {
  const data = jsonOf(reply);
  if (!data || typeof data !== 'object' || Array.isArray(data) || !checklist.length)
    return { verdict: 'unparseable', accuracy: 0 };
  return combinedVerdict(checklist, [
    ...itemsOf(
      data as Record<string, unknown>,
      checklist.map((c) => c.id),
    ).values(),
  ]);
}

/**
 * The verdict over the whole checklist from the items answered (by a first reply and the repairs that asked for the
 * items it left out): the items passed over the checklist's length, accuracy 1 above 0.7, the items still missing.
 */
export function combinedVerdict(
  checklist: readonly ChecklistItem[],
  answered: readonly ItemVerdict[],
): ParsedVerdict & { verdict: 'judged' } {
  const byId = new Map(answered.map((i) => [i.id, i]));
  const items = checklist.flatMap((c) => (byId.has(c.id) ? [byId.get(c.id)!] : []));
  const score = checklist.length ? items.filter((i) => i.pass).length / checklist.length : 0;
  return {
    verdict: 'judged',
    score,
    accuracy: score > CHECKLIST_PASS_ABOVE ? 1 : 0,
    items,
    missing: checklist.filter((c) => !byId.has(c.id)).map((c) => c.id),
  };
}
