import { canonicalJson } from '../../lib/llm/canonicalJson';
import { readTurnToolCalls } from './debugStore';
import type { DebugToolCall } from './debug';
import type { ConversationLayout } from './layout';

/**
 * A failing tool call the same agent already made in this turn, same tool and same arguments, that failed too: the
 * embedded models send the same failing code again and again (the 1.5B's a15 second program three times, the same
 * KeyError each time), reading the same error as news. The tool result then says so (`repeated`), before the error:
 * which earlier step it repeats, that nothing differed, whether the error is the same, and what to change.
 */
export async function repeatedFailure(
  layout: ConversationLayout,
  call: { turnId: string; agent: string; stepId: string; callId: string; tool: string; args: unknown; error: string },
): Promise<string | undefined> {
  const same = canonicalJson(call.args);
  const earlier = (await readTurnToolCalls(layout, call.turnId, (agent) => agent === call.agent)).filter(
    (c) =>
      !(c.stepId === call.stepId && c.callId === call.callId) &&
      !c.ok &&
      c.tool === call.tool &&
      canonicalJson(c.args) === same,
  );
  const first = earlier[0];
  if (!first) return undefined;
  return repeatedFailureNote({
    times: earlier.length + 1,
    firstStep: first.stepId,
    sameError: earlier.some((c) => comparableError(errorOf(c)) === comparableError(call.error)),
  });
}

/** What the model reads at the head of the repeated call's result. */
export function repeatedFailureNote(repeat: { times: number; firstStep: string; sameError: boolean }): string {
  const what = repeat.sameError ? 'and it failed again with the same error' : 'and it failed again';
  return [
    `You sent this exact call ${repeat.times} times in this turn (first in step ${repeat.firstStep}): nothing differed from the earlier one, ${what}.`,
    'Running it unchanged cannot succeed. Change the code where the error points (another column, index or method; print what you need to check first), or compute the result another way.',
  ].join(' ');
}

function errorOf(call: DebugToolCall): string {
  if (typeof call.result === 'string') return call.result;
  const error = (call.result as { error?: unknown } | null | undefined)?.error;
  return typeof error === 'string' ? error : '';
}

/** An error as compared: the kernel numbers its cells, so `<cell 5>` and `<cell 8>` are the same place. */
function comparableError(error: string): string {
  return error.replace(/<cell \d+>/g, '<cell>').trim();
}
