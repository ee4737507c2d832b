import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevServerStartError, ensureDevServer } from '../../lib/temporal/devServer';
import { freePort } from '../helpers/temporalServer';

describe('dev server start-up failure', () => {
  let squatter: net.Server;
  let takenPort: number;
  beforeAll(async () => {
    squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    takenPort = (squatter.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => squatter.close(() => resolve())));

  it('names the cause from the server log (a port in use) instead of pointing at the state folder', async () => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'sb-devstart-'));
    const start = ensureDevServer({
      stateDir,
      port: await freePort(),
      uiPort: takenPort,
      namespace: 'sheetbench-test',
      retentionDays: 1,
      detached: false,
    });
    const err = await start.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DevServerStartError);
    expect((err as DevServerStartError).takenPort).toBe(takenPort);
    expect((err as Error).message).toContain(`${takenPort}`);
    expect((err as Error).message).toMatch(/address already in use/);
    expect((err as Error).message).toContain(path.join(stateDir, 'temporal.log'));
  }, 60_000);
});
