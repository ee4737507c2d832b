import { randomBytes } from 'node:crypto';
import { chmod, mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { conversationSettings } from '../analysis/conversation/settings';
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
import type { DebugStep } from '../analysis/conversation/debug';
import { ConversationError } from '../analysis/conversation/errors';
import { readEvents } from '../analysis/conversation/eventLog';
import type { ConversationEvent } from '../analysis/conversation/events';
import { listInfos, readInfo, writeInfo, type ConversationInfoFile } from '../analysis/conversation/info';
import { conversationDir, conversationLayout, conversationWorkflowId, CONVERSATION_ID } from '../analysis/conversation/layout';
import { mimeTypeOf } from '../analysis/conversation/mime';
import type { FileInfo } from '../analysis/conversation/types';
import type { Pattern } from '../contracts/conversation';
import { checkUpload } from '../analysis/conversation/uploads';
import { listWorkspaceFiles } from '../analysis/conversation/workspaceFiles';
import { conversationView, infoView, type ConversationInfo, type ConversationView } from '../analysis/conversation/view';

export interface ConversationServiceOptions {
  client: Client;
  config: Config;
  /** Temporal Web UI base (for links), when known. */
  temporalUiUrl?: string;
}

/** The conversation API's operations over Temporal and the conversation folders (used by `serve` and `ask`). */
export class ConversationService {
  readonly root: string;

  constructor(private readonly opts: ConversationServiceOptions) {
    this.root = path.resolve(opts.config.conversation.dir);
  }

  /** `owner`: the signed-in user it belongs to (the server passes it; `ask` has none). */
  async create(input: { title?: string; pattern?: Pattern }, owner?: string): Promise<ConversationInfo> {
    const id = `c${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    const dir = conversationDir(this.root, id);
    const now = new Date().toISOString();
    const info: ConversationInfoFile = { id, title: input.title?.trim() || 'New conversation', pattern: input.pattern ?? 'auto', createdAt: now, updatedAt: now, deleted: false, ...(owner !== undefined ? { owner } : {}) };
    await mkdir(conversationLayout(dir).workspace, { recursive: true });
    // The sandbox runs as an unprivileged uid: it must reach the folder (o+x) to mount the workspace.
    await chmod(this.root, 0o711).catch(() => undefined);
    await chmod(dir, 0o711);
    await writeInfo(dir, info);
    await this.temporal(() =>
      this.opts.client.workflow.start(conversationWorkflow, {
        workflowId: conversationWorkflowId(id),
        taskQueue: this.opts.config.temporal.taskQueue,
        args: [{ conversationId: id, dir, pattern: info.pattern, settings: conversationSettings(this.opts.config) }],
      }),
    );
    return this.info(info, []);
  }

  async list(): Promise<ConversationInfo[]> {
    const infos = (await listInfos(this.root)).filter((i) => !i.deleted);
    const views = await Promise.all(infos.map(async (i) => this.info(i, await readEvents(conversationLayout(conversationDir(this.root, i.id))))));
    return views.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** Whether the conversation exists (not deleted), and whose it is: the server's access check reads this. */
  async ownerOf(id: string): Promise<{ exists: boolean; owner?: string }> {
    const info = CONVERSATION_ID.test(id) ? await readInfo(conversationDir(this.root, id)) : undefined;
    return !info || info.deleted ? { exists: false } : { exists: true, ...(info.owner !== undefined ? { owner: info.owner } : {}) };
  }

  async get(id: string): Promise<ConversationView> {
    const info = await this.infoFile(id);
    const layout = this.layout(id);
    const events = await readEvents(layout);
    return conversationView(this.info(info, events), events, await listWorkspaceFiles(layout.workspace));
  }

  async rename(id: string, title: string): Promise<ConversationInfo> {
    if (typeof title !== 'string' || !title.trim()) throw new ConversationError('bad_input', 'title must be a non-empty string');
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
      .catch(() => undefined);
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
    const workspace = this.layout(id).workspace;
    await mkdir(workspace, { recursive: true });
    return Promise.all(
      checked.map(async (f) => {
        await writeFile(path.join(workspace, f.filename), f.data, { mode: 0o644 });
        return { filename: f.filename, path: f.filename, type: mimeTypeOf(f.filename), size: f.data.length, ...(f.note ? { note: f.note } : {}) };
      }),
    );
  }

  async send(id: string, message: SendMessageInput): Promise<{ turnId: string }> {
    const info = await this.infoFile(id);
    if (info.deleted) throw new ConversationError('not_found', `conversation ${id} was deleted`);
    for (const f of message.files ?? []) await this.resolveFile(id, f);
    try {
      return await this.temporal(() => this.handle(id).executeUpdate(sendMessageUpdate, { args: [message] }));
    } catch (err) {
      if (!(err instanceof WorkflowUpdateFailedError)) throw err;
      const reason = (err.cause as Error | undefined)?.message ?? err.message;
      throw new ConversationError(/still running/.test(reason) ? 'busy' : 'bad_input', reason);
    }
  }

  async cancel(id: string): Promise<{ turnId: string }> {
    await this.infoFile(id);
    const summary = await this.temporal(() => this.handle(id).query(summaryQuery));
    if (!summary.currentTurnId) throw new ConversationError('busy', 'no turn is running');
    await this.handle(id).signal(cancelTurnSignal);
    return { turnId: summary.currentTurnId };
  }

  async events(id: string, after = 0): Promise<ConversationEvent[]> {
    await this.infoFile(id);
    return readEvents(this.layout(id), after);
  }

  async debug(id: string): Promise<DebugStep[]> {
    await this.infoFile(id);
    return readDebugSteps(this.layout(id));
  }

  /** The absolute path of a workspace file; paths leaving the workspace (.., absolute, symlinks out) are refused. */
  async resolveFile(id: string, relPath: string): Promise<string> {
    await this.infoFile(id);
    const workspace = this.layout(id).workspace;
    const target = path.resolve(workspace, relPath);
    const notFound = new ConversationError('not_found', `no file "${relPath}" in the workspace`);
    if (path.isAbsolute(relPath) || !target.startsWith(workspace + path.sep)) throw notFound;
    const real = await realpath(target).catch(() => undefined);
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
    const temporalUiUrl = ui ? `${ui}/namespaces/${this.opts.config.temporal.namespace}/workflows/${workflowId}` : undefined;
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
