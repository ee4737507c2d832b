import { readFile, stat } from 'node:fs/promises';
import { readBatchStatuses } from '../../client/batchStatus';
import type { BatchStatusFile } from '../../lib/llm/batch/batchFiles';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import type { Client } from '@temporalio/client';
import { benchmarkNamed } from '../../benchmarks';
import {
  compareRunOutcomes,
  loadRunOutcomes,
  PairingError,
  RunOutcomesError,
  runMetrics,
  type RunOutcomes,
} from '../../benchmarks/report/comparison';
import type { RunSummary } from '../../benchmarks/report/runSummary';
import { TaskViewError, type TaskView } from '../../benchmarks/report/taskView';
import type { RunManifest } from '../../lib/runStore/manifest';
import { CorruptFileError, readJsonIfPresent } from '../../lib/json';
import { runSummarySchema } from '../../benchmarks/report/runSummarySchema';
import { RunLayout } from '../../lib/runStore/runLayout';
import { attemptKey } from '../../lib/runStore/taskRecord';
import type { AuthEnv } from '../auth/user';
import { FILE_CSP } from './conversations';
import { confinedFile, findRunFolder } from './runFolder';

export interface RunPagesDeps {
  /** The folder holding one folder per run (as the runs list). */
  runsDir?: string;
  /** The process's Temporal client: a run whose folder is elsewhere (`run --out DIR`) is found through its memo. */
  client?: Client;
  /** Where relative memo paths are joined (config `artifacts.root`). */
  artifactsRoot?: string;
  /** Temporal Web UI base (`http://host:port/namespaces/<ns>/workflows`) for links to task workflows. */
  uiUrl?: string;
}

/** Replies of the run pages' routes (the web app is type-checked against them: web/tsconfig.json). */
export type RunPageReply = Awaited<ReturnType<typeof runPage>> & {
  /** `run --batch`: each batch's id, status and answered/failed calls as its last poll saw them (read on every request). */
  batches: BatchStatusFile[];
};
/** `grids`: the benchmark draws a test case's grids (the page asks for them only then). */
export type TaskPageReply = TaskView & { grids: boolean; temporalUiUrl?: string };
export type { TestCaseGrid as GridReply } from '../../benchmarks/report/taskView';
export type { Comparison as CompareReply } from '../../benchmarks/report/comparison';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MAX_COMPARED = 8;

/**
 * What the run, task and comparison pages read, for every signed-in user (runs are shared): a run's metrics and task
 * table, one task's view, a test case's answer grid, an output workbook (a download that runs no script here), and a
 * comparison of runs. A run id names a folder of `runsDir` or the folder its run workflow records (`findRunFolder`:
 * only a folder holding that very run), task ids must be in the run's task list: nothing else is read.
 */
export function runPagesRoutes(deps: RunPagesDeps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const sources = {
    runsDir: path.resolve(deps.runsDir ?? 'runs'),
    client: deps.client,
    artifactsRoot: deps.artifactsRoot,
  };
  const runFolder = (id: string) => findRunFolder(sources, id);

  const pages = new PageCache();
  app.get('/api/runs/:id', async (c) => {
    const run = await runFolder(c.req.param('id'));
    if ('error' in run) return c.json({ error: run.error }, run.status);
    const version = await folderVersion(run.dir);
    const batches = await readBatchStatuses(run.dir);
    const cached = pages.get(run.dir, version);
    if (cached) return c.json({ ...cached, batches });
    const outcomes = await outcomesOf(run);
    if ('error' in outcomes) return c.json({ error: outcomes.error }, 404);
    let computed;
    try {
      computed = await runPage(run, outcomes, deps.uiUrl);
    } catch (err) {
      // A corrupt summary.json: said, naming the run and the file (not a bare "internal error").
      if (!(err instanceof CorruptFileError)) throw err;
      const file = path.relative(run.dir, err.file);
      return c.json({ error: `run ${run.manifest.runId}: ${file} cannot be read: ${err.reason}` }, 500);
    }
    const page = pages.put(run.dir, version, computed);
    return c.json({ ...(page as object), batches });
  });

  app.get('/api/runs/:id/tasks/:task', async (c) => {
    const run = await runFolder(c.req.param('id'));
    if ('error' in run) return c.json({ error: run.error }, run.status);
    const benchmark = benchmarkNamed(run.manifest.benchmark);
    const describe = benchmark.describeTask;
    if (!describe)
      return c.json(
        { error: `run ${run.manifest.runId}: task pages do not know ${run.manifest.benchmark} runs yet` },
        404,
      );
    const epoch = epochParam(c);
    if (epoch === null) return c.json({ error: 'epoch must be a whole number ≥ 1' }, 400);
    return viewOr404(c, async (): Promise<TaskPageReply> => {
      const view = await describe(run.dir, c.req.param('task'), { epoch });
      const workflowId = `${run.manifest.runId}/task/${view.attempt}`;
      return {
        ...view,
        // The page shows a test case's grids where the benchmark draws them.
        grids: benchmark.testCaseGrid !== undefined,
        ...(deps.uiUrl ? { temporalUiUrl: `${deps.uiUrl}/${encodeURIComponent(workflowId)}` } : {}),
      };
    });
  });

  app.get('/api/runs/:id/tasks/:task/cases/:n/grid', async (c) => {
    const run = await runFolder(c.req.param('id'));
    if ('error' in run) return c.json({ error: run.error }, run.status);
    const grid = benchmarkNamed(run.manifest.benchmark).testCaseGrid;
    if (!grid)
      return c.json(
        { error: `run ${run.manifest.runId} is a ${run.manifest.benchmark} run: it has no workbooks to show` },
        404,
      );
    const n = Number(c.req.param('n'));
    const epoch = epochParam(c);
    if (!Number.isInteger(n) || n < 1 || epoch === null)
      return c.json({ error: `bad test case ${c.req.param('n')} or epoch` }, 400);
    return viewOr404(c, () => grid(run.dir, c.req.param('task'), n, { epoch }));
  });

  app.get('/api/runs/:id/tasks/:task/cases/:n/output', async (c) => {
    const run = await runFolder(c.req.param('id'));
    if ('error' in run) return c.json({ error: run.error }, run.status);
    const { describeTask: describe, outputWorkbook } = benchmarkNamed(run.manifest.benchmark);
    const n = Number(c.req.param('n'));
    const epoch = epochParam(c);
    if (!describe || !outputWorkbook)
      return c.json({ error: `run ${run.manifest.runId} has no output workbooks` }, 404);
    if (!Number.isInteger(n) || n < 1 || epoch === null)
      return c.json({ error: `bad test case ${c.req.param('n')} or epoch` }, 400);
    let view: TaskView;
    try {
      view = await describe(run.dir, c.req.param('task'), { epoch });
    } catch (err) {
      if (err instanceof TaskViewError) return c.json({ error: err.message }, 404);
      throw err;
    }
    // A recorded task names its test cases: none beyond them is asked of the benchmark (SpreadsheetBench 2 has one).
    const known = view.testCases.length === 0 || view.testCases.some((t) => t.index === n);
    const file = known
      ? await confinedFile(run.dir, outputWorkbook(run, attemptKey(view.taskId, view.epoch), n))
      : undefined;
    if (!file)
      return c.json(
        { error: `task ${view.attempt} of run ${run.manifest.runId} has no output workbook for test case ${n}` },
        404,
      );
    // A workbook is a download: never rendered, never sniffed, and it runs nothing in the app's origin.
    return c.body(new Uint8Array(await readFile(file)), 200, {
      'content-type': XLSX,
      'content-disposition': `attachment; filename="${path.basename(file).replace(/["\\]/g, '_')}"`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': FILE_CSP,
      'cache-control': 'no-cache',
    });
  });

  app.get('/api/compare', async (c) => {
    const ids = (c.req.query('runs') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!ids.length || ids.length > MAX_COMPARED)
      return c.json({ error: `name 1 to ${MAX_COMPARED} runs: /api/compare?runs=a,b` }, 400);
    const outcomes: RunOutcomes[] = [];
    for (const id of ids) {
      const run = await runFolder(id);
      if ('error' in run) return c.json({ error: run.error }, run.status);
      const loaded = await outcomesOf(run);
      if ('error' in loaded) return c.json({ error: loaded.error }, 404);
      outcomes.push(loaded);
    }
    try {
      return c.json(compareRunOutcomes(outcomes));
    } catch (err) {
      if (err instanceof PairingError) return c.json({ error: err.message }, 409);
      throw err;
    }
  });

  return app;
}

/** The run page: the run's facts, metrics, scoring summary and task rows. */
async function runPage(run: { dir: string; manifest: RunManifest }, outcomes: RunOutcomes, uiUrl: string | undefined) {
  return {
    runId: run.manifest.runId,
    benchmark: run.manifest.benchmark,
    edition: run.manifest.edition,
    agent: run.manifest.agent,
    model: run.manifest.llm.model,
    scoringMode: run.manifest.scoringMode,
    createdAt: run.manifest.createdAt,
    metrics: runMetrics(outcomes),
    ...(await scoringSummary(run.dir, run.manifest, outcomes)),
    tasks: taskRows(outcomes),
    ...(uiUrl ? { temporalUiUrl: `${uiUrl}/${encodeURIComponent(run.manifest.runId)}` } : {}),
  };
}

/** A run's outcomes (its known-bad tasks set aside where the benchmark has any), or why they cannot be read. */
async function outcomesOf(run: { dir: string; manifest: RunManifest }): Promise<RunOutcomes | { error: string }> {
  try {
    return await loadRunOutcomes(run.dir, {
      exclude: benchmarkNamed(run.manifest.benchmark).knownBad?.(run.manifest.edition),
    });
  } catch (err) {
    if (err instanceof RunOutcomesError)
      return { error: err.message.replaceAll(run.dir, `runs/${run.manifest.runId}`) };
    throw err;
  }
}

/**
 * What a run page is computed from changes only when a result, the summary or run.json is (re)written, each by rename,
 * which changes its folder's or its own mtime: a page is computed once per such version (912 results take ~0.3 s).
 */
async function folderVersion(dir: string): Promise<string> {
  const mtimes = await Promise.all(
    [
      path.join(dir, 'results'),
      path.join(dir, 'summary.json'),
      path.join(dir, 'run.json'),
      path.join(dir, 'tasks.json'),
    ].map((f) =>
      stat(f).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  return mtimes.join('|');
}

/** The last few run pages computed, by folder and version. */
class PageCache {
  private readonly pages = new Map<string, { version: string; page: unknown }>();
  private static readonly SIZE = 16;

  get(dir: string, version: string): unknown {
    const hit = this.pages.get(dir);
    return hit?.version === version ? hit.page : undefined;
  }

  put<T>(dir: string, version: string, page: T): T {
    this.pages.delete(dir);
    this.pages.set(dir, { version, page });
    if (this.pages.size > PageCache.SIZE) this.pages.delete(this.pages.keys().next().value!);
    return page;
  }
}

function epochParam(c: Context): number | undefined | null {
  const raw = c.req.query('epoch');
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

async function viewOr404(c: Context, build: () => Promise<unknown>) {
  try {
    return c.json(await build());
  } catch (err) {
    if (err instanceof TaskViewError) return c.json({ error: err.message }, 404);
    throw err;
  }
}

/** The floor, unreachable test cases and the exclusion: from summary.json once the run is final, else from the cell diffs now. */
async function scoringSummary(
  dir: string,
  manifest: RunManifest,
  outcomes: RunOutcomes,
): Promise<
  Partial<Pick<RunSummary, 'floor' | 'unreachable' | 'excluded' | 'failureClasses' | 'topFailures' | 'figures'>>
> {
  const summary = await readJsonIfPresent(new RunLayout(dir).summaryPath, runSummarySchema); // corrupt: an error naming it
  if (summary && !outcomes.inProgress) {
    return {
      floor: summary.floor,
      unreachable: summary.unreachable,
      excluded: summary.excluded,
      failureClasses: summary.failureClasses,
      topFailures: summary.topFailures,
      figures: summary.figures,
    };
  }
  const scoringFacts = benchmarkNamed(manifest.benchmark).scoringFacts;
  if (!scoringFacts) return {};
  const facts = await scoringFacts(
    dir,
    outcomes.tasks.flatMap((t) => (t.attempts[0] ? [{ taskKey: t.key, key: t.attempts[0].key }] : [])),
  );
  return { floor: facts.floor, unreachable: facts.unreachable };
}

/** One row per task: its verdict over its attempts, failure class, type, scores and cost. */
function taskRows(outcomes: RunOutcomes) {
  return outcomes.tasks.map((t) => {
    const n = t.attempts.length;
    const mean = (f: (a: (typeof t.attempts)[number]) => number) =>
      n ? t.attempts.reduce((s, a) => s + f(a), 0) / n : 0;
    const soft = mean((a) => a.soft);
    const hard = mean((a) => a.hard);
    const failureClass = t.attempts.find((a) => a.failureClass)?.failureClass;
    const verdict = !n ? 'pending' : hard === 1 ? 'pass' : soft > 0 ? 'partial' : 'fail';
    return {
      id: t.key,
      group: t.group,
      verdict,
      ...(failureClass ? { failureClass } : {}),
      attempts: n,
      passes: t.attempts.filter((a) => a.hard === 1).length,
      soft,
      hard,
      costUsd: t.attempts.reduce((s, a) => s + a.costUsd, 0),
    };
  });
}
