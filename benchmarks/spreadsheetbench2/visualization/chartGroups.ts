/**
 * Which charts each judge call sees, as the release routes them (run_visual_vlm_checklist_eval.py,
 * `_evaluate_multi_chart_with_routing`): an output with one chart is judged in one call on the whole checklist; with
 * several, each checklist item that names a chart by title (`chart`) found among the exported charts' titles (compared
 * in lower case with spaces collapsed; the first chart of a title wins) is asked in a call of its own with that chart
 * alone, one call per chart, and the other items in one call with every chart. Each group has its own repairs.
 */
import type { ChecklistItem } from './checklistJudge';

export interface ChartGroup {
  /** Indexes into the stored charts, in order. */
  charts: number[];
  /** The checklist ids asked in this group, in checklist order. */
  items: (number | string)[];
}

const titleKey = (title: string | undefined) => (title ?? '').trim().toLowerCase().split(/\s+/).join(' ');

export function chartGroups(checklist: readonly ChecklistItem[], titles: readonly string[]): ChartGroup[] {
  const every = titles.map((_, i) => i);
  if (titles.length <= 1) return [{ charts: every, items: checklist.map((c) => c.id) }];
  const chartOfTitle = new Map<string, number>();
  titles.forEach((t, i) => {
    const key = titleKey(t);
    if (key && !chartOfTitle.has(key)) chartOfTitle.set(key, i);
  });
  const routed = new Map<number, (number | string)[]>();
  const rest: (number | string)[] = [];
  for (const item of checklist) {
    const chart = item.chart === undefined ? undefined : chartOfTitle.get(titleKey(item.chart));
    if (chart === undefined) rest.push(item.id);
    else routed.set(chart, [...(routed.get(chart) ?? []), item.id]);
  }
  const groups = [...routed.entries()].map(([chart, items]) => ({ charts: [chart], items }));
  return rest.length ? [...groups, { charts: every, items: rest }] : groups;
}
