import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { AuthSetupError, checkPrivate, randomSecret, writeSecret } from './secretFile';
import { ROLES, type Role } from './user';

/**
 * The built-in users file for small teams (JSON, mode 0600): each user has a name, a role and the SHA-256 of their own
 * token (the token itself is shown once, by `sheetbench auth add-user`, and never stored).
 */
const userEntry = z
  .object({
    name: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\s\p{Cc}]+$/u, 'a name has no spaces or control characters'),
    role: z.enum(ROLES).default('user'),
    tokenSha256: z.string().regex(/^[0-9a-f]{64}$/, 'tokenSha256 must be 64 lower-case hex digits'),
  })
  .strict();

const usersFileSchema = z
  .object({ users: z.array(userEntry) })
  .strict()
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    for (const u of f.users) {
      if (seen.has(u.name))
        ctx.addIssue({ code: 'custom', message: `user ${u.name} is listed twice`, path: ['users'] });
      seen.add(u.name);
    }
  });

export type UserEntry = z.infer<typeof userEntry>;

export const tokenSha256 = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Parses a users file; anything wrong is an AuthSetupError naming the file and the cause. */
export async function readUsersFile(file: string): Promise<UserEntry[]> {
  const info = await stat(file).catch(() => {
    throw new AuthSetupError(`users file ${file} does not exist (create one with: sheetbench auth add-user NAME)`);
  });
  checkPrivate(file, info.mode, info.uid);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new AuthSetupError(`users file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = usersFileSchema.safeParse(json);
  if (!parsed.success)
    throw new AuthSetupError(
      `users file ${file} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`,
    );
  return parsed.data.users;
}

/** The users file as the server reads it: re-read when it changes on disk, so added or removed users apply at once. */
export class UsersStore {
  private users: UserEntry[] = [];
  private mtimeMs = -1;

  constructor(readonly file: string) {}

  /** Reads the file now (the server calls this before it listens, so a broken file stops the start). */
  async load(): Promise<this> {
    const info = await stat(this.file).catch(() => undefined); // no file yet: readUsersFile says so
    this.users = await readUsersFile(this.file);
    this.mtimeMs = info?.mtimeMs ?? -1;
    return this;
  }

  async byToken(token: string): Promise<UserEntry | undefined> {
    await this.refresh();
    const hash = tokenSha256(token);
    return this.users.find((u) => u.tokenSha256 === hash);
  }

  async byName(name: string): Promise<UserEntry | undefined> {
    await this.refresh();
    return this.users.find((u) => u.name === name);
  }

  /** A file broken while the server runs keeps the last good list (and the error goes to the log), rather than opening up. */
  private async refresh(): Promise<void> {
    const info = await stat(this.file).catch(() => undefined); // no file yet: readUsersFile says so
    if (!info || info.mtimeMs === this.mtimeMs) return;
    try {
      this.users = await readUsersFile(this.file);
      this.mtimeMs = info.mtimeMs;
    } catch (err) {
      process.stderr.write(`sheetbench serve: ${(err as Error).message}; keeping the previous users\n`);
      this.mtimeMs = info.mtimeMs;
    }
  }
}

/** Adds (or re-keys) a user and returns their new token; the file is created with mode 0600 when missing. */
export async function addUser(file: string, name: string, role: Role): Promise<string> {
  const users = await readUsersFile(file).catch((err: Error) => {
    if (/does not exist/.test(err.message)) return [] as UserEntry[];
    throw err;
  });
  const token = randomSecret();
  const entry = userEntry.parse({ name, role, tokenSha256: tokenSha256(token) });
  const rest = users.filter((u) => u.name !== name);
  await writeSecret(file, JSON.stringify({ users: [...rest, entry] }, null, 2));
  return token;
}

export async function removeUser(file: string, name: string): Promise<boolean> {
  const users = await readUsersFile(file);
  const rest = users.filter((u) => u.name !== name);
  if (rest.length === users.length) return false;
  await writeSecret(file, JSON.stringify({ users: rest }, null, 2));
  return true;
}
