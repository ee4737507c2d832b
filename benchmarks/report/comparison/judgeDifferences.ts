/**
 * Two runs judged with different settings (a benchmark whose answers a judge scores: SpreadsheetBench 2's vision
 * judge, DSBench's): their scores may differ for that alone, so `compare` pairs them and warns, naming what differs.
 * Each run's settings are a list of field sets (one per distinct setting its judgments were made with).
 */
export type JudgeFields = Record<string, string>;

const text = (f: JudgeFields) =>
  Object.entries(f)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** The judge settings in one line (`model glm-4.6v, host open.bigmodel.cn, …`; several separated by ` | `). */
export function judgeSettingsText(settings: readonly JudgeFields[]): string {
  return settings.length ? settings.map(text).join(' | ') : 'not recorded';
}

/** What differs between A's and B's judge settings, one phrase per field (empty when they are the same). */
export function judgeDifferences(a: readonly JudgeFields[], b: readonly JudgeFields[]): string[] {
  const same = (x: readonly JudgeFields[]) => JSON.stringify(x.map(text).sort());
  if (same(a) === same(b)) return [];
  if (a.length !== 1 || b.length !== 1) return [`A ${judgeSettingsText(a)}; B ${judgeSettingsText(b)}`];
  const keys = [...new Set([...Object.keys(a[0]), ...Object.keys(b[0])])];
  return keys
    .filter((k) => a[0][k] !== b[0][k])
    .map((k) => `${k}: A ${a[0][k] ?? 'not recorded'}, B ${b[0][k] ?? 'not recorded'}`);
}
