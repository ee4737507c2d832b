import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { CorruptFileError, readJsonIfPresent, warnCorruptFile } from '../../lib/json';
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
  /** A fork made from someone's share: the conversation (and turn) it copied. */
  forkedFrom: z.object({ id: z.string(), turnId: z.string().optional() }).optional(),
});

export type ConversationInfoFile = z.infer<typeof conversationInfoFileSchema>;

export async function writeInfo(dir: string, info: ConversationInfoFile): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeJsonAtomic(conversationLayout(dir).info, info);
}

/** The folder's info, or undefined when it has none; a corrupt one throws a CorruptFileError naming the file. */
export async function readInfo(dir: string): Promise<ConversationInfoFile | undefined> {
  return readJsonIfPresent(conversationLayout(dir).info, conversationInfoFileSchema);
}

/**
 * Every conversation folder under `root` with an info file (deleted ones included; callers filter). One whose info
 * is corrupt is reported on stderr and left out: it does not hide the others.
 */
export async function listInfos(root: string): Promise<ConversationInfoFile[]> {
  // Only folders named like a conversation: a stray file or folder beside them (a backup, .DS_Store) is not one.
  const entries = await readdir(root, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return []; // no conversation made yet
    throw err;
  });
  const names = entries.filter((e) => e.isDirectory() && CONVERSATION_ID.test(e.name)).map((e) => e.name);
  const infos = await Promise.all(
    names.map((n) =>
      readInfo(path.join(root, n)).catch((err: unknown) => {
        if (!(err instanceof CorruptFileError)) throw err;
        warnCorruptFile(err, 'the conversation is left out of the list');
        return undefined;
      }),
    ),
  );
  return infos.filter((i): i is ConversationInfoFile => i !== undefined);
}
