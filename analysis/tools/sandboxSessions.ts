import { createSandboxFactory } from '../../lib/sandbox';
import { sandboxConfigSchema } from '../../config/schema';
import type { Sandbox, SandboxFactory, SandboxLanguage } from '../../lib/sandbox/types';
import type { ToolContext } from './types';

/** A conversation's sandbox is ended after this long without a call (its workspace stays). */
export const SANDBOX_IDLE_TTL_MS = 30 * 60_000;
const MiB = 1024 * 1024;

interface Session {
  sandbox: Promise<Sandbox>;
  /** Executions of one sandbox never overlap (parallel branches of a conversation queue here). */
  queue: Promise<unknown>;
  idleTimer?: NodeJS.Timeout;
}

/** Worker-local: conversationId → language → sandbox whose work dir is the conversation's workspace. */
const sessions = new Map<string, Map<SandboxLanguage, Session>>();
/** Conversations whose last execution already told the model its state was lost (the respawned kernel is fresh, but not news). */
const resetAnnounced = new Set<string>();
let defaultFactory: Promise<SandboxFactory> | null = null;

function factoryFor(ctx: ToolContext): Promise<SandboxFactory> {
  if (ctx.sandboxFactory) return Promise.resolve(ctx.sandboxFactory);
  defaultFactory ??= createSandboxFactory(
    { ...sandboxConfigSchema.parse({}), executionTimeoutMs: ctx.config.executionTimeoutMs },
    { warmModules: ['pandas', 'matplotlib.pyplot'] },
  );
  defaultFactory.catch(() => (defaultFactory = null));
  return defaultFactory;
}

function openSession(ctx: ToolContext, language: SandboxLanguage): Session {
  let byLanguage = sessions.get(ctx.conversationId);
  if (!byLanguage) sessions.set(ctx.conversationId, (byLanguage = new Map()));
  let session = byLanguage.get(language);
  if (!session) {
    const sandbox = factoryFor(ctx).then((f) =>
      // One file may fill the whole workspace quota, not more (RLIMIT_FSIZE inside the sandbox).
      f.create({
        workDir: ctx.workspaceDir,
        language,
        limits: { maxFileMiB: Math.max(1, Math.ceil(ctx.config.workspaceMaxBytes / MiB)) },
      }),
    );
    session = { sandbox, queue: Promise.resolve() };
    byLanguage.set(language, session);
    sandbox.catch(() => void disposeSession(ctx.conversationId, language));
  }
  return session;
}

/**
 * Runs `fn` with the conversation's sandbox for `language`, one call at a time. A sandbox that failed
 * (SandboxLostError from `fn`) is dropped so the next call starts a fresh one.
 */
export function withSandbox<T>(
  ctx: ToolContext,
  language: SandboxLanguage,
  fn: (sandbox: Sandbox) => Promise<T>,
): Promise<T> {
  const session = openSession(ctx, language);
  const run = session.queue.then(async () => {
    touch(ctx.conversationId, language, session);
    try {
      return await fn(await session.sandbox);
    } catch (err) {
      if ((err as Error).name === 'SandboxLostError') await disposeSession(ctx.conversationId, language);
      throw err;
    }
  });
  session.queue = run.catch(() => undefined); // the caller awaiting `run` gets its error; the queue only orders calls
  return run;
}

function touch(conversationId: string, language: SandboxLanguage, session: Session): void {
  clearTimeout(session.idleTimer);
  session.idleTimer = setTimeout(() => void disposeSession(conversationId, language), SANDBOX_IDLE_TTL_MS);
  session.idleTimer.unref();
}

async function disposeSession(conversationId: string, language: SandboxLanguage): Promise<void> {
  const byLanguage = sessions.get(conversationId);
  const session = byLanguage?.get(language);
  if (!byLanguage || !session) return;
  byLanguage.delete(language);
  if (byLanguage.size === 0) sessions.delete(conversationId);
  clearTimeout(session.idleTimer);
  const sandbox = await session.sandbox.catch(() => null); // a sandbox that failed to start has nothing to close
  await sandbox?.dispose();
}

export async function disposeConversationSandboxes(conversationId: string): Promise<void> {
  resetAnnounced.delete(conversationId);
  await Promise.all((['python', 'node'] as const).map((l) => disposeSession(conversationId, l)));
}

/** Is there a live sandbox for this conversation on this worker? */
export function hasSandbox(conversationId: string, language: SandboxLanguage): boolean {
  return sessions.get(conversationId)?.has(language) ?? false;
}

export function noteResetAnnounced(conversationId: string): void {
  resetAnnounced.add(conversationId);
}

/** Was a reset already announced (and not yet followed by a fresh kernel)? Clears the note. */
export function takeResetAnnounced(conversationId: string): boolean {
  return resetAnnounced.delete(conversationId);
}
