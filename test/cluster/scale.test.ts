import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered, duplicatesAnsweredApartFromKills, type RequestLogEntry } from '../../lib/scriptedLlm';
import type { RunProgress } from '../../contracts/run';
import { onCluster, CLUSTER_SKIP_REASON, restartClusterServer } from '../helpers/cluster';
import { intervalOf, maxOverlap, maxStartsPerWindow } from '../helpers/requestIntervals';
import { copyInputReply } from '../helpers/copyInput';
import { startBenchmarkRun, startE2E, workerProcessEnv, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { killGroups, sofficeGroupsOf } from '../helpers/orphanedSoffice';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, workerKillTimes, type WorkerProcess } from '../helpers/workerProcess';

/**
 * One run served by three worker processes that share nothing but the Temporal server and the run folder: each has its
 * own config, its own per-host rate-limit folder, and sees the artifact store under its own path (a symlinked root,
 * as an NFS or SMB mount would be). Mid-run one worker is killed with -9 and the server process is killed and started
 * again. Opt-in: on scripts/cluster.sh's PostgreSQL-backed server with SHEETBENCH_CLUSTER=1, or on a dev server with
 * SHEETBENCH_SCALE_ON_DEV=1 (the same run, for the wall-time comparison).
 */
const onDev = process.env.SHEETBENCH_SCALE_ON_DEV === '1';
/** All of dev20: the three with real solutions, the rest answered by copying the input (they score 0 but finish). */
const TASKS = [
  '57105',
  '57232',
  '18645',
  '39604',
  '17251',
  '50066',
  '59259',
  '38985',
  '54057',
  '50811',
  '230-16',
  '79-7',
  '212-20',
  '325-44',
  '290-27',
  'CF_8276',
  '208-20',
  '156-8',
  '416-15',
  '599-9',
];
const WORKERS = 3;
/** The cross-host limit for this provider, across every worker (held by Temporal: llm.sharedLimits). */
const LIMITS = { maxConcurrent: 2, requestsPerMinute: 8, windowMs: 10_000 };
const FIGURES_FILE = path.resolve(
  import.meta.dirname,
  `../../bench/out/scale-figures-${onCluster ? 'cluster' : 'dev'}.json`,
);

describe.skipIf(!onCluster && !onDev)(
  `scale: three workers, kill -9 and a server restart mid-run${onCluster || onDev ? '' : ` (skipped: ${CLUSTER_SKIP_REASON})`}`,
  () => {
    let env: E2EEnv;
    let run: StartedRun;
    let final: RunProgress;
    const workers: WorkerProcess[] = [];
    let log: RequestLogEntry[] = [];
    let wallMs = 0;
    let serverRestartMs = 0;
    /** The pids of the three workers the run started with (worker identities are `pid@host`). */
    let firstPids: number[] = [];

    beforeAll(async () => {
      const started = Date.now();
      const base = mkdtempSync(path.join(os.tmpdir(), 'sb-scale-'));
      const store = path.join(base, 'store');
      mkdirSync(store);
      // Each host mounts the store at its own place.
      const roots = ['client', ...Array.from({ length: WORKERS }, (_, i) => `host-${i}`)].map((name) => {
        const root = path.join(base, name);
        symlinkSync(store, root);
        return root;
      });
      env = await startE2E(
        { rules: Object.values(DEV20_SOLUTIONS), fallback: copyInputReply, latencyMs: 600 },
        {
          // Restarted mid-run: a server of its own.
          devServer: { own: true },
          config: { run: { concurrency: 6 }, llm: { sharedLimits: LIMITS }, artifacts: { root: roots[0] } },
        },
      );
      run = await startBenchmarkRun(env, { dataset: DEV20, tasks: TASKS, runDir: path.join(roots[0], 'run') });
      const hostEnv = (i: number) => {
        const hostConfig = {
          ...env.config,
          llm: { ...env.config.llm, rateLimitDir: mkdtempSync(path.join(os.tmpdir(), `sb-scale-rl${i}-`)) },
          artifacts: { root: roots[i + 1] },
        };
        return workerProcessEnv({ ...env, config: hostConfig });
      };
      const startWorker = async (i: number) => {
        workers[i] = spawnWorker(hostEnv(i));
        // Each worker's own output, for a failing run's post-mortem.
        const out = createWriteStream(path.join(base, `worker-${i}.log`), { flags: 'a' });
        workers[i].child.stdout!.pipe(out);
        workers[i].child.stderr!.pipe(out);
        await workers[i].ready;
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, i) => startWorker(i)));
      firstPids = workers.map((w) => w.child.pid!);

      const answered = () => env.llm.log.filter((e) => e.answered).length;
      console.log(`scale: run folder ${store}/run, worker logs ${base}/worker-*.log`);
      await waitUntil(
        () => answered() >= Math.floor(TASKS.length / 4),
        300_000,
        `a quarter of the LLM calls (worker logs: ${base})`,
      );
      const victim = workers[1];
      const orphans = sofficeGroupsOf(victim.child.pid!);
      victim.crash();
      killGroups(orphans);
      await victim.exited;

      await waitUntil(() => answered() >= Math.floor(TASKS.length / 2), 300_000, 'half of the LLM calls');
      const t0 = Date.now();
      // The cluster's server process is killed outright; the dev server is stopped and started (its helper's restart).
      if (onCluster) await restartClusterServer(true);
      else await env.temporal.restart();
      serverRestartMs = Date.now() - t0;
      await startWorker(1);

      final = (await run.handle.result()) as RunProgress;
      wallMs = Date.now() - started;
      log = env.llm.log;
      const f = await figures();
      mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
      writeFileSync(FIGURES_FILE, `${JSON.stringify(f, null, 2)}\n`);
      console.log(`scale figures: ${JSON.stringify(f, null, 2)}`);
    }, 900_000);

    afterAll(async () => {
      for (const w of workers) if (w) killGroups([...sofficeGroupsOf(w.child.pid!), w.child.pid!]);
      await env?.close();
    });

    /** Workers that completed workflow or activity tasks of this run (an attempt cut by a kill leaves no identity). */
    async function servingIdentities(): Promise<Set<string>> {
      const identities = new Set<string>();
      for await (const wf of env.client.workflow.list({ query: `BenchRunId = '${run.runId}'` })) {
        const history = await env.client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
        for (const e of history.events ?? []) {
          const identity =
            e.workflowTaskCompletedEventAttributes?.identity ?? e.activityTaskStartedEventAttributes?.identity;
          if (identity) identities.add(identity);
        }
      }
      return identities;
    }

    async function runDirInPayload(): Promise<string> {
      const history = await run.handle.fetchHistory();
      const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
      return (JSON.parse(Buffer.from(payload?.data ?? []).toString('utf8')) as { runDir: string }).runDir;
    }

    async function figures() {
      return {
        server: onCluster ? 'cluster (PostgreSQL)' : 'dev server (SQLite)',
        tasks: TASKS.length,
        workers: WORKERS,
        workerKills: 1,
        serverRestarts: 1,
        serverRestart: onCluster ? 'kill -9 of the server process, then start' : 'SIGTERM, then start',
        serverRestartMs,
        workerIdentitiesThatServedTheRun: (await servingIdentities()).size,
        runDirInPayload: await runDirInPayload(),
        requestsReceived: log.length,
        requestsAnswered: log.filter((e) => e.answered).length,
        duplicatesAnswered: duplicatesAnswered(log).length,
        configured: LIMITS,
        observedMaxConcurrent: maxOverlap(log.map(intervalOf)),
        observedMaxStartsPerWindow: maxStartsPerWindow(
          log.map((e) => intervalOf(e).start),
          LIMITS.windowMs,
        ),
        done: final.done,
        failed: final.failed,
        wallMs,
      };
    }

    it('finished every task exactly once', () => {
      expect(final.done + final.failed).toBe(TASKS.length);
      expect(final.failed).toBe(0);
      expect(readdirSync(path.join(run.runDir, 'results')).sort()).toEqual(TASKS.map((t) => `${t}.json`).sort());
    });

    it('was served by each of the three worker processes (the restarted one may find no work left)', async () => {
      const pids = [...(await servingIdentities())].map((identity) => Number(identity.split('@')[0]));
      expect(pids).toEqual(expect.arrayContaining(firstPids));
    });

    it('passed the run folder relative to the artifacts root, so each worker resolved it under its own mount', async () => {
      expect(path.isAbsolute(await runDirInPayload())).toBe(false);
    });

    it('answered no LLM request twice', () => {
      expect(duplicatesAnsweredApartFromKills(log, workerKillTimes())).toEqual([]);
    });

    it('never exceeded the cross-host limits (scripted server log: every request, cut or answered)', () => {
      expect(maxOverlap(log.map(intervalOf))).toBeLessThanOrEqual(LIMITS.maxConcurrent);
      expect(
        maxStartsPerWindow(
          log.map((e) => intervalOf(e).start),
          LIMITS.windowMs,
        ),
      ).toBeLessThanOrEqual(LIMITS.requestsPerMinute);
    });
  },
);
