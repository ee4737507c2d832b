/**
 * How many characters of earlier stages' text each SheetCopilot stage prompt embeds. These are the reference fork's
 * lengths (lowl6/SpreadsheetBench `inference/stage_prompts.py`), kept so the prompts stay SheetCopilot v2's: the whole
 * observation is message 2 of every call anyway, so an excerpt only repeats its start beside the stage's question, and
 * the later the stage the less it repeats (its own earlier answers are in the messages). Changing one changes what
 * the model is sent: a new SHEETCOPILOT_PROMPT_VERSION.
 */
export const EXCERPT_CHARS = {
  /** Stage 2 reads the observation closest: it is all it has besides the instruction. */
  understand: { observation: 1200 },
  /** Stages 3 and 4 have the understanding's answer in the messages too; both embed this excerpt of it. */
  plan: { observation: 1000, understanding: 800 },
  implement: { observation: 1000 },
  /** Stage 5 after a failed execution: the error and the code matter most. */
  validateFailure: { observation: 500, plan: 600 },
  /**
   * Stage 5 after a successful execution: the inspected answer cells. The fork showed the input's and the output's
   * target content at up to 800 characters each; here one JSON of both, so twice that.
   */
  validateSuccess: { answerSummaries: 1600 },
  /** Stage 6 revisions. */
  revise: { observation: 600, plan: 600 },
} as const;
