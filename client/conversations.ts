import { workflowUiUrl } from '../lib/temporal/uiLinks';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { conversationSettings } from '../analysis/conversation/settings';
import { assertConversationPriced } from '../analysis/conversation/budgetPricing';
import type { Config } from '../config/schema';
import { conversation as conversationWorkflow } from '../workflows/analysis/conversation';
import {
  cancelTurnSignal,
  closeConversationSignal,
  sendMessageUpdate,
  summaryQuery,
  type SendMessageInput,
} from '../contracts/conversation';
import { readDebugSteps } from '../analysis/conversation/debugStore';
import { exportConversation, type ExportFile, type ExportFormat } from '../analysis/export';
import type { DebugStep } from '../analysis/conversation/debug';
import { ConversationError } from '../analysis/conversation/errors';
import { readEvents } from '../analysis/conversation/eventLog';
import type { ConversationEvent } from '../analysis/conversation/events';
import { listInfos, readInfo, writeInfo, type ConversationInfoFile } from '../analysis/conversation/info';
import {
  conversationDir,
  conversationLayout,
  conversationWorkflowId,
  CONVERSATION_ID,
} from '../analysis/conversation/layout';
import { mimeTypeOf } from '../analysis/conversation/mime';
import type { FileInfo } from '../analysis/conversation/types';
import { ZERO_USAGE, type ConversationState, type Pattern } from '../contracts/conversation';
import { copyForFork } from '../analysis/conversation/fork';
import { filesNamed, scopedEvents } from '../analysis/conversation/shareScope';
import { addShare, readShares, revokeShare, type ShareGrant } from '../analysis/conversation/shares';
import { checkUpload } from '../analysis/conversation/uploads';
import { listWorkspaceFiles } from '../analysis/conversation/workspaceFiles';
import { failoverInput, failoverStartOptions } from '../lib/temporal/failover';
import {
  conversationView,
  infoView,
  type ConversationInfo,
  type ConversationView,
} from '../analysis/conversation/view';

/**
 * How long `send` waits for a workflow to take in a turn whose end is already logged: a workflow task held by a dead
 * worker's sticky queue times out after 10 s, and the next worker then replays the history.
 */
const CATCH_UP_MS = 45_000;
const CATCH_UP_POLL_MS = 500;

export interface ConversationServiceOptions {
  client: Client;
  config: Config;
  /** The Temporal Web UI's workflow list of the namespace (`http://host:port/namespaces/<ns>/workflows`), for links, when known. */
  temporalUiUrl?: string;
  /** How long `send` waits for a workflow to take in a logged turn end (default CATCH_UP_MS). */
  catchUpMs?: number;
}

/** The conversation API's operations over Temporal and the conversation folders (used by `serve` and `ask`). */
export class ConversationService {
  readonly root: string;

  /** Refuses (UnknownPriceError) a conversation dollar budget on a model without a known price. */
  constructor(private readonly opts: ConversationServiceOptions) {
    assertConversationPriced(opts.config);
    this.root = path.resolve(opts.config.conversation.dir);
  }

  /** `owner`: the signed-in user it belongs to (the server passes it; `ask` has none). */
  async create(input: { title?: string; pattern?: Pattern }, owner?: string): Promise<ConversationInfo> {
    const { id, dir } = await this.newFolder();
    const now = new Date().toISOString();
    const info: ConversationInfoFile = {
      id,
      title: input.title?.trim() || 'New conversation',
      pattern: input.pattern ?? 'auto',
      createdAt: now,
      updatedAt: now,
      deleted: false,
      ...(owner !== undefined ? { owner } : {}),
    };
    await writeInfo(dir, info);
    await this.start(info, dir);
    return this.info(info, []);
  }

  /**
   * A new conversation of `owner` holding what a share lets them see of `sourceId` (files, the shared turns' events,
   * the debug records if allowed): its next turn is numbered after the copied ones, and its kernel is restored from
   * their code on first use. The original is only read.
   */
  async fork(sourceId: string, owner: string, scope: { turnId?: string; debug: boolean }): Promise<ConversationInfo> {
    const source = await this.infoFile(sourceId);
    const { id, dir } = await this.newFolder();
    const lastTurn = await copyForFork(this.layout(sourceId), conversationLayout(dir), {
      ...scope,
      maxBytes: this.opts.config.analysis.workspaceMaxBytes,
    });
    const now = new Date().toISOString();
    const forkedFrom = { id: sourceId, ...(scope.turnId ? { turnId: scope.turnId } : {}) };
    const info: ConversationInfoFile = {
      id,
      title: `${source.title} (fork)`.slice(0, 200),
      pattern: source.pattern,
      createdAt: now,
      updatedAt: now,
      deleted: false,
      owner,
      forkedFrom,
    };
    await writeInfo(dir, info);
    await this.start(info, dir, { turns: [], usage: ZERO_USAGE, steps: 0, turnCount: lastTurn });
    return this.info(info, await readEvents(conversationLayout(dir)));
  }

  private async newFolder(): Promise<{ id: string; dir: string }> {
    const id = `c${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    const dir = conversationDir(this.root, id);
    await mkdir(conversationLayout(dir).workspace, { recursive: true });
    // Private to this user: a conversation holds the user's files and answers. The sandbox still reaches the workspace
    // through folders its uid may not enter (lib/sandbox/passThrough.ts; test/sandbox/folderModes.test.ts).
    await chmod(dir, 0o700);
    return { id, dir };
  }

  private async start(info: ConversationInfoFile, dir: string, carried?: ConversationState): Promise<void> {
    await this.temporal(() =>
      this.opts.client.workflow.start(conversationWorkflow, {
        workflowId: conversationWorkflowId(info.id),
        taskQueue: this.opts.config.temporal.taskQueue,
        args: [
          {
            conversationId: info.id,
            dir,
            pattern: info.pattern,
            settings: conversationSettings(this.opts.config),
            ...(carried ? { carried } : {}),
            failover: failoverInput(this.opts.config),
          },
        ],
        ...failoverStartOptions(this.opts.config),
      }),
    );
  }

  async list(): Promise<ConversationInfo[]> {
    const infos = (await listInfos(this.root)).filter((i) => !i.deleted);
    const views = await Promise.all(
      infos.map(async (i) => this.info(i, await readEvents(conversationLayout(conversationDir(this.root, i.id))))),
    );
    return views.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** Whether the conversation exists (not deleted), and whose it is: the server's access check reads this. */
  async ownerOf(id: string): Promise<{ exists: boolean; owner?: string }> {
    const info = CONVERSATION_ID.test(id) ? await readInfo(conversationDir(this.root, id)) : undefined;
    return !info || info.deleted
      ? { exists: false }
      : { exists: true, ...(info.owner !== undefined ? { owner: info.owner } : {}) };
  }

  /** The conversation, or (a share of one turn) only that turn's messages and files. */
  async get(id: string, turnId?: string): Promise<ConversationView> {
    const info = await this.infoFile(id);
    const layout = this.layout(id);
    const events = scopedEvents(await readEvents(layout), turnId);
    const files = await listWorkspaceFiles(layout.workspace);
    const named = filesNamed(events);
    return conversationView(this.info(info, events), events, turnId ? files.filter((f) => named.has(f.path)) : files);
  }

  async rename(id: string, title: string): Promise<ConversationInfo> {
    if (typeof title !== 'string' || !title.trim())
      throw new ConversationError('bad_input', 'title must be a non-empty string');
    const info = await this.infoFile(id);
    const updated = { ...info, title: title.trim().slice(0, 200), updatedAt: new Date().toISOString() };
    await writeInfo(this.layout(id).dir, updated);
    return this.info(updated, await readEvents(this.layout(id)));
  }

  /** Closes the workflow (it cancels a running turn and frees its sandbox) and hides the conversation; its folder stays. */
  async delete(id: string): Promise<void> {
    const info = await this.infoFile(id);
    await writeInfo(this.layout(id).dir, { ...info, deleted: true, updatedAt: new Date().toISOString() });
    await this.handle(id)
      .signal(closeConversationSignal)
      .catch(() => undefined); // its workflow already ended: the conversation is closed either way
  }

  /** Ends the conversation's workflow (its sandboxes are freed) and waits for it; the conversation stays listed. */
  async close(id: string): Promise<void> {
    await this.infoFile(id);
    const handle = this.handle(id);
    await handle.signal(closeConversationSignal);
    await handle.result();
  }

  async upload(id: string, files: Array<{ name: string; data: Buffer }>): Promise<Array<FileInfo & { note?: string }>> {
    await this.infoFile(id);
    if (!files.length) throw new ConversationError('bad_input', 'no file in the upload (multipart field "file")');
    const checked = files.map((f) => checkUpload(f.name, f.data, this.opts.config.conversation.maxUploadBytes));
    const { workspace, inputs } = this.layout(id);
    await mkdir(workspace, { recursive: true });
    await mkdir(inputs, { recursive: true });
    return Promise.all(
      checked.map(async (f) => {
        await writeFile(path.join(workspace, f.filename), f.data, { mode: 0o644 });
        // Kept as uploaded, out of the sandbox's reach: exports ship it, forks copy it.
        await writeFile(path.join(inputs, f.filename), f.data, { mode: 0o644 });
        return {
          filename: f.filename,
          path: f.filename,
          type: mimeTypeOf(f.filename),
          size: f.data.length,
          ...(f.note ? { note: f.note } : {}),
        };
      }),
    );
  }

  async send(id: string, message: SendMessageInput): Promise<{ turnId: string }> {
    const info = await this.infoFile(id);
    if (info.deleted) throw new ConversationError('not_found', `conversation ${id} was deleted`);
    for (const f of message.files ?? []) await this.resolveFile(id, f);
    const deadline = Date.now() + (this.opts.catchUpMs ?? CATCH_UP_MS);
    for (;;) {
      try {
        return await this.temporal(() => this.handle(id).executeUpdate(sendMessageUpdate, { args: [message] }));
      } catch (err) {
        if (!(err instanceof WorkflowUpdateFailedError)) throw err;
        const reason = err.cause?.message ?? err.message;
        const busyTurn = /turn (\S+) is still running/.exec(reason)?.[1];
        if (!busyTurn) throw new ConversationError('bad_input', reason);
        // The log says the turn ended but the workflow has not yet taken that in (e.g. a worker died right after the
        // turn's last activity, and its workflow task is waiting to time out): the refusal is stale, so wait and retry.
        if (Date.now() >= deadline || !(await this.turnEnded(id, busyTurn)))
          throw new ConversationError('busy', reason);
        await new Promise((r) => setTimeout(r, CATCH_UP_POLL_MS));
      }
    }
  }

  private async turnEnded(id: string, turnId: string): Promise<boolean> {
    return (await readEvents(this.layout(id))).some((e) => e.type === 'turn_ended' && e.turnId === turnId);
  }

  async cancel(id: string): Promise<{ turnId: string }> {
    await this.infoFile(id);
    const summary = await this.temporal(() => this.handle(id).query(summaryQuery));
    if (!summary.currentTurnId) throw new ConversationError('busy', 'no turn is running');
    await this.handle(id).signal(cancelTurnSignal);
    return { turnId: summary.currentTurnId };
  }

  async events(id: string, after = 0, turnId?: string): Promise<ConversationEvent[]> {
    await this.infoFile(id);
    return scopedEvents(await readEvents(this.layout(id), after), turnId);
  }

  async debug(id: string, turnId?: string): Promise<DebugStep[]> {
    await this.infoFile(id);
    return (await readDebugSteps(this.layout(id))).filter((s) => !turnId || s.turnId === turnId);
  }

  /** The share grants of a conversation (revoked ones included). */
  async shares(id: string): Promise<ShareGrant[]> {
    await this.infoFile(id);
    return readShares(this.layout(id).dir);
  }

  async share(id: string, grant: Omit<ShareGrant, 'id'>): Promise<ShareGrant> {
    await this.infoFile(id);
    if (grant.turnId && !(await this.turnEnded(id, grant.turnId))) {
      throw new ConversationError('bad_input', `conversation ${id} has no ended turn ${grant.turnId} to share`);
    }
    return addShare(this.layout(id).dir, grant);
  }

  async unshare(id: string, shareId: string): Promise<void> {
    await this.infoFile(id);
    if (!(await revokeShare(this.layout(id).dir, shareId)))
      throw new ConversationError(
        'not_found',
        `conversation ${id} has no share ${shareId} (or it was revoked already)`,
      );
  }

  /**
   * A grant as a share link's holder meets it: the conversation's owner and whether it was deleted, and the grant
   * (undefined when there is none with that id). Undefined when the conversation never existed.
   */
  async grantOf(
    id: string,
    shareId: string,
  ): Promise<{ owner?: string; title: string; deleted: boolean; grant?: ShareGrant } | undefined> {
    const info = CONVERSATION_ID.test(id) ? await readInfo(conversationDir(this.root, id)) : undefined;
    if (!info) return undefined;
    const grant = (await readShares(this.layout(id).dir)).find((g) => g.id === shareId);
    return {
      ...(info.owner !== undefined ? { owner: info.owner } : {}),
      title: info.title,
      deleted: info.deleted,
      ...(grant ? { grant } : {}),
    };
  }

  /** The live grants naming `user`, with their conversations (deleted conversations and ended grants left out). */
  async sharedWith(user: string, now = Date.now()): Promise<Array<{ info: ConversationInfo; grant: ShareGrant }>> {
    const out: Array<{ info: ConversationInfo; grant: ShareGrant }> = [];
    for (const info of (await listInfos(this.root)).filter((i) => !i.deleted)) {
      const grants = (await readShares(this.layout(info.id).dir)).filter(
        (g) => 'user' in g.to && g.to.user === user && !g.revokedAt && (g.expiresAt === undefined || g.expiresAt > now),
      );
      for (const grant of grants) out.push({ info: this.info(info, []), grant });
    }
    return out;
  }

  /** The conversation (or one finished turn) as a notebook, a script, or the zip of their inputs. */
  async export(id: string, opts: { format: ExportFormat; turnId?: string }): Promise<ExportFile> {
    const info = await this.infoFile(id);
    const layout = this.layout(id);
    return exportConversation(layout, info, await readEvents(layout), opts);
  }

  /** The absolute path of a workspace file; paths leaving the workspace (.., absolute, symlinks out) are refused. */
  async resolveFile(id: string, relPath: string, turnId?: string): Promise<string> {
    await this.infoFile(id);
    const workspace = this.layout(id).workspace;
    // A share of one turn reaches only the files that turn named.
    if (turnId && !filesNamed(await this.events(id, 0, turnId)).has(relPath))
      throw new ConversationError('not_found', `no file "${relPath}" in the shared turn`);
    const target = path.resolve(workspace, relPath);
    const notFound = new ConversationError('not_found', `no file "${relPath}" in the workspace`);
    if (path.isAbsolute(relPath) || !target.startsWith(workspace + path.sep)) throw notFound;
    const real = await realpath(target).catch(() => undefined); // no such file: not found below
    const realWorkspace = await realpath(workspace);
    if (!real || !real.startsWith(realWorkspace + path.sep) || !(await stat(real)).isFile()) throw notFound;
    return real;
  }

  workflowId(id: string): string {
    return conversationWorkflowId(id);
  }

  private info(info: ConversationInfoFile, events: ConversationEvent[]): ConversationInfo {
    const workflowId = conversationWorkflowId(info.id);
    const ui = this.opts.temporalUiUrl;
    const temporalUiUrl = ui ? workflowUiUrl(ui, workflowId) : undefined;
    return infoView(info, events, { workflowId, ...(temporalUiUrl ? { temporalUiUrl } : {}) });
  }

  private async infoFile(id: string): Promise<ConversationInfoFile> {
    const info = CONVERSATION_ID.test(id) ? await readInfo(conversationDir(this.root, id)) : undefined;
    if (!info || info.deleted) throw new ConversationError('not_found', `no conversation ${id}`);
    return info;
  }

  private layout(id: string) {
    return conversationLayout(conversationDir(this.root, id));
  }

  private handle(id: string) {
    return this.opts.client.workflow.getHandle(conversationWorkflowId(id));
  }

  /** Temporal unreachable → 503 naming it; other errors pass through. */
  private async temporal<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      const text = String((err as Error)?.message ?? err);
      if (/UNAVAILABLE|ECONNREFUSED|connect|Connection/i.test(text) && !(err instanceof WorkflowUpdateFailedError)) {
        throw new ConversationError('unavailable', `Temporal is unreachable: ${text}`);
      }
      throw err;
    }
  }
}
