/**
 * The checked_vote agent's fixed settings (part of its prompt version: changing one changes the experiment).
 * - CANDIDATES: independent samples; the first at the run's temperature, the others at SAMPLE_TEMPERATURE.
 * - REPAIRS: feedback rounds per candidate after a failed check (for small models most of the gain of self-repair is
 *   in the first round, and resampling beats more repair: agent-quality-notes.md).
 * - Sampling stops early once two candidates pass and write the same answer cells on every test case: a third can
 *   no longer outvote them.
 */
export const CANDIDATES = 3;
export const REPAIRS = 1;
export const SAMPLE_TEMPERATURE = 0.7;
/** Characters of workbook view in the prompt (about 3,000 tokens). */
export const VIEW_BUDGET_CHARS = 9_000;
export const CHECKED_VOTE_PROMPT_VERSION = 'checked-vote-v1';
