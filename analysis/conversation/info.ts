import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readJsonOr, writeJsonAtomic } from '../../lib/runStore/files';
import { CONVERSATION_ID, conversationLayout } from './layout';
import { PATTERNS } from '../../contracts/conversation';

/** What the API keeps about a conversation outside its workflow: `conversation.json` in its folder. */
export const conversationInfoFileSchema = z.object({
  id: z.string(),
  title: z.string(),
  pattern: z.enum(PATTERNS),
  createdAt: z.string(),
  updatedAt: z.string(),
  deleted: z.boolean().default(false),
  /** The signed-in user who created it (`sheetbench serve`); absent for conversations from before owners, and from `ask`. */
  owner: z.string().optional(),
});

export type ConversationInfoFile = z.infer<typeof conversationInfoFileSchema>;

export async function writeInfo(dir: string, info: ConversationInfoFile): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeJsonAtomic(conversationLayout(dir).info, info);
}

export async function readInfo(dir: string): Promise<ConversationInfoFile | undefined> {
  const raw = await readJsonOr<unknown>(conversationLayout(dir).info, undefined);
  const parsed = conversationInfoFileSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Every conversation folder under `root` with a readable info file (deleted ones included; callers filter). */
export async function listInfos(root: string): Promise<ConversationInfoFile[]> {
  // Only folders named like a conversation: a stray file or folder beside them (a backup, .DS_Store) is not one.
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isDirectory() && CONVERSATION_ID.test(e.name)).map((e) => e.name);
  const infos = await Promise.all(names.map((n) => readInfo(path.join(root, n))));
  return infos.filter((i): i is ConversationInfoFile => i !== undefined);
}
