import type { RunSummary, ScoreLine } from '../report/runSummary';
import type { RunManifest } from '../../lib/runStore/manifest';
import type { DsbenchQuestion } from './dataset';
import type { DsbenchQuestionResult } from './result';
import { TokenUsage } from '../../lib/llm/usage';

export interface CompetitionLine {
  competitionId: string;
  name: string;
  questions: number;
  correct: number;
  accuracy: number;
}

export interface DsbenchMetrics {
  /** Correct / all questions of the run (unanswered and failed questions count as wrong, as in show_result.py). */
  accuracy: number;
  /** Mean of the per-competition accuracies. */
  competitionAccuracy: number;
  questions: number;
  correct: number;
  unparseableJudgments: number;
  byCompetition: CompetitionLine[];
  byAnswerType: Record<string, { questions: number; correct: number; accuracy: number }>;
  /** Multiple-choice questions: how often the judge agrees with an exact letter match (a check on the judge). */
  judgeVsExactLetter: { questions: number; agree: number; agreement: number | null };
  costUsd: number;
  /** Sum of the questions' wall times (s), as the original sums per-call times. */
  timeSeconds: number;
}

/** The run's summary: the shared RunSummary fields (soft = hard = accuracy) plus DSBench's own metrics. */
export interface DsbenchSummary extends RunSummary {
  benchmark: 'dsbench';
  dsbench: DsbenchMetrics;
}

export function dsbenchMetrics(questions: DsbenchQuestion[], results: DsbenchQuestionResult[]): DsbenchMetrics {
  const byId = new Map(results.map((r) => [r.taskId, r]));
  const correct = (q: DsbenchQuestion) => (byId.get(q.id)?.verdict === 'correct' ? 1 : 0);
  const comps = new Map<string, CompetitionLine>();
  const types: DsbenchMetrics['byAnswerType'] = {};
  for (const q of questions) {
    const line = comps.get(q.competitionId) ?? {
      competitionId: q.competitionId,
      name: q.competitionName,
      questions: 0,
      correct: 0,
      accuracy: 0,
    };
    line.questions++;
    line.correct += correct(q);
    comps.set(q.competitionId, line);
    const t = (types[q.answerType] ??= { questions: 0, correct: 0, accuracy: 0 });
    t.questions++;
    t.correct += correct(q);
  }
  for (const line of [...comps.values(), ...Object.values(types)]) line.accuracy = line.correct / line.questions;
  const choice = results.filter(
    (r) =>
      r.answerType === 'choice' && r.exactMatch !== undefined && (r.verdict === 'correct' || r.verdict === 'incorrect'),
  );
  const agree = choice.filter((r) => (r.verdict === 'correct') === r.exactMatch).length;
  const byCompetition = [...comps.values()];
  const total = questions.reduce((s, q) => s + correct(q), 0);
  return {
    accuracy: questions.length ? total / questions.length : 0,
    competitionAccuracy: byCompetition.length
      ? byCompetition.reduce((s, c) => s + c.accuracy, 0) / byCompetition.length
      : 0,
    questions: questions.length,
    correct: total,
    unparseableJudgments: results.filter((r) => r.verdict === 'unparseable').length,
    byCompetition,
    byAnswerType: types,
    judgeVsExactLetter: { questions: choice.length, agree, agreement: choice.length ? agree / choice.length : null },
    costUsd: results.reduce((s, r) => s + r.costUsd, 0),
    timeSeconds: results.reduce((s, r) => s + r.wallMs, 0) / 1000,
  };
}

export function summarizeDsbenchRun(
  manifest: RunManifest,
  questions: DsbenchQuestion[],
  results: DsbenchQuestionResult[],
): DsbenchSummary {
  const metrics = dsbenchMetrics(questions, results);
  const line = (tasks: number, accuracy: number): ScoreLine => ({ tasks, soft: accuracy, hard: accuracy });
  const failureClasses: Record<string, number> = {};
  for (const r of results) if (r.failure) failureClasses[r.failure.class] = (failureClasses[r.failure.class] ?? 0) + 1;
  return {
    benchmark: 'dsbench',
    runId: manifest.runId,
    agent: manifest.agent,
    model: manifest.llm.model,
    tasks: questions.length,
    scored: results.length,
    failed: results.filter((r) => r.failure).length,
    overall: line(questions.length, metrics.accuracy),
    byType: Object.fromEntries(
      Object.entries(metrics.byAnswerType).map(([t, v]) => [t, line(v.questions, v.accuracy)]),
    ),
    llmCalls: results.reduce((s, r) => s + r.llmCalls, 0),
    usage: results.reduce((s, r) => TokenUsage.add(s, r.usage), TokenUsage.zero()),
    costUsd: metrics.costUsd,
    failureClasses,
    dsbench: metrics,
  };
}
