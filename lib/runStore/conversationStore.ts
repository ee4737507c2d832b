import path from 'node:path';
import type { ChatMessage } from '../llm/types';
import { z } from 'zod';
import { readJsonIfPresent } from '../json';
import { chatMessageSchema } from '../llm/chatMessageSchema';
import { writeJsonAtomic } from './files';
import type { RunLayout } from './runLayout';

/**
 * A task's conversations live in the artifact store, addressed by turn index: writing turn k first truncates to k
 * messages, so a retried activity rewrites the same turn instead of appending twice.
 */
export function conversationPath(layout: RunLayout, taskId: string, name: string): string {
  return path.join(layout.taskDir(taskId), 'conversations', `${name}.json`);
}

/** The conversation's messages ([] before its first turn); a corrupt file throws naming it. */
export async function readConversation(layout: RunLayout, taskId: string, name: string): Promise<ChatMessage[]> {
  return (await readJsonIfPresent(conversationPath(layout, taskId, name), z.array(chatMessageSchema))) ?? [];
}

export async function writeConversation(
  layout: RunLayout,
  taskId: string,
  name: string,
  messages: ChatMessage[],
): Promise<void> {
  await writeJsonAtomic(conversationPath(layout, taskId, name), messages);
}

export async function conversationUpTo(
  layout: RunLayout,
  taskId: string,
  name: string,
  turn: number,
): Promise<ChatMessage[]> {
  const messages = await readConversation(layout, taskId, name);
  if (messages.length < turn) {
    throw new Error(`conversation ${name} of task ${taskId} has ${messages.length} messages, turn ${turn} requested`);
  }
  return messages.slice(0, turn);
}
