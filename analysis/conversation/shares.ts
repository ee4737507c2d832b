import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { withFileMutex } from '../../lib/llm/fileMutex';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { readJsonIfPresent } from '../../lib/json';

/**
 * Who may read a conversation besides its owner: `shares.json` in its folder. A grant names one signed-in user, or is
 * a link any signed-in user holding it may open until it expires; it covers the whole conversation or one turn, with or
 * without the debug view. Grants are never deleted, only revoked (the audit trail stays).
 */
export const shareGrantSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  to: z.union([z.object({ user: z.string().min(1).max(200) }).strict(), z.object({ link: z.literal(true) }).strict()]),
  turnId: z
    .string()
    .regex(/^t\d+$/)
    .optional(),
  debug: z.boolean(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** ms since the epoch; links always have one. */
  expiresAt: z.number().int().optional(),
  revokedAt: z.string().optional(),
});

export type ShareGrant = z.infer<typeof shareGrantSchema>;

const file = (dir: string) => path.join(dir, 'shares.json');

const sharesFileSchema = z.looseObject({ shares: z.array(shareGrantSchema).default([]) });

/**
 * The folder's grants ([] when it has no shares.json). A corrupt file throws naming it: dropping the grants it cannot
 * read would revoke them silently, and the next `addShare` would write the loss to disk.
 */
export async function readShares(dir: string): Promise<ShareGrant[]> {
  return (await readJsonIfPresent(file(dir), sharesFileSchema))?.shares ?? [];
}

/** Adds a grant (its id made here) under the folder's lock. */
export async function addShare(dir: string, grant: Omit<ShareGrant, 'id'>): Promise<ShareGrant> {
  const made = { ...grant, id: randomBytes(12).toString('base64url') };
  await withFileMutex(path.join(dir, 'shares.lock'), async () =>
    writeJsonAtomic(file(dir), { shares: [...(await readShares(dir)), made] }),
  );
  return made;
}

/** Marks a grant revoked; false when there is no such (unrevoked) grant. */
export async function revokeShare(dir: string, id: string, at = new Date()): Promise<boolean> {
  return withFileMutex(path.join(dir, 'shares.lock'), async () => {
    const shares = await readShares(dir);
    const grant = shares.find((s) => s.id === id && !s.revokedAt);
    if (!grant) return false;
    grant.revokedAt = at.toISOString();
    await writeJsonAtomic(file(dir), { shares });
    return true;
  });
}
