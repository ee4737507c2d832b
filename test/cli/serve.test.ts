import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/exitCodes';
import { runCli } from '../helpers/cliProcess';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';
import { waitUntil } from '../helpers/wait';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `sheetbench serve` and `sheetbench auth` as an operator runs them: the token, the login URL, the refusals. */
describe('sheetbench serve and auth from the command line', () => {
  let temporal: TestTemporal;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const tokenFile = () => path.join(work, 'state', 'token');

  beforeAll(async () => {
    temporal = await startTestTemporal();
    work = mkdtempSync(path.join(os.tmpdir(), 'sb-serve-'));
    const configFile = path.join(work, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        server: { stateDir: path.join(work, 'state') },
        conversation: { dir: path.join(work, 'conversations') },
      }),
    );
    env = {
      ...process.env,
      SHEETBENCH_CONFIG: configFile,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporal.namespace,
      SHEETBENCH_TOKEN: '',
    };
  }, 120_000);
  afterAll(async () => temporal?.stop());

  /** Starts `serve`, waits for its login line, and returns the printed URL; `stop` sends SIGTERM and waits. */
  async function serve(args: string[] = []) {
    const child = spawn(path.join(REPO, 'bin/sheetbench'), ['serve', '--port', '0', '--no-worker', ...args], {
      cwd: work,
      env,
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await waitUntil(
      async () => /sign in by opening: \S+|sign-in is OFF[^\n]*\n[\s\S]*web app on \S+/.test(stderr),
      60_000,
      `serve to print its login URL (stderr so far: ${stderr})`,
    );
    const loginUrl = /sign in by opening: (\S+)/.exec(stderr)?.[1];
    const base = /web app on (http:\/\/\S+?)\//.exec(stderr)![1];
    return { loginUrl, base, stderr: () => stderr, stop: async () => (child.kill('SIGTERM'), exited) };
  }

  it('creates a token (mode 0600), prints the login URL with it, and reuses it after a restart', async () => {
    const first = await serve();
    const token = readFileSync(tokenFile(), 'utf8').trim();
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    expect(first.stderr()).toContain(`created the sign-in token in ${tokenFile()}`);
    expect(first.loginUrl).toBe(`${first.base}/?token=${encodeURIComponent(token)}`);
    expect((await fetch(`${first.base}/api/conversations`)).status).toBe(401);
    expect(
      (await fetch(`${first.base}/api/conversations`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    await first.stop();
    const again = await serve();
    expect(again.stderr()).toContain(`using the sign-in token in ${tokenFile()}`);
    expect(again.loginUrl).toContain(encodeURIComponent(token));
    await again.stop();
  }, 120_000);

  it('auth rotate-token replaces it; the old one stops working; --token and SHEETBENCH_TOKEN override the file', async () => {
    const before = readFileSync(tokenFile(), 'utf8').trim();
    const rotated = await runCli(['auth', 'rotate-token'], { cwd: work, env });
    expect(rotated.code).toBe(0);
    const token = rotated.stdout.trim();
    expect(token).not.toBe(before);
    expect(readFileSync(tokenFile(), 'utf8').trim()).toBe(token);
    const server = await serve();
    expect(
      (await fetch(`${server.base}/api/conversations`, { headers: { authorization: `Bearer ${before}` } })).status,
    ).toBe(401);
    expect(
      (await fetch(`${server.base}/api/conversations`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    await server.stop();
    const given = 'a-token-given-on-the-command-line-0123';
    const flagged = await serve(['--token', given]);
    expect(flagged.loginUrl).toContain(given);
    await flagged.stop();
    const fromEnv = 'a-token-from-the-environment-0123456';
    const saved = env.SHEETBENCH_TOKEN;
    env.SHEETBENCH_TOKEN = fromEnv;
    const envServer = await serve();
    env.SHEETBENCH_TOKEN = saved;
    expect(envServer.loginUrl).toContain(fromEnv);
    await envServer.stop();
  }, 120_000);

  it('users: add-user prints a token once and lists the role; the file holds only its hash', async () => {
    const added = await runCli(['auth', 'add-user', 'alice', '--role', 'operator'], { cwd: work, env });
    expect(added.code).toBe(0);
    const token = added.stdout.trim();
    expect(added.stderr).toContain('the token above is shown only now');
    const file = readFileSync(path.join(work, 'state', 'users.json'), 'utf8');
    expect(file).not.toContain(token);
    expect((await runCli(['auth', 'users'], { cwd: work, env })).stdout).toBe('alice\toperator\n');
    const server = await serve();
    const session = await fetch(`${server.base}/api/session`, { headers: { authorization: `Bearer ${token}` } });
    expect(await session.json()).toMatchObject({ user: { name: 'alice', role: 'operator', via: 'bearer' } });
    await server.stop();
    expect((await runCli(['auth', 'add-user', 'bob', '--role', 'king'], { cwd: work, env })).code).toBe(EXIT.usage);
  }, 120_000);

  it('refuses to start where it would be open or broken, naming the cause (exit 3), before it starts anything', async () => {
    const open = await runCli(['serve', '--no-auth', '--host', '0.0.0.0', '--port', '0', '--no-worker'], {
      cwd: work,
      env,
    });
    expect(open.code).toBe(EXIT.config);
    expect(open.stderr).toMatch(/--no-auth is allowed only on a loopback address/);
    const short = await runCli(['serve', '--token', 'abc', '--port', '0', '--no-worker'], { cwd: work, env });
    expect(short.code).toBe(EXIT.config);
    expect(short.stderr).toMatch(/3 characters; it needs at least 24/);
    chmodSync(tokenFile(), 0o644);
    const readable = await runCli(['serve', '--port', '0', '--no-worker'], { cwd: work, env });
    chmodSync(tokenFile(), 0o600);
    expect(readable.code).toBe(EXIT.config);
    expect(readable.stderr).toContain(`${tokenFile()} has mode 644`);
    expect(readable.stderr).toMatch(/chmod 600/);
    writeFileSync(path.join(work, 'state', 'users.json'), '{"users": [', { mode: 0o600 });
    const broken = await runCli(['serve', '--port', '0', '--no-worker'], { cwd: work, env });
    expect(broken.code).toBe(EXIT.config);
    expect(broken.stderr).toMatch(/users file .*users\.json is not valid JSON/);
    rmSync(path.join(work, 'state', 'users.json'));
  }, 120_000);

  it('--no-auth on loopback says so when it starts', async () => {
    const server = await serve(['--no-auth', '--host', '127.0.0.1']);
    expect(server.stderr()).toMatch(/sign-in is OFF \(--no-auth\)/);
    expect(server.loginUrl).toBeUndefined();
    expect((await fetch(`${server.base}/api/conversations`)).status).toBe(200);
    await server.stop();
  }, 120_000);
});
