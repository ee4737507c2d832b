export interface GroundedNumber {
  text: string;
  grounded: boolean;
  source?: { kind: string; tool?: string; stepId?: string; file?: string; line?: number; excerpt: string };
}
export function locateNumbers<N extends { text: string }>(
  pieces: string[],
  numbers: N[],
): Array<{ piece: number; start: number; end: number; number: N }>;
export function sourceTitle(number: GroundedNumber): string;
export function markGrounding(html: string, grounding: { numbers: GroundedNumber[] } | undefined): string;
export function groundingSummary(g: { total: number; grounded: number; note?: string } | undefined): string;
