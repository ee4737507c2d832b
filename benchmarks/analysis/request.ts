import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config/schema';
import { conversationDir, conversationLayout, conversationWorkflowId } from '../../analysis/conversation/layout';
import { textProblem } from '../../analysis/conversation/messages';
import { conversationSettings } from '../../analysis/conversation/settings';
import type { Pattern } from '../../contracts/conversation';
import { checkUpload } from '../../analysis/conversation/uploads';
import { DatasetError } from '../../lib/runStore/taskRecord';
import type { AnalysisRun } from './run';
import { requestText } from './dataset';
import type { ConversationWorkflowInput, SendMessageInput } from '../../contracts/conversation';
import { conversationsDir, requestConversationId } from './layout';
import { analysisSettingsOf } from './settings';

/** A request ready to run: its conversation workflow's input and id, and the message to send. */
export interface PreparedRequest {
  conversation: ConversationWorkflowInput;
  workflowId: string;
  message: SendMessageInput;
}

export type Preparation = { skipped: string } | PreparedRequest;

/**
 * Creates the request's conversation folder with only the request's files in its workspace (answers stay in the
 * dataset folder). A fetch request without a data server is skipped, with the reason.
 */
export async function prepareRequest(
  ctx: AnalysisRun,
  taskId: string,
  taskWorkflowId: string,
  config: Config,
): Promise<Preparation> {
  const task = ctx.task(taskId);
  const { dataUrl } = analysisSettingsOf(ctx.manifest);
  if (task.fetch && !dataUrl) {
    return {
      skipped: `request ${taskId} downloads ${task.fetch} from the suite's data server, and no data server is set (config analysisSuite.dataUrl)`,
    };
  }
  const conversationId = requestConversationId(taskWorkflowId);
  const dir = conversationDir(conversationsDir(ctx.layout.root), conversationId);
  const workspace = conversationLayout(dir).workspace;
  await mkdir(workspace, { recursive: true });
  for (const name of task.files)
    await copyRequestFile(ctx.manifest.datasetDir, taskId, name, workspace, config.conversation.maxUploadBytes);
  const settings = conversationSettings(config);
  const message = { text: requestText(task, dataUrl ?? ''), files: task.files };
  // Refused here, as the conversation would refuse it: no retry changes that, and no model is asked.
  const problem = textProblem(message, settings);
  if (problem) throw new DatasetError(`the conversation refused the request: ${problem}`, taskId);
  return {
    conversation: { conversationId, dir, pattern: ctx.manifest.agent as Pattern, settings },
    workflowId: conversationWorkflowId(conversationId),
    message,
  };
}

/** Copies one of the request's files as an upload would (same name and content checks). */
async function copyRequestFile(
  datasetDir: string,
  taskId: string,
  name: string,
  workspace: string,
  maxBytes: number,
): Promise<void> {
  const source = path.join(datasetDir, 'files', name);
  const data = await readFile(source).catch((err: Error) => {
    throw new DatasetError(`cannot read its file ${source}: ${err.message}`, taskId);
  });
  let checked;
  try {
    checked = checkUpload(name, data, maxBytes);
  } catch (err) {
    throw new DatasetError(`its file ${name} is refused as an upload: ${(err as Error).message}`, taskId);
  }
  await writeFile(path.join(workspace, checked.filename), checked.data, { mode: 0o644 });
}
