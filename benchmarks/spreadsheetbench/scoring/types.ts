/** Verdict shapes of the official SpreadsheetBench evaluator. */

export type ScoringMode = 'official' | 'strict';

export interface TestCaseVerdict {
  index: number;
  pass: boolean;
  /** Why it failed ("File not exist", "sheet X missing in output", "B3: expected 4.0 got None", ...). */
  reason?: string;
}

/** One entry of the official eval JSON (key order as the official script writes it). */
export interface OfficialTaskScore {
  id: number | string;
  instruction_type: string;
  test_case_results: number[];
  soft_restriction: number;
  hard_restriction: number;
}
