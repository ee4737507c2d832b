import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config/schema';
import { allowedHostNames, isLoopbackHost } from '../security/hostNames';
import { AuditLog } from './auditLog';
import { Authenticator } from './authenticator';
import { AuthSetupError, randomSecret, readOrCreateSecret, writeSecret } from './secretFile';
import { UsersStore } from './usersFile';

/** A token shorter than this is refused: 24 URL-safe characters carry 144 bits. */
export const MIN_TOKEN_CHARS = 24;

export interface SignInOptions {
  server: Config['server'];
  /** The listen address. */
  host: string;
  /** --token or SHEETBENCH_TOKEN; otherwise the state folder's token file (created on first start). */
  token?: string;
  noAuth?: boolean;
}

export interface PreparedSignIn {
  auth: Authenticator;
  audit: AuditLog;
  allowedHosts: Set<string>;
  proxyHeader: string;
  /** The token, for the login URL (undefined with --no-auth). */
  token?: string;
  /** Signs share links (server/sharing): its own secret, so rotating the sign-in token does not end every share. */
  shareSecret: string;
  /** What to tell the operator at start (where the token is, --no-auth's warning). */
  notes: string[];
}

export const serverFiles = (server: Config['server']) => {
  const dir = path.resolve(server.stateDir);
  return {
    dir,
    token: path.join(dir, 'token'),
    cookieSecret: path.join(dir, 'cookie-secret'),
    shareSecret: path.join(dir, 'share-secret'),
    users: path.resolve(server.usersFile ?? path.join(dir, 'users.json')),
    audit: path.join(dir, 'audit.jsonl'),
    signedOut: path.join(dir, 'signed-out.jsonl'),
  };
};

/**
 * Everything sign-in needs, checked before the server listens: the server refuses to start wherever it would
 * otherwise be open (--no-auth off loopback, a proxy without addresses, a token file others can read, a short token,
 * a users file that does not parse).
 */
export async function prepareSignIn(o: SignInOptions): Promise<PreparedSignIn> {
  const files = serverFiles(o.server);
  const notes: string[] = [];
  if (o.noAuth && !isLoopbackHost(o.host)) {
    throw new AuthSetupError(
      `--no-auth is allowed only on a loopback address (127.0.0.1, ::1, localhost): --host ${o.host} would let anyone who reaches it in`,
    );
  }
  if (o.noAuth && o.server.proxy.addresses.length)
    throw new AuthSetupError('--no-auth and server.proxy.addresses contradict each other: drop one');
  if (o.token !== undefined && o.token.length < MIN_TOKEN_CHARS) {
    throw new AuthSetupError(
      `the token given (--token or SHEETBENCH_TOKEN) has ${o.token.length} characters; it needs at least ${MIN_TOKEN_CHARS} (make one with: openssl rand -base64 24)`,
    );
  }
  let token: string | undefined;
  if (!o.noAuth) {
    if (o.token !== undefined) token = o.token;
    else {
      const read = await readOrCreateSecret(files.token);
      token = read.value;
      notes.push(
        `${read.created ? 'created' : 'using'} the sign-in token in ${files.token} (rotate it with: sheetbench auth rotate-token)`,
      );
    }
  } else
    notes.push(
      'sign-in is OFF (--no-auth): any program on this machine can use this server; web pages of other sites still cannot',
    );
  const cookieSecret = (await readOrCreateSecret(files.cookieSecret, () => randomSecret(32))).value;
  const shareSecret = (await readOrCreateSecret(files.shareSecret, () => randomSecret(32))).value;
  const users =
    o.server.usersFile !== undefined || existsSync(files.users) ? await new UsersStore(files.users).load() : undefined;
  if (users) notes.push(`users file: ${files.users}`);
  if (o.server.proxy.addresses.length)
    notes.push(`trusting the ${o.server.proxy.header} header from ${o.server.proxy.addresses.join(', ')}`);
  const auth = await new Authenticator({
    token,
    ownerName: ownerName(),
    cookieSecret,
    sessionMs: o.server.sessionHours * 3_600_000,
    users,
    proxy: o.server.proxy,
    signedOutFile: files.signedOut,
  }).loadSignedOut();
  return {
    auth,
    audit: new AuditLog(files.audit),
    allowedHosts: allowedHostNames(o.host, o.server.publicNames),
    proxyHeader: o.server.proxy.header.toLowerCase(),
    token,
    shareSecret,
    notes,
  };
}

/** New token and new cookie secret: old login links, Bearer scripts and browser sessions all stop working. */
export async function rotateToken(server: Config['server']): Promise<{ token: string; file: string }> {
  const files = serverFiles(server);
  const token = randomSecret();
  await writeSecret(files.token, token);
  await writeSecret(files.cookieSecret, randomSecret(32));
  return { token, file: files.token };
}

function ownerName(): string {
  try {
    return os.userInfo().username || 'owner';
  } catch {
    return 'owner';
  }
}
