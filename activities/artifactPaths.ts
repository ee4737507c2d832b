import { access } from 'node:fs/promises';
import os from 'node:os';
import { ApplicationFailure, activityInfo, heartbeat, log, sleep } from '@temporalio/activity';
import { ArtifactsRootError, fromPayloadPath, pathLib, toPayloadPath } from '../lib/runStore/artifactsRoot';

/** Payload fields that name something in the artifact store (the field names activities already use). */
const INPUT_DIRS = ['runDir'] as const;
const INPUT_FILES = ['path'] as const;
const INPUT_FILE_LISTS = ['paths'] as const;
const OUTPUT_FILE_LISTS = ['outputPaths'] as const;

export interface ArtifactPathOptions {
  /** This worker's artifacts root (config `artifacts.root`, env SHEETBENCH_ARTIFACTS_ROOT). */
  root?: string;
  /** How long one attempt waits for a missing run folder to appear before failing (retryably). */
  waitForFolderMs?: number;
}

type Activity = (input: never) => Promise<unknown>;

/**
 * The one place where payload paths meet this worker's file system: every activity's `runDir` / `path` / `paths` input is
 * resolved against the worker's artifacts root, and `outputPaths` results go back relative to it. A worker whose root
 * does not hold the run folder waits a little, then fails the attempt retryably with the cause, so the run resumes
 * when the store is mounted (or another worker takes the retry).
 */
export function withArtifactPaths<A extends Record<string, Activity>>(activities: A, opts: ArtifactPathOptions): A {
  const wrapped: Record<string, Activity> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = async (input: unknown) => {
      const local = await localInput(input, opts);
      return toPayloadOutput(await (fn as (i: unknown) => Promise<unknown>)(local), opts.root);
    };
  }
  return wrapped as A;
}

async function localInput(input: unknown, opts: ArtifactPathOptions): Promise<unknown> {
  if (!isPlainObject(input)) return input;
  const out: Record<string, unknown> = { ...input };
  for (const key of INPUT_DIRS) {
    if (typeof out[key] === 'string') out[key] = await existingFolder(out[key], 'run.json', opts);
  }
  for (const key of INPUT_FILES) {
    if (typeof out[key] === 'string') out[key] = await fileInExistingFolder(out[key], opts);
  }
  for (const key of INPUT_FILE_LISTS) {
    if (Array.isArray(out[key]))
      out[key] = await Promise.all((out[key] as string[]).map((p) => fileInExistingFolder(p, opts)));
  }
  return out;
}

function toPayloadOutput(result: unknown, root: string | undefined): unknown {
  if (!root || !isPlainObject(result)) return result;
  const out: Record<string, unknown> = { ...result };
  for (const key of OUTPUT_FILE_LISTS) {
    if (Array.isArray(out[key])) out[key] = (out[key] as string[]).map((p) => toPayloadPath(p, root));
  }
  return out;
}

async function existingFolder(payloadPath: string, marker: string, opts: ArtifactPathOptions): Promise<string> {
  const local = resolveOrFail(payloadPath, opts.root);
  await waitFor(payloadPath, pathLib(opts.root).join(local, marker), opts);
  return local;
}

/** A file the activity reads or writes: its folder must exist (whether the file does is the activity's business). */
async function fileInExistingFolder(payloadPath: string, opts: ArtifactPathOptions): Promise<string> {
  const local = resolveOrFail(payloadPath, opts.root);
  await waitFor(payloadPath, pathLib(opts.root).dirname(local), opts);
  return local;
}

function resolveOrFail(payloadPath: string, root: string | undefined): string {
  try {
    return fromPayloadPath(payloadPath, root);
  } catch (err) {
    if (err instanceof ArtifactsRootError)
      throw ApplicationFailure.retryable(`${workerName()}: ${err.message}`, 'ArtifactsRootMissing');
    throw err;
  }
}

async function waitFor(payloadPath: string, probe: string, opts: ArtifactPathOptions): Promise<void> {
  if (await exists(probe)) return;
  const message =
    `${workerName()}: artifacts root ${opts.root ?? '(none)'} does not hold ${payloadPath} (no ${probe}); ` +
    'mount the run store there or fix artifacts.root / SHEETBENCH_ARTIFACTS_ROOT — the run waits and retries';
  log.warn(message);
  const info = activityInfo();
  const deadline = Math.min(
    Date.now() + (opts.waitForFolderMs ?? 30_000),
    info.currentAttemptScheduledTimestampMs + info.startToCloseTimeoutMs - 5_000,
  );
  while (Date.now() < deadline) {
    heartbeat(info.heartbeatDetails); // keeps the activity's own details (e.g. llmTurn's failure counts)
    await sleep(Math.min(1_000, Math.max(0, deadline - Date.now())));
    if (await exists(probe)) return;
  }
  throw ApplicationFailure.create({ message, type: 'ArtifactsRootMissing', nextRetryDelay: '10s' });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function exists(p: string): Promise<boolean> {
  return access(p).then(
    () => true,
    () => false,
  );
}

function workerName(): string {
  return `worker ${os.hostname()}/${process.pid}`;
}
