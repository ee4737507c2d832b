import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { readJsonIfPresent } from '../../lib/json';
import { chatMessageSchema } from '../../lib/llm/chatMessageSchema';
import type { ChatMessage } from '../../lib/llm/types';
import type { ConversationLayout } from './layout';

/**
 * One agent's model transcript within a turn, one message per file at a fixed index: rewriting a message after a
 * retry writes the same file again, and parallel agents (branches, ensemble members) never share a file.
 */
export function transcriptDir(layout: ConversationLayout, turnId: string, agent: string): string {
  return path.join(layout.turns, turnId, agent);
}

function messageFile(dir: string, index: number): string {
  return path.join(dir, `${String(index).padStart(4, '0')}.json`);
}

export async function writeMessage(dir: string, index: number, message: ChatMessage): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeJsonAtomic(messageFile(dir, index), message, 0);
}

/** The message at `index`, or undefined when none was written there; a corrupt one throws naming its file. */
export async function readMessage(dir: string, index: number): Promise<ChatMessage | undefined> {
  return readJsonIfPresent(messageFile(dir, index), chatMessageSchema);
}

/** Messages 0 … length-1; a gap means the workflow and the folder disagree, which is a bug worth stopping for. */
export async function readTranscript(dir: string, length: number): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = [];
  for (let i = 0; i < length; i++) {
    const m = await readMessage(dir, i);
    if (!m) throw new Error(`transcript ${dir}: message ${i} of ${length} is missing`);
    messages.push(m);
  }
  return messages;
}

export async function transcriptLength(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => /^\d{4}\.json$/.test(n)).length;
}
