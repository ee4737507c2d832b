/** Public API of the SpreadsheetBench evaluator (official parity by default, `strict` with documented fixes). */
export type { ScoringMode, TestCaseVerdict, OfficialTaskScore } from './types';
export { evaluateTestCase, diffTestCase, type EvaluateTestCaseInput } from './compareWorkbooks';
export {
  MAX_MISMATCHES,
  type CellMismatch,
  type CellCheck,
  type DiffValue,
  type AnswerFill,
  type TestCaseDiff,
  type TestCaseCells,
  type TaskCellDiffs,
} from './cellDiff';
export {
  scoreTask,
  officialScore,
  answerPathFor,
  outputFileName,
  type ScoreTaskInput,
  type ScoredTask,
} from './scoreTask';
export {
  evaluateOutputs,
  type EvaluateOutputsInput,
  type EvaluateOutputsResult,
  type TaskVerdicts,
} from './evaluateOutputs';
export { FloorStore, defaultFloorDir, type FloorQuery, type FloorCase } from './floorStore';
export { summarize, type ScoreSummary, type ScoreGroup } from './summary';
export {
  parseAnswerPosition,
  categorize,
  cellCount,
  STRICT_FIXES,
  type ParsedAnswerPosition,
  type AnswerPiece,
  type RangeTarget,
} from './answerPosition';
export { verdictDifferences, parseDifferences, type ModeDifference } from './modeDifferences';
export { benchmarkHealth, type HealthReport } from './health';
export { officialJson } from './officialJson';
export { compareCellValue, transformValue, type CellValue } from '../../workbook/cellValue';
export { openWorkbookValues, WorkbookReadError } from '../../workbook/ooxmlReader';
