import { createHash, timingSafeEqual } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseJsonLines, readTextIfPresent } from '../../lib/json';
import { signSession, verifySession, type SessionClaims } from './sessionCookie';
import { FailureThrottle } from './throttle';
import type { UsersStore } from './usersFile';
import type { Role, User } from './user';

export interface AuthSettings {
  /** The server's token; undefined only with --no-auth (loopback only, checked by the caller). */
  token?: string;
  /** The name the token's holder is shown under (an admin). */
  ownerName: string;
  cookieSecret: string;
  sessionMs: number;
  users?: UsersStore;
  proxy: { header: string; addresses: string[]; roles: Record<string, Role> };
  /** Sessions signed out before their end (so a copied cookie dies with the sign-out, across restarts too). */
  signedOutFile: string;
  throttle?: FailureThrottle;
}

/** What a request carries that could prove who it is. */
export interface RequestCredentials {
  client: string;
  authorization?: string;
  cookieHeader?: string;
  proxyUser?: string;
}

export type Identification =
  | { ok: true; user: User; session?: SessionClaims }
  | { ok: false; status: 401 | 429; error: string; retryAfterS?: number };

export const SIGN_IN_HINT = 'open the login URL that `sheetbench serve` printed, or send Authorization: Bearer <token>';

/** One line of the signed-out file: a session id and when it would have expired (ms since the epoch). */
const signedOutLineSchema = z.object({ sid: z.string(), exp: z.number() });

/** Decides who a request is: trusted proxy header, Bearer token, session cookie, in that order. */
export class Authenticator {
  readonly cookieName: string;
  private readonly throttle: FailureThrottle;
  private signedOut = new Map<string, number>();

  constructor(private readonly s: AuthSettings) {
    // Cookies are not kept apart by port: two servers on one host get different names (from their secrets).
    this.cookieName = `sheetbench_session_${createHash('sha256').update(s.cookieSecret).digest('hex').slice(0, 8)}`;
    this.throttle = s.throttle ?? new FailureThrottle();
  }

  get enabled(): boolean {
    return this.s.token !== undefined;
  }

  /**
   * The sessions signed out before this start. A torn last line (a write cut off) is left out; any other line that
   * is not a signed-out session stops the start with a CorruptFileError naming the file and line: skipping it would
   * let a signed-out session back in.
   */
  async loadSignedOut(): Promise<this> {
    const text = (await readTextIfPresent(this.s.signedOutFile)) ?? '';
    const { values, corrupt } = parseJsonLines(text, signedOutLineSchema, this.s.signedOutFile);
    if (corrupt.length) throw corrupt[0];
    const now = Date.now();
    for (const { sid, exp } of values) if (exp > now) this.signedOut.set(sid, exp);
    return this;
  }

  async identify(req: RequestCredentials): Promise<Identification> {
    if (!this.enabled) return { ok: true, user: { name: this.s.ownerName, role: 'admin', via: 'none' } };
    const proxied = this.fromProxy(req);
    if (proxied) return { ok: true, user: proxied };
    if (req.authorization !== undefined) return this.fromBearer(req);
    const cookie = readCookie(req.cookieHeader, this.cookieName);
    if (cookie !== undefined) return this.fromCookie(req.client, cookie);
    return { ok: false, status: 401, error: `sign-in required: ${SIGN_IN_HINT}` };
  }

  /** The login form's and the login URL's exchange: a right token gets a session (cookie value), a wrong one counts as a failure. */
  async signIn(client: string, token: string): Promise<Identification & { cookie?: string }> {
    const waited = this.throttled(client);
    if (waited) return waited;
    const user = await this.tokenUser(token);
    if (!user) return this.failed(client, 'wrong token');
    this.throttle.succeed(client);
    const session = signSession(`${user.kind}:${user.name}`, this.s.sessionMs, this.s.cookieSecret);
    return { ok: true, user: { name: user.name, role: user.role, via: 'cookie' }, session, cookie: session.value };
  }

  async signOut(session: SessionClaims): Promise<void> {
    this.signedOut.set(session.sid, session.exp);
    await mkdir(path.dirname(this.s.signedOutFile), { recursive: true, mode: 0o700 });
    await appendFile(this.s.signedOutFile, `${JSON.stringify({ sid: session.sid, exp: session.exp })}\n`, {
      mode: 0o600,
    });
  }

  sessionMaxAgeS(): number {
    return Math.floor(this.s.sessionMs / 1000);
  }

  /** The proxy's user header counts only from a configured proxy address; from anyone else it is ignored. */
  private fromProxy(req: RequestCredentials): User | undefined {
    if (!req.proxyUser || !this.s.proxy.addresses.includes(req.client)) return undefined;
    const name = req.proxyUser.trim();
    if (!name || name.length > 200 || /\p{Cc}/u.test(name)) return undefined;
    return { name, role: this.s.proxy.roles[name] ?? 'user', via: 'proxy' };
  }

  private async fromBearer(req: RequestCredentials): Promise<Identification> {
    const waited = this.throttled(req.client);
    if (waited) return waited;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.authorization ?? '');
    if (!match) return { ok: false, status: 401, error: 'the Authorization header must be "Bearer <token>"' };
    const user = await this.tokenUser(match[1]);
    if (!user) return this.failed(req.client, 'wrong token');
    this.throttle.succeed(req.client);
    return { ok: true, user: { name: user.name, role: user.role, via: 'bearer' } };
  }

  private async fromCookie(client: string, value: string): Promise<Identification> {
    const check = verifySession(value, this.s.cookieSecret);
    if (!check.ok)
      return /forged/.test(check.reason)
        ? this.failed(client, check.reason)
        : { ok: false, status: 401, error: check.reason };
    if (this.signedOut.has(check.claims.sid))
      return { ok: false, status: 401, error: 'this session was signed out: sign in again' };
    const [kind, ...rest] = check.claims.user.split(':');
    const name = rest.join(':');
    if (kind === 'token') return { ok: true, user: { name, role: 'admin', via: 'cookie' }, session: check.claims };
    const entry = await this.s.users?.byName(name);
    if (!entry) return { ok: false, status: 401, error: `user ${name} is no longer in the users file` };
    return { ok: true, user: { name, role: entry.role, via: 'cookie' }, session: check.claims };
  }

  private async tokenUser(token: string): Promise<{ kind: 'token' | 'users'; name: string; role: Role } | undefined> {
    if (this.s.token !== undefined && sameSecret(token, this.s.token))
      return { kind: 'token', name: this.s.ownerName, role: 'admin' };
    const entry = await this.s.users?.byToken(token);
    return entry ? { kind: 'users', name: entry.name, role: entry.role } : undefined;
  }

  private throttled(client: string): Identification | undefined {
    const ms = this.throttle.waitMs(client);
    if (!ms) return undefined;
    const retryAfterS = Math.ceil(ms / 1000);
    return {
      ok: false,
      status: 429,
      error: `too many wrong tokens from ${client}: try again in ${retryAfterS} s`,
      retryAfterS,
    };
  }

  private failed(client: string, reason: string): Identification {
    this.throttle.fail(client);
    return { ok: false, status: 401, error: reason };
  }
}

/** Compares by SHA-256 digests, so neither the length nor the content leaks through timing. */
export function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
