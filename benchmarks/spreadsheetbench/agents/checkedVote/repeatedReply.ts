import type { ChatMessage } from '../../../../lib/llm/types';

/** A reply's program (and, for a formula candidate, its formula), or why it has none. */
export type Found = { code: string; formula?: string; mends?: string[] } | { problem: string; repeated?: true };

/**
 * A repair that gives back the very program (or formula) that just failed its checks is not run again: it would fail
 * the same way. Its problem says so, and the candidate moves on. `messages` is the repair's conversation (its last
 * message the repair request, the one before it the failed reply); `parse` reads a reply as the candidate's kind.
 * Whitespace does not count as a change.
 */
export function repeatedOrFound(
  found: Found,
  attempt: number,
  messages: ChatMessage[],
  parse: (text: string, finishReason: string) => Found,
): Found {
  const previous = attempt > 0 ? messages.at(-2) : undefined;
  if (!('code' in found) || previous?.role !== 'assistant') return found;
  const before = parse(previous.content, 'stop');
  if (!('code' in before) || squeezed(before.code) !== squeezed(found.code)) return found;
  const what = found.formula === undefined ? 'code' : 'formula';
  return { problem: `the repair repeats the ${what} that failed the checks, unchanged`, repeated: true };
}

function squeezed(code: string): string {
  return code.replace(/\s+/g, '');
}
