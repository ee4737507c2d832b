/**
 * Python `json.dump(eval_results, fp, indent=4)` byte-for-byte: floats keep a ".0" (1.0, 0.0), ints do not,
 * non-ASCII is escaped (ensure_ascii), lists and objects are broken one item per line.
 */
import type { OfficialTaskScore } from './types';

const pyString = (s: string) =>
  JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const pyFloat = (x: number) => (Number.isInteger(x) ? x.toFixed(1) : String(x));

function entry(r: OfficialTaskScore, pad: string): string {
  const inner = `${pad}    `;
  const list =
    r.test_case_results.length === 0
      ? '[]'
      : `[\n${r.test_case_results.map((x) => `${inner}    ${x}`).join(',\n')}\n${inner}]`;
  const id = typeof r.id === 'number' ? String(r.id) : pyString(r.id);
  return [
    `${pad}{`,
    `${inner}"id": ${id},`,
    `${inner}"instruction_type": ${pyString(r.instruction_type)},`,
    `${inner}"test_case_results": ${list},`,
    `${inner}"soft_restriction": ${pyFloat(r.soft_restriction)},`,
    `${inner}"hard_restriction": ${r.hard_restriction}`,
    `${pad}}`,
  ].join('\n');
}

export function officialJson(results: OfficialTaskScore[]): string {
  if (results.length === 0) return '[]';
  return `[\n${results.map((r) => entry(r, '    ')).join(',\n')}\n]`;
}
