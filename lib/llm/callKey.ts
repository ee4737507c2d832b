/**
 * The identity of one logical model call: sent as the `X-Sheetbench-Call` header and the response cache's default
 * discriminator (lib/llm/responseCache.ts). Built here only, in one format: the parts (run, task, stage, round… or
 * conversation, step, role) joined by `/`, and a rerun's tag after `#`. Pure: safe in the workflow bundle.
 */
export function callKeyOf(parts: readonly (string | number)[], rerunTag?: string): string {
  return `${parts.join('/')}${rerunTag ? `${TAG_SEPARATOR}${rerunTag}` : ''}`;
}

const TAG_SEPARATOR = '#';

/**
 * The same call as releases before the one builder wrote it, so replies already paid for are still found: DSBench
 * questions and rejudges put the tag after `/` (`<run>/<task>/<stage>/<tag>`); the SpreadsheetBench agents already
 * wrote `#<tag>`, and calls without a tag never changed.
 */
export function legacyCallKeys(callKey: string): string[] {
  const at = callKey.indexOf(TAG_SEPARATOR);
  return at < 0 ? [] : [`${callKey.slice(0, at)}/${callKey.slice(at + 1)}`];
}
