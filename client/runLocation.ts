import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { ArtifactsRootError, fromPayloadPath } from '../lib/runStore/artifactsRoot';
import { namesInFolder } from '../lib/runStore/files';
import { readManifest, type RunManifest } from '../lib/runStore/manifest';

/**
 * The one home of "where is run X's folder", for the CLI (`status`, `show`, `report`, `compare`, `resume`, `rerun`),
 * the web server's run, task, report and comparison routes, and the runs list: a folder of the runs directory, or the
 * folder the run's own workflow records in its memo (a run made with `run --out DIR` elsewhere).
 */
export interface RunLookup {
  /** The folder holding one folder per run (`runs/`). */
  runsDir: string;
  /** Temporal, for runs whose folder is elsewhere: a client, or a function connecting one when first needed. */
  temporal?: Client | (() => Promise<Client>);
  /** Where relative memo paths are joined (config `artifacts.root`). */
  artifactsRoot?: string;
  /**
   * Which folder is taken when both hold the run: `folder` (the runs directory first: readers, no Temporal call when it
   * holds the run) or `workflow` (the folder the run's workflow records first: commands that drive that workflow).
   */
  prefer?: 'folder' | 'workflow';
}

export interface LocatedRun {
  dir: string;
  manifest: RunManifest;
}

export interface RunNotLocated {
  /**
   * `bad-id`: the id is a path or `..`; `unknown`: no folder and no run workflow holds it; `not-this-run`: the folder
   * found holds no run, another run or another experiment; `outside-root`: the workflow's folder is not on this host
   * (relative without an artifacts root, or leaving it); `unreachable`: Temporal did not answer; `refused`: Temporal
   * answered with an error.
   */
  kind: 'bad-id' | 'unknown' | 'not-this-run' | 'outside-root' | 'unreachable' | 'refused';
  /** What may be shown to anyone who may see runs (no path of this host, no Temporal detail). */
  message: string;
  /** The detail for the operator (the CLI prints it): the folder, the artifacts root's or Temporal's error. */
  cause?: string;
}

export type RunLocation = LocatedRun | RunNotLocated;

/** What Temporal records about where a run is: the folder its run workflow's memo names, and the experiment's hash. */
export interface RecordedRun {
  /** As the memo carries it: relative to the artifacts root (with `/`), or absolute. */
  runDir: string;
  experimentHash?: string;
}

/** Ids Temporal is asked about: what `run --run-id` and generated ids look like (no separators, no controls). */
const PLAUSIBLE_RUN_ID = /^[\w.@:+=-]{1,200}$/;
const TEMPORAL_DEADLINE_MS = 5000;

/**
 * Run `id`'s folder. A folder is taken only when it is this run's: its `run.json` is a regular file (no link) naming
 * this run id (and, for a workflow's folder, the experiment its memo records). Looked at: `runsDir/<id>`, the folder
 * the run's own workflow (a `benchmarkRun` whose id and `BenchRunId` are the run id) records, then any folder of
 * `runsDir` whose run.json names the id (the runs list shows those: `run --out runs/another-name`). With `prefer:
 * 'workflow'` Temporal is asked first, and when it knows the run its answer stands.
 */
export async function locateRun(lookup: RunLookup, id: string): Promise<RunLocation> {
  const runsDir = path.resolve(lookup.runsDir);
  if (!id || id === '.' || id === '..' || path.dirname(path.join(runsDir, id)) !== runsDir)
    return { kind: 'bad-id', message: `bad run id ${JSON.stringify(id)}` };
  // Commands that drive the workflow: when Temporal knows the run, its answer stands (found or why not).
  const workflowFirst = lookup.prefer === 'workflow' ? await fromWorkflow(lookup, id) : undefined;
  if (workflowFirst && (located(workflowFirst) || workflowFirst.kind !== 'unknown')) return workflowFirst;
  const inFolder = await inRunsDir(runsDir, id);
  if (located(inFolder)) return inFolder;
  const recorded = workflowFirst ?? (await fromWorkflow(lookup, id));
  if (located(recorded)) return recorded;
  return (await listedFolder(runsDir, id)) ?? mostTelling([inFolder, recorded]);
}

export function located<T extends object>(r: LocatedRun | T): r is LocatedRun {
  return 'dir' in r;
}

/** The folder a run workflow's memo names (`wf.memo` of a listing, or of a description), when it names one. */
export function recordedIn(memo: Record<string, unknown> | undefined): RecordedRun | undefined {
  const { runDir, experimentHash } = (memo ?? {}) as { runDir?: unknown; experimentHash?: unknown };
  if (typeof runDir !== 'string') return undefined;
  return { runDir, ...(typeof experimentHash === 'string' ? { experimentHash } : {}) };
}

/** The folder a run workflow records, on this host, when it holds that run (the runs list and `locateRun`). */
export async function recordedFolder(
  recorded: RecordedRun,
  id: string,
  artifactsRoot: string | undefined,
): Promise<RunLocation> {
  const refuse = (kind: RunNotLocated['kind'], why: string, cause?: string): RunNotLocated => ({
    kind,
    message: `no run ${id}: the folder its workflow names ${why}`,
    ...(cause ? { cause } : {}),
  });
  let dir: string;
  try {
    dir = path.resolve(fromPayloadPath(recorded.runDir, artifactsRoot));
  } catch (err) {
    if (!(err instanceof ArtifactsRootError)) throw err;
    return refuse('outside-root', 'is not a folder of this host', err.message);
  }
  const checked = await checkFolder(dir, id, recorded.experimentHash);
  if (located(checked)) return checked;
  return refuse('not-this-run', checked.why, `${dir}${checked.detail ? `: ${checked.detail}` : ''}`);
}

/** `runsDir/<id>` when it holds run `id`; a folder there without a run.json is no run (`unknown`). */
async function inRunsDir(runsDir: string, id: string): Promise<RunLocation> {
  const dir = path.join(runsDir, id);
  const checked = await checkFolder(dir, id, undefined);
  if (located(checked)) return checked;
  if (checked.absent) return { kind: 'unknown', message: `no run ${id}` };
  const detail = checked.detail?.replaceAll(dir, `runs/${id}`);
  return { kind: 'not-this-run', message: `no run ${id}: runs/${id} ${checked.why}${detail ? ` (${detail})` : ''}` };
}

type FolderCheck = LocatedRun | { why: string; absent: boolean; detail?: string };

/** dir when its run.json is a regular file (no link) naming run `id` (and experimentHash when given), else why not. */
async function checkFolder(dir: string, id: string, experimentHash: string | undefined): Promise<FolderCheck> {
  const runJson = await runJsonOf(dir);
  if (!runJson?.isFile()) return { why: 'holds no run', absent: runJson === undefined };
  let manifest: RunManifest;
  try {
    manifest = await readManifest(dir);
  } catch (err) {
    return { why: 'holds no readable run', absent: false, detail: (err as Error).message };
  }
  if (manifest.runId !== id) return { why: 'holds another run', absent: false, detail: `run ${manifest.runId}` };
  if (experimentHash !== undefined && manifest.experimentHash !== experimentHash)
    return { why: "holds another experiment than the workflow's", absent: false };
  return { dir, manifest };
}

/** Whether dir holds a run: its run.json is a regular file (a link to one, planted to serve another file, is none). */
export async function holdsRunJson(dir: string): Promise<boolean> {
  return (await runJsonOf(dir))?.isFile() ?? false;
}

async function runJsonOf(dir: string) {
  return lstat(path.join(dir, 'run.json')).catch(() => undefined); // none (or unreadable): no run here
}

/** The folder run `id`'s own workflow records, checked; `unknown` when Temporal has no such run (or is not asked). */
async function fromWorkflow(lookup: RunLookup, id: string): Promise<RunLocation> {
  if (!lookup.temporal || !PLAUSIBLE_RUN_ID.test(id)) return { kind: 'unknown', message: `no run ${id}` };
  // Connecting is the caller's (a CLI that cannot start its Temporal server says why itself): not caught here.
  const client = typeof lookup.temporal === 'function' ? await lookup.temporal() : lookup.temporal;
  let recorded: RecordedRun | undefined;
  try {
    recorded = await client.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () => recordedRun(client, id));
  } catch (err) {
    const cause = (err as Error).message;
    if (unreachable(err))
      return { kind: 'unreachable', message: `run ${id}: Temporal did not answer (${cause})`, cause };
    return { kind: 'refused', message: `no run ${id}`, cause };
  }
  if (!recorded) return { kind: 'unknown', message: `no run ${id}` };
  return recordedFolder(recorded, id, lookup.artifactsRoot);
}

/**
 * The memo of run `runId`'s own workflow (a `benchmarkRun` whose id and `BenchRunId` are the run id), or undefined when
 * Temporal has no such run or its memo names no folder. Other errors (Temporal unreachable) are thrown.
 */
async function recordedRun(client: Client, runId: string): Promise<RecordedRun | undefined> {
  // Loaded only here: the Temporal modules are most of the start-up CPU of show, compare and report, which mostly
  // name a run folder or a run under runs/ (this module is on their path).
  const [{ WorkflowNotFoundError }, { SA }] = await Promise.all([
    import('@temporalio/client'),
    import('../lib/temporal/searchAttributes'),
  ]);
  let description;
  try {
    description = await client.workflow.getHandle(runId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
  if (description.type !== 'benchmarkRun' || description.typedSearchAttributes.get(SA.runId) !== runId)
    return undefined;
  return recordedIn(description.memo);
}

/**
 * A folder of runsDir (not named after the id) whose run.json names run `id`: the runs list shows every run.json of
 * runsDir by the id it names, so its pages find them too. The first by name when several do.
 */
async function listedFolder(runsDir: string, id: string): Promise<LocatedRun | undefined> {
  if (!PLAUSIBLE_RUN_ID.test(id)) return undefined;
  for (const name of (await namesInFolder(runsDir)).sort()) {
    if (name === id) continue;
    const checked = await checkFolder(path.join(runsDir, name), id, undefined);
    if (located(checked)) return checked;
  }
  return undefined;
}

/** Of the reasons each place gave, the one that says most: a folder that is not this run's, else Temporal's silence. */
function mostTelling(reasons: RunLocation[]): RunNotLocated {
  const order: RunNotLocated['kind'][] = ['not-this-run', 'outside-root', 'unreachable', 'refused', 'unknown'];
  const notLocated = reasons.filter((r): r is RunNotLocated => !located(r));
  return notLocated.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))[0];
}

/** gRPC's UNAVAILABLE (14) or DEADLINE_EXCEEDED (4): Temporal did not answer, as opposed to refusing the question. */
function unreachable(err: unknown): boolean {
  const codeOf = (e: unknown) => (e as { code?: unknown } | undefined)?.code;
  const code = codeOf(err) ?? codeOf((err as { cause?: unknown } | undefined)?.cause);
  return code === 14 || code === 4;
}
