import {
  buildInspectEvalLog,
  inspectSample,
  manifestSpec,
  modelUsage,
  stderrOfMean,
  writeInspectEvalLog,
} from '../report/inspectEvalLog';
import { mean } from '../report/stats';
import { ORIGINAL_SYSTEM_PROMPT } from './prompt';
import { dsbenchMetrics } from './metrics';
import type { LoadedDsbenchRun, LoadedQuestion } from './loadRun';
import type { DsbenchQuestionResult } from './result';

export const DSBENCH_TASK_NAME = 'DSBench';
export const DSBENCH_SCORER = 'dsbench_judge';

/**
 * A DSBench run as an Inspect eval log (`.json`, schema version 2) in the shape the Inspect/vitals port writes: one
 * sample per question (`<competition>_<questionN>`), competition id in metadata, the judge's verdict as C/I.
 */
export async function writeDsbenchInspectLog(run: LoadedDsbenchRun, logsDir: string): Promise<string> {
  return writeInspectEvalLog(buildDsbenchEvalLog(run), logsDir);
}

export function buildDsbenchEvalLog(run: LoadedDsbenchRun) {
  const m = run.manifest;
  const fromManifest = manifestSpec(m, run.lastResultAt);
  const finished = run.questions.filter(
    (q): q is LoadedQuestion & { result: DsbenchQuestionResult } => q.result !== undefined,
  );
  const values = finished.map((q) => (q.result.verdict === 'correct' ? 1 : 0));
  const metrics = dsbenchMetrics(
    run.questions.map((q) => q.question),
    finished.map((q) => q.result),
  );
  return buildInspectEvalLog({
    ...fromManifest,
    taskName: DSBENCH_TASK_NAME,
    taskArgs: { setting: m.agent },
    dataset: {
      name: 'DSBench data analysis',
      location: m.datasetDir,
      samples: run.questions.length,
      sample_ids: run.questions.map((q) => q.question.id),
      shuffled: false,
    },
    generateConfig: { temperature: 0, max_tokens: 2256, top_p: 1 },
    packages: {},
    metadata: { run_id: m.runId, setting: m.agent, experiment_hash: m.experimentHash, ...(m.benchmarkSettings ?? {}) },
    scorer: { name: DSBENCH_SCORER, options: {}, metrics: ['accuracy', 'stderr'] },
    metrics: {
      accuracy: mean(values),
      competition_accuracy: metrics.competitionAccuracy,
      stderr: stderrOfMean(values),
    },
    usage: modelUsage(finished.map((q) => q.result)),
    samples: finished.map((q) => sample(q, fromManifest.model)),
  });
}

function sample(q: LoadedQuestion & { result: DsbenchQuestionResult }, model: string) {
  const r = q.result;
  const id = q.question.id;
  const predicted = r.predicted ?? '';
  const messages = [
    { id: `${id}-m1`, content: ORIGINAL_SYSTEM_PROMPT, role: 'system' },
    { id: `${id}-m2`, content: q.prompt ?? q.input, source: 'input', role: 'user' },
    ...(r.predicted !== undefined
      ? [{ id: `${id}-m3`, content: predicted, source: 'generate', role: 'assistant', model }]
      : []),
  ];
  const competition = { competition_id: q.question.competitionId };
  return inspectSample({
    id,
    input: q.input,
    target: q.question.answer,
    messages,
    reply: r.predicted !== undefined ? messages[2] : undefined,
    completion: predicted,
    model,
    result: r,
    scorer: DSBENCH_SCORER,
    score: {
      value: r.verdict === 'correct' ? 'C' : 'I',
      answer: predicted,
      explanation: r.failure ? `${r.failure.class}: ${r.failure.message}` : (r.judgeReply ?? ''),
      metadata: {
        ...competition,
        verdict: r.verdict ?? 'not judged',
        judge_model: r.judgeModel ?? null,
        ...(r.exactMatch !== undefined ? { exact_letter_match: r.exactMatch } : {}),
      },
    },
    metadata: {
      ...competition,
      name: q.question.competitionName,
      url: q.question.url,
      txt: '',
      year: q.question.year ?? null,
      question: q.question.question,
      answer_type: q.question.answerType,
      ...(r.truncated !== undefined ? { truncated: r.truncated } : {}),
      ...(r.failure ? { failure_class: r.failure.class, failure_message: r.failure.message } : {}),
      llm_calls: r.llmCalls,
      cost_usd: r.costUsd,
    },
  });
}
