/**
 * The checked_vote agent's fixed settings (part of its prompt version: changing one changes the experiment).
 * - CANDIDATES: independent Python samples for a task without formula candidates; the first at the run's
 *   temperature, the others at SAMPLE_TEMPERATURE.
 * - REPAIRS: feedback rounds per candidate after a failed check (for small models most of the gain of self-repair is
 *   in the first round, and resampling beats more repair: agent-quality-notes.md).
 * - FORMULA_CANDIDATES: for a cell-level task whose answer region is one rectangle (and whose run recalculates), the
 *   formula samples tried first (each a ~30-token reply, capped at FORMULA_MAX_TOKENS); when none passes,
 *   PYTHON_AFTER_FORMULAS Python candidates follow. All of them vote together.
 * - Sampling stops early once more than half of the planned candidates of the current kind pass and write the same
 *   answer cells on every test case: the rest could no longer outvote them.
 */
export const CANDIDATES = 3;
export const REPAIRS = 1;
export const SAMPLE_TEMPERATURE = 0.7;
export const FORMULA_CANDIDATES = 3;
export const FORMULA_REPAIRS = 1;
export const FORMULA_MAX_TOKENS = 256;
export const PYTHON_AFTER_FORMULAS = 1;
/**
 * checked-vote-v4 (workflow patch `checked-vote-v4-budget`): on a CPU-bound local model a Python candidate costs a
 * fresh prompt (another system prompt) and a long reply, minutes per task: a cell-level task gets formula candidates
 * only (no Python fallback), any other task CANDIDATES_V4 Python candidates, each reply capped at PYTHON_MAX_TOKENS.
 */
export const PYTHON_AFTER_FORMULAS_V4 = 0;
export const CANDIDATES_V4 = 2;
export const PYTHON_MAX_TOKENS = 640;
/**
 * checked-vote-v5 (workflow patch `checked-vote-v5-resample`): a candidate whose repair gave back the failed reply
 * unchanged (v4: ~40% of repairs) is followed by one more fresh candidate of its kind, at most this many per task and
 * kind (fresh samples beat repeated repair for small models: agent-quality-notes.md).
 */
export const EXTRA_FORMULA_CANDIDATES = 2;
export const EXTRA_PYTHON_CANDIDATES = 1;
/**
 * checked-vote-v7.2 (workflow patch `checked-vote-v7-tie-break`): when a kind's planned candidates are all in and the
 * passing ones split into equal groups of answers (vote.ts `tied`), this many more candidates of that kind are sampled
 * to break the tie.
 */
export const TIE_BREAK_CANDIDATES = 1;
/**
 * checked-vote-v9 (workflow patch `checked-vote-v9-candidates`): a task without formula candidates gets this many
 * Python candidates again (v4 cut them to CANDIDATES_V4 for time). Measured in v8.4's two samples of dev20's Python
 * tasks: the 1.5B's candidates pass the checks rarely (one in four) and the vote mostly had a single passing
 * candidate to go by; 79-7 was solved by 0 of 3 candidates in one sample and 2 of 3 in the other.
 */
export const CANDIDATES_V9 = 3;
/**
 * checked-vote-v9 (workflow patch `checked-vote-v9-cause-mends`): after a formula fails, the harness applies the
 * reference swaps its checks named (causeMends.ts) and checks the result, up to this many times in a row (each swap
 * can uncover the next cause: 57105's empty $A4, then its swapped date and amount ranges), before the model's repair.
 */
export const CAUSE_MENDS = 2;
/** Characters of workbook view in the prompt (about 2,000 tokens: cell addresses and numbers tokenize to ~2 characters a token). */
export const VIEW_BUDGET_CHARS = 4_000;
/**
 * v13: a formula candidate that drops cells of the user's formula the instruction asks to change fails
 * `dropped_reference` (quotedFormula.ts); activities only, no workflow patch.
 * v14: outputs that differ from the user's example of the result in the workbook fail `example_mismatch`
 * (exampleTable.ts), and the vote falls back to candidates refused by that alone; activities only.
 * v15: when the task asks to add a condition to the user's formula, the passing candidates that keep it whole win the
 * vote over those that do not (quotedFormula.ts `keepsWhole`, vote.ts); the vote only.
 */
export const CHECKED_VOTE_PROMPT_VERSION = 'checked-vote-v15';
