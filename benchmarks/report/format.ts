import type { TaskResult } from '../../contracts/taskResult';

/** Number and text formatting shared by the Markdown and HTML reports. */

export function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

export function signedPct(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pp`;
}

export function usd(x: number): string {
  return `$${x.toFixed(4)}`;
}

export function signedUsd(x: number): string {
  return `${x < 0 ? '-' : '+'}$${Math.abs(x).toFixed(4)}`;
}

export function count(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

export function signedCount(x: number): string {
  return `${x >= 0 ? '+' : '-'}${count(Math.abs(x))}`;
}

export function score(x: number): string {
  return x.toFixed(3);
}

/** "1 0 1" → "✓✗✓" style, one mark per test case. */
export function testCaseMarks(results: number[]): string {
  return results.map((r) => (r === 1 ? '✓' : '✗')).join('');
}

/** Why test cases failed: "#2 B3: expected 4 got None; #3 File not exist". */
export function reasonsText(result: TaskResult): string {
  return result.reasons
    .map((reason, i) => (reason ? `#${i + 1} ${reason}` : null))
    .filter((x): x is string => x !== null)
    .join('; ');
}

export function failureText(result: TaskResult): string {
  return result.failure ? `${result.failure.class}: ${result.failure.message}` : '';
}

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A Markdown table cell: no pipes or line breaks. */
export function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Relative href of a task's generated transcript page, from the report's folder. */
export function transcriptHref(key: string): string {
  return `tasks/${encodeURIComponent(key)}/transcript.html`;
}
