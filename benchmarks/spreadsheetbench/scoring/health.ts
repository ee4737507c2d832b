/**
 * Benchmark-health report: what a dataset scores without any agent and where its metadata cannot be trusted.
 * - null agent: test cases whose unmodified input already passes;
 * - answer positions that are vacuous (enumerate no cell) or make the official script raise;
 * - answer files whose target cells hold formulas without cached values (ground truth reads None);
 * - answer files that fail against themselves.
 */
import { loadDataset, testCaseFiles, type SheetTask } from '../dataset';
import type { ScoringMode } from './types';
import { categorize, cellsOf, columnName, parseAnswerPosition } from './answerPosition';
import { evaluateTestCase } from './compareWorkbooks';
import { openWorkbookValues } from '../../workbook/ooxmlReader';
import { answerPathFor, officialScore, scoreTask } from './scoreTask';
import { summarize, type ScoreSummary } from './summary';

export interface HealthReport {
  dataset: string;
  mode: ScoringMode;
  tasks: number;
  nullAgent: { summary: ScoreSummary; passing: { id: number | string; test_case_results: number[] }[] };
  answerPositions: { vacuous: PositionIssue[]; unparseable: PositionIssue[] };
  uncachedAnswerFormulas: { id: number | string; testCase: number; count: number; examples: string[] }[];
  answerSelfFailures: { id: number | string; testCase: number; reason: string }[];
}

interface PositionIssue {
  id: number | string;
  answer_position: string;
  detail: string;
}

function positionIssues(tasks: SheetTask[], mode: ScoringMode) {
  const vacuous: PositionIssue[] = [];
  const unparseable: PositionIssue[] = [];
  for (const t of tasks) {
    const parsed = parseAnswerPosition(t.answer_position, mode);
    const category = categorize(parsed);
    const detail = parsed.pieces
      .map((p) => (p.target.kind === 'error' ? p.target.error : `${p.raw} → ${JSON.stringify(p.target)}`))
      .join('; ');
    if (category === 'error') unparseable.push({ id: t.id, answer_position: t.answer_position, detail });
    if (category === 'vacuous') vacuous.push({ id: t.id, answer_position: t.answer_position, detail });
  }
  return { vacuous, unparseable };
}

async function uncachedTargets(answerPath: string, task: SheetTask, mode: ScoringMode): Promise<string[]> {
  const book = await openWorkbookValues(answerPath);
  const found: string[] = [];
  for (const piece of parseAnswerPosition(task.answer_position, mode).pieces) {
    const name = piece.sheet ?? book.sheetnames[0];
    if (piece.target.kind !== 'cells' || !book.sheetnames.includes(name)) continue;
    const sheet = await book.sheet(name);
    if (sheet.kind !== 'worksheet') continue;
    for (const [r, c] of cellsOf(piece.target))
      if (sheet.isUncachedFormula(r, c)) found.push(`${name}!${columnName(c)}${r}`);
  }
  return found;
}

async function answerChecks(
  datasetDir: string,
  task: SheetTask,
  mode: ScoringMode,
  report: HealthReport,
): Promise<void> {
  for (const tc of await testCaseFiles(datasetDir, task)) {
    const self = await evaluateTestCase({
      index: tc.index,
      answerPath: tc.answerPath,
      outputPath: tc.answerPath,
      answerPosition: task.answer_position,
      mode,
    });
    if (!self.pass) report.answerSelfFailures.push({ id: task.id, testCase: tc.index, reason: self.reason ?? '' });
    try {
      const uncached = await uncachedTargets(tc.answerPath, task, mode);
      if (uncached.length)
        report.uncachedAnswerFormulas.push({
          id: task.id,
          testCase: tc.index,
          count: uncached.length,
          examples: uncached.slice(0, 5),
        });
    } catch {
      // unreadable answers are already listed as self-failures
    }
  }
}

export async function benchmarkHealth(datasetDir: string, mode: ScoringMode = 'official'): Promise<HealthReport> {
  const tasks = await loadDataset(datasetDir);
  const report: HealthReport = {
    dataset: datasetDir,
    mode,
    tasks: tasks.length,
    nullAgent: { summary: summarize([]), passing: [] },
    answerPositions: positionIssues(tasks, mode),
    uncachedAnswerFormulas: [],
    answerSelfFailures: [],
  };
  const nullScores = [];
  for (const task of tasks) {
    const inputs = new Map((await testCaseFiles(datasetDir, task)).map((tc) => [tc.index, tc.inputPath]));
    const inputFor = (n: number) =>
      inputs.get(n) ?? answerPathFor(datasetDir, task, n).replace(/_answer\.xlsx$/, '_input.xlsx');
    const { verdicts } = await scoreTask({ task, datasetDir, outputPathFor: inputFor, mode });
    const score = officialScore(task, verdicts);
    nullScores.push(score);
    if (score.test_case_results.some((x) => x === 1))
      report.nullAgent.passing.push({ id: task.id, test_case_results: score.test_case_results });
    await answerChecks(datasetDir, task, mode, report);
  }
  report.nullAgent.summary = summarize(nullScores);
  return report;
}
