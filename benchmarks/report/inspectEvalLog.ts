import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { evalIdentity, evalLogFileName, evalStats, parseIsoAsUtc, utcIso } from './inspectIds';
import { mean, sum } from './stats';
import type { RunManifest } from '../../lib/runStore/manifest';

/**
 * The Inspect AI eval log envelope (`.json`, LOG_SCHEMA_VERSION 2) every benchmark's log shares: the eval spec, the
 * plan, the scorer's results, the stats, then the samples, each benchmark supplying its own spec fields, metrics
 * and samples. Key order matters (Inspect's header reader stops at `samples`) and every number must be finite (see
 * docs/inspect-logs-and-dsbench.md §2).
 */
export interface EvalLogSpec {
  runId: string;
  /** The run manifest's creation time (ISO; one without an offset is UTC). */
  createdAt: string;
  /** When the last result was written; the log is complete only when every sample is there. */
  lastResultAt?: Date;
  taskName: string;
  taskArgs: Record<string, unknown>;
  solver: string;
  dataset: { name: string; location?: string; samples: number; sample_ids: string[]; shuffled: boolean };
  /** Attempts per sample (a run with repeats); the log is complete with samples × epochs scored samples. */
  epochs?: number;
  model: string;
  generateConfig: Record<string, number>;
  packages: Record<string, string>;
  metadata: Record<string, unknown>;
  scorer: { name: string; options: Record<string, unknown>; metrics: string[] };
  /** The scorer's metric values over the finished samples. */
  metrics: Record<string, number>;
  usage: ModelUsage;
  samples: unknown[];
}

export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  total_cost: number;
}

export function buildInspectEvalLog(spec: EvalLogSpec) {
  const created = utcIso(parseIsoAsUtc(spec.createdAt));
  const finished = spec.samples.length;
  const epochs = spec.epochs ?? 1;
  const complete = finished === spec.dataset.samples * epochs;
  const { name: scorer } = spec.scorer;
  return {
    version: 2,
    status: complete ? 'success' : 'started',
    eval: {
      ...evalIdentity(spec.runId, spec.taskName, created),
      task_args: spec.taskArgs,
      task_args_passed: {},
      solver: spec.solver,
      dataset: spec.dataset,
      model: spec.model,
      model_generate_config: spec.generateConfig,
      model_args: {},
      config: { epochs },
      packages: spec.packages,
      metadata: spec.metadata,
      scorers: [
        {
          name: scorer,
          options: spec.scorer.options,
          metrics: spec.scorer.metrics.map((name) => ({ name, options: {} })),
          metadata: {},
        },
      ],
    },
    plan: { name: 'plan', steps: [{ solver: spec.solver, params: {}, params_passed: {} }], config: {} },
    ...(finished > 0
      ? {
          results: {
            total_samples: spec.dataset.samples * epochs,
            completed_samples: finished,
            scores: [
              {
                name: scorer,
                scorer,
                scored_samples: finished,
                unscored_samples: 0,
                params: {},
                metrics: Object.fromEntries(
                  Object.entries(spec.metrics).map(([name, value]) => [name, { name, value, params: {} }]),
                ),
              },
            ],
          },
        }
      : {}),
    ...evalStats(created, complete && spec.lastResultAt ? utcIso(spec.lastResultAt) : '', { [spec.model]: spec.usage }),
    samples: spec.samples,
  };
}

export type InspectEvalLog = ReturnType<typeof buildInspectEvalLog>;

/** Writes the log into `logsDir` under the name `inspect view` lists; returns its path. */
export async function writeInspectEvalLog(log: InspectEvalLog, logsDir: string): Promise<string> {
  await mkdir(logsDir, { recursive: true });
  const file = path.join(logsDir, evalLogFileName(parseIsoAsUtc(log.eval.created), log.eval.task, log.eval.task_id));
  await writeFile(file, `${JSON.stringify(log, finiteOnly, 2)}\n`);
  return file;
}

/** The spec fields every run's log takes from its manifest. */
export function manifestSpec(
  m: RunManifest,
  lastResultAt: Date | undefined,
): Pick<EvalLogSpec, 'runId' | 'createdAt' | 'lastResultAt' | 'solver' | 'model'> {
  return {
    runId: m.runId,
    createdAt: m.createdAt,
    lastResultAt,
    solver: m.agent,
    model: inspectModelName(m.llm.model, m.llm.provider),
  };
}

/** What a benchmark decides about one Inspect sample; `inspectSample` fills the fields every benchmark fills alike. */
export interface SampleSpec<M> {
  id: string;
  input: string;
  target: unknown;
  messages: M[];
  /** The assistant message that is the sample's output, if the model replied. */
  reply: M | undefined;
  completion: string;
  model: string;
  result: { usage: { inputTokens: number; outputTokens: number }; costUsd: number; wallMs: number };
  scorer: string;
  score: { value: unknown; answer: string; explanation: string; metadata: Record<string, unknown> };
  metadata: Record<string, unknown>;
  /** Which attempt of the sample (runs with repeats; default 1). */
  epoch?: number;
}

/** One sample of an eval log (one attempt: epoch 1 unless the run repeats; usage and time from its own result). */
export function inspectSample<M>(s: SampleSpec<M>) {
  const usage = modelUsage([s.result]);
  const seconds = s.result.wallMs / 1000;
  return {
    id: s.id,
    epoch: s.epoch ?? 1,
    input: s.input,
    target: s.target,
    messages: s.messages,
    output: {
      model: s.model,
      choices: s.reply ? [{ message: s.reply, stop_reason: 'stop' }] : [],
      completion: s.completion,
      usage,
      time: seconds,
    },
    scores: { [s.scorer]: { ...s.score, history: [] } },
    metadata: s.metadata,
    store: {},
    events: [],
    model_usage: { [s.model]: usage },
    role_usage: {},
    total_time: seconds,
    working_time: seconds,
    attachments: {},
  };
}

/** Inspect names models `provider/model`. */
export function inspectModelName(model: string, provider: string): string {
  if (model.includes('/')) return model;
  return `${provider}/${model}`;
}

/** Sample standard error of the mean (ddof 1), 0 for fewer than two values, as Inspect's `stderr()`. */
export function stderrOfMean(values: number[]): number {
  if (values.length < 2) return 0;
  const mu = mean(values);
  const variance = sum(values.map((v) => (v - mu) ** 2)) / (values.length - 1);
  return Math.sqrt(variance / values.length);
}

/** Tokens and cost of the finished samples, as Inspect's `model_usage` entry. */
export function modelUsage(
  results: { usage: { inputTokens: number; outputTokens: number }; costUsd: number }[],
): ModelUsage {
  const input = sum(results.map((r) => r.usage.inputTokens));
  const output = sum(results.map((r) => r.usage.outputTokens));
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    total_cost: sum(results.map((r) => r.costUsd)),
  };
}

/** JSON replacer: Inspect rejects null metric/score values, which is what NaN/Infinity would become. */
function finiteOnly(key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error(`non-finite number in Inspect log (${key})`);
  return value;
}
