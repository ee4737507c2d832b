import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/auth/usersFile';
import { signShareLink } from '../../server/sharing/shareLink';
import { jsonBody, startAnalysisEnv, waitForTurn, type AnalysisEnv } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';

interface Share {
  id: string;
  token?: string;
  url?: string;
  status: string;
}

/**
 * Sharing over real HTTP with sign-in (a users file: alice owns, bob is shared with, carol is anyone else): read-only
 * links for a user and expiring links for anyone signed in, a turn's share, the debug view when granted, the fork,
 * and every refusal (another user, no sign-in, forged, expired, revoked, traversal, deleted, state changes).
 */
describe('sharing a conversation', () => {
  let a: AnalysisEnv;
  const tokens: Record<string, string> = {};
  let id = '';
  let eventsBeforeFork = 0;

  const as =
    (user: string) =>
    async (p: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (user !== 'nobody') headers.set('authorization', `Bearer ${tokens[user]}`);
      return fetch(`${a.server.url}${p}`, { ...init, headers });
    };
  const alice = as('alice');
  const bob = as('bob');
  const carol = as('carol');
  const share = async (body: Record<string, unknown>) => {
    const res = await alice(`/api/conversations/${id}/shares`, jsonBody(body));
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { share: Share }).share;
  };
  /** A GET whose path goes to the server exactly as written (no dot-segment resolution). */
  const rawGet = (p: string, token: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(a.server.url);
      const req = request(
        { host: url.hostname, port: url.port, path: p, headers: { authorization: `Bearer ${token}` } },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

  beforeAll(async () => {
    const usersFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-users-')), 'users.json');
    for (const name of ['alice', 'bob', 'carol']) tokens[name] = await addUser(usersFile, name, 'user');
    a = await startAnalysisEnv(salesAnalyst, { server: { usersFile } });
    const created = await alice('/api/conversations', jsonBody({ title: 'Q3 sales', pattern: 'react' }));
    id = ((await created.json()) as { id: string }).id;
    const form = new FormData();
    form.append('file', new Blob([SALES_CSV]), 'sales.csv');
    expect((await alice(`/api/conversations/${id}/files`, { method: 'POST', body: form })).status).toBe(201);
    for (const text of ['By region? [TABLE]', 'Keep the total. [SETUP]']) {
      const sent = await alice(`/api/conversations/${id}/messages`, jsonBody({ text }));
      await waitForTurn(a, id, ((await sent.json()) as { turnId: string }).turnId, 300_000);
    }
  }, 600_000);
  afterAll(async () => a?.close());

  it('the owner shares with a user (debug allowed), as an expiring link, and one turn; and lists them with their links', async () => {
    const withBob = await share({ user: 'bob', debug: true });
    const link = await share({ expiresInHours: 1 });
    const turn = await share({ turn: 't1' });
    Object.assign(tokens, { bobShare: withBob.token!, link: link.token!, turn: turn.token! });
    expect(withBob).toMatchObject({ status: 'live', to: { user: 'bob' }, debug: true, url: `/#/s/${withBob.token}` });
    expect(withBob).not.toHaveProperty('expiresAt');
    expect(link).toMatchObject({ to: { link: true }, debug: false });
    const listed = ((await (await alice(`/api/conversations/${id}/shares`)).json()) as { shares: Share[] }).shares;
    expect(listed.map((s) => s.id)).toEqual([withBob.id, link.id, turn.id]);
    const mine = (
      (await (await bob('/api/shared')).json()) as {
        shared: Array<{ conversationId: string; title: string; owner: string; token: string }>;
      }
    ).shared;
    expect(mine).toEqual([
      expect.objectContaining({ conversationId: id, title: 'Q3 sales', owner: 'alice', token: withBob.token }),
    ]);
    expect(((await (await carol('/api/shared')).json()) as { shared: unknown[] }).shared).toEqual([]);
  });

  it('the viewer sees the chat, its files and (when granted) the debug view, and can download the notebook', async () => {
    const view = await bob(`/api/shared/${tokens.bobShare}`);
    expect(view.status).toBe(200);
    const body = (await view.json()) as {
      share: { owner: string; readOnly: boolean };
      conversation: { messages: Array<{ role: string; text: string }>; temporalUiUrl?: string };
    };
    expect(body.share).toMatchObject({ owner: 'alice', readOnly: true });
    expect(body.conversation.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
      'By region? [TABLE]',
      'Keep the total. [SETUP]',
    ]);
    expect(body.conversation.temporalUiUrl).toBeUndefined();
    expect(await (await bob(`/api/shared/${tokens.bobShare}/files/sales.csv`)).text()).toBe(SALES_CSV);
    expect(
      ((await (await bob(`/api/shared/${tokens.bobShare}/debug`)).json()) as { steps: unknown[] }).steps.length,
    ).toBeGreaterThan(0);
    const nb = await bob(`/api/shared/${tokens.bobShare}/export?format=ipynb`);
    expect(nb.status).toBe(200);
    expect(nb.headers.get('content-disposition')).toBe(`attachment; filename="${id}.ipynb"`);
    // The event stream, as the chat view reads it.
    const controller = new AbortController();
    const stream = await bob(`/api/shared/${tokens.bobShare}/events`, { signal: controller.signal });
    const reader = stream.body!.getReader();
    let text = '';
    while (!/event: turn_ended[\s\S]*event: turn_ended/.test(text))
      text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toContain('event: grounding');
  });

  it("a link opens for any signed-in user; a user's share only for that user; nothing without sign-in", async () => {
    expect((await carol(`/api/shared/${tokens.link}`)).status).toBe(200);
    const other = await carol(`/api/shared/${tokens.bobShare}`);
    expect(other.status).toBe(403);
    expect(await errorOf(other)).toBe('this share is for another user: you are signed in as carol');
    expect((await as('nobody')(`/api/shared/${tokens.link}`)).status).toBe(401);
  });

  it('a link without the debug grant, or to one turn, shows no more than it grants; paths cannot leave the share', async () => {
    const noDebug = await carol(`/api/shared/${tokens.link}/debug`);
    expect(noDebug.status).toBe(403);
    expect(await errorOf(noDebug)).toBe('this share does not include the debug view');
    const turn = (await (await carol(`/api/shared/${tokens.turn}`)).json()) as {
      conversation: { messages: Array<{ role: string; text: string }>; files: Array<{ path: string }> };
    };
    expect(turn.conversation.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
      'By region? [TABLE]',
    ]);
    expect(turn.conversation.files.map((f) => f.path).sort()).toEqual([
      'visualization_manifest.json',
      'viz/by_region.csv',
    ]);
    expect((await carol(`/api/shared/${tokens.turn}/files/viz/by_region.csv`)).status).toBe(200);
    expect((await carol(`/api/shared/${tokens.turn}/files/sales.csv`)).status).toBe(404); // not named by that turn
    // Sent as raw paths (fetch would resolve the dot segments before sending): none reaches a file out of the workspace.
    for (const p of [
      '../conversation.json',
      '..%2Fconversation.json',
      '%2e%2e/%2e%2e/shares.json',
      '..%2F..%2Fshares.json',
      '%2Fetc%2Fpasswd',
      '../../../../etc/passwd',
    ]) {
      const res = await rawGet(`/api/shared/${tokens.link}/files/${p}`, tokens.carol);
      expect([403, 404], `${p}: ${res.status} ${res.body}`).toContain(res.status);
      expect(res.body).not.toMatch(/Q3 sales|"shares"|root:/);
    }
    const events = await carol(`/api/shared/${tokens.turn}/export?format=ipynb`);
    expect(events.headers.get('content-disposition')).toBe(`attachment; filename="${id}-t1.ipynb"`);
  });

  it('forged and malformed links are refused, and so is a link signed with another secret', async () => {
    const [body, sig] = tokens.link.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as { c: string; g: string; exp: number };
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 86_400_000 })).toString('base64url');
    const otherSecret = signShareLink(claims, 'not-the-server-secret');
    for (const forged of [`${longer}.${sig}`, `${body}.${sig.slice(0, -2)}AA`, otherSecret]) {
      const res = await carol(`/api/shared/${forged}`);
      expect(res.status, forged).toBe(403);
      expect(await errorOf(res)).toBe('this share link is not valid: it was altered, or forged');
    }
    expect((await carol('/api/shared/not-a-link')).status).toBe(403);
    // A link the server signed for a grant that does not exist (as if shares.json were edited) is not honoured either.
    const secret = readFileSync(path.join(a.env.config.server.stateDir, 'share-secret'), 'utf8').trim();
    expect((await carol(`/api/shared/${signShareLink({ ...claims, g: 'no-such-grant-0' }, secret)}`)).status).toBe(403);
  });

  it('an expired link is refused with its date', async () => {
    const short = await share({ expiresInHours: 0.0003 }); // about a second
    await new Promise((r) => setTimeout(r, 1_500));
    const res = await carol(`/api/shared/${short.token}`);
    expect(res.status).toBe(410);
    expect(await errorOf(res)).toMatch(/^this share link expired on \d{4}-\d\d-\d\dT.*: ask its owner for a new one$/);
  });

  it('the viewer cannot change the original: every state-changing route answers 404, as for an unknown conversation', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.csv');
    const attempts: Array<[string, RequestInit]> = [
      [`/api/conversations/${id}`, jsonBody({ title: 'mine now' }, 'PATCH')],
      [`/api/conversations/${id}`, { method: 'DELETE' }],
      [`/api/conversations/${id}/files`, { method: 'POST', body: form }],
      [`/api/conversations/${id}/messages`, jsonBody({ text: 'hello' })],
      [`/api/conversations/${id}/cancel`, { method: 'POST' }],
      [`/api/conversations/${id}/shares`, jsonBody({ user: 'bob' })],
      [`/api/conversations/${id}/shares`, {}],
      [`/api/conversations/${id}/shares/x`, { method: 'DELETE' }],
      [`/api/conversations/${id}`, {}],
      [`/api/conversations/${id}/export?format=ipynb`, {}],
    ];
    for (const [p, init] of attempts) expect((await bob(p, init)).status, `${init.method ?? 'GET'} ${p}`).toBe(404);
    expect(((await (await alice(`/api/conversations/${id}`)).json()) as { title: string }).title).toBe('Q3 sales');
  });

  it('the viewer forks into their own conversation (files copied, state restored) and changes only the fork', async () => {
    eventsBeforeFork = (await a.server.service.events(id)).length;
    const crossSite = await bob(`/api/shared/${tokens.bobShare}/fork`, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    const res = await bob(`/api/shared/${tokens.bobShare}/fork`, { method: 'POST' });
    expect(res.status).toBe(201);
    const fork = (await res.json()) as {
      id: string;
      owner: string;
      title: string;
      turns: number;
      forkedFrom: { id: string };
    };
    expect(fork).toMatchObject({ owner: 'bob', title: 'Q3 sales (fork)', turns: 2, forkedFrom: { id } });
    expect(await (await bob(`/api/conversations/${fork.id}/files/sales.csv`)).text()).toBe(SALES_CSV);
    expect((await alice(`/api/conversations/${fork.id}`)).status).toBe(404);
    const sent = (await (
      await bob(`/api/conversations/${fork.id}/messages`, jsonBody({ text: 'Double it. [USEVAR]' }))
    ).json()) as { turnId: string };
    expect(sent.turnId).toBe('t3');
    const events = (await waitForTurn(a, fork.id, sent.turnId, 300_000)).filter((e) => e.turnId === sent.turnId);
    const result = events.find((e) => e.type === 'tool_result')!.data;
    expect(result).toMatchObject({ ok: true, stdout: '94\n', restored: { turns: ['t1', 't2'] } });
    expect(events.at(-1)!.data.status).toBe('completed');
    expect((await a.server.service.events(id)).length).toBe(eventsBeforeFork);
    const bobs = (
      (await (await bob('/api/conversations')).json()) as { conversations: Array<{ id: string }> }
    ).conversations.map((c) => c.id);
    expect(bobs).toEqual([fork.id]);
  });

  it('a revoked share and a share of a deleted conversation are refused with their reason; the audit log names each action', async () => {
    const listed = ((await (await alice(`/api/conversations/${id}/shares`)).json()) as { shares: Share[] }).shares;
    const link = listed.find((s) => s.token === tokens.link)!;
    expect((await alice(`/api/conversations/${id}/shares/${link.id}`, { method: 'DELETE' })).status).toBe(204);
    const revoked = await carol(`/api/shared/${tokens.link}`);
    expect(revoked.status).toBe(410);
    expect(await errorOf(revoked)).toMatch(/^this share was revoked by its owner on /);
    expect((await alice(`/api/conversations/${id}/shares/${link.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await alice(`/api/conversations/${id}`, { method: 'DELETE' })).status).toBe(204);
    const deleted = await bob(`/api/shared/${tokens.bobShare}`);
    expect(deleted.status).toBe(410);
    expect(await errorOf(deleted)).toBe('the shared conversation was deleted by its owner');
    expect((await bob(`/api/shared/${tokens.bobShare}/fork`, { method: 'POST' })).status).toBe(410);
    const audit = readFileSync(path.join(a.env.config.server.stateDir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; user?: string });
    const actions = (name: string) => audit.filter((e) => e.action === name).map((e) => e.user);
    expect(actions('share')).toEqual(['alice', 'alice', 'alice', 'alice']);
    expect(actions('unshare')).toEqual(['alice']);
    expect(actions('fork')).toEqual(['bob']);
    expect(actions('view_shared')).toEqual(expect.arrayContaining(['bob', 'carol']));
    expect(audit.filter((e) => e.action === 'denied').length).toBeGreaterThanOrEqual(6);
  });

  it('refuses bad share requests: yourself, too long, an unknown turn, unknown fields', async () => {
    const other = await alice('/api/conversations', jsonBody({ title: 'other', pattern: 'react' }));
    const otherId = ((await other.json()) as { id: string }).id;
    const bad = async (body: Record<string, unknown>) => {
      const res = await alice(`/api/conversations/${otherId}/shares`, jsonBody(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      return errorOf(res);
    };
    expect(await bad({ user: 'alice' })).toBe('you cannot share a conversation with yourself');
    expect(await bad({ expiresInHours: 10_000 })).toBe('expiresInHours may be at most 720');
    expect(await bad({ turn: 't1' })).toMatch(/has no ended turn t1 to share/);
    expect(await bad({ role: 'admin' })).toMatch(/invalid body/);
  });
});
