/**
 * Docker backend against a fake Docker Engine API (no engine runs on this machine): asserts the request sequence and
 * the hardening options, and runs real kernel round trips through the hijacked attach stream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxFactory, SandboxUnavailableError } from '../../lib/sandbox/index';
import { kernelScriptPath } from '../../lib/sandbox/paths';
import { FakeDockerEngine } from './fakeDockerEngine';
import { testConfig } from './helpers';

describe('docker backend (fake Engine API)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-docker-'));
  const engine = new FakeDockerEngine(join(dir, 'docker.sock'));
  const workDir = join(dir, 'work');

  beforeAll(() => engine.listen());
  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('auto picks docker when the engine answers ping, and runs a persistent kernel in a hardened container', async () => {
    const factory = await createSandboxFactory(testConfig('auto'), {
      dockerSocketPath: engine.socketPath,
      warmModules: [],
    });
    expect(factory.backend).toBe('docker');
    const sb = await factory.create({ workDir, limits: { memoryMiB: 1024, maxProcesses: 32 } });
    expect(sb.workDirInside).toBe('/job');
    await sb.execute('x = 20');
    const r = await sb.execute('import os\nos.system("echo from-subprocess")\nprint("hi")\nx + 1');
    expect(r.stdout).toBe('hi\n21\n');
    expect(r.stderr).toContain('from-subprocess'); // protocol is on stdout, so user fd output goes to stderr
    expect((await sb.execute('1/0')).error).toContain('ZeroDivisionError');
    await sb.dispose();

    const sequence = engine.requests.map((r) => `${r.method} ${r.path}`).filter((s) => !s.endsWith('/_ping'));
    expect(sequence).toEqual([
      'POST /containers/create',
      'POST /containers/c1/attach',
      'POST /containers/c1/start',
      'POST /containers/c1/wait',
      'POST /containers/c1/kill',
      'DELETE /containers/c1',
    ]);
    const opts = engine.created[0];
    expect(opts).toMatchObject({
      Image: 'sheetbench-sandbox:test',
      Cmd: ['python3', '/opt/sheetbench/kernel.py', '1'],
      User: '1000:1000',
      WorkingDir: '/job',
      NetworkDisabled: true,
      OpenStdin: true,
      HostConfig: {
        NetworkMode: 'none',
        Memory: 1024 * 1024 * 1024,
        MemorySwap: 1024 * 1024 * 1024,
        NanoCpus: 1e9,
        PidsLimit: 32,
        ReadonlyRootfs: true,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Init: true,
        Tmpfs: { '/tmp': 'rw,size=64m,mode=1777' },
        Binds: [`${workDir}:/job:rw`, `${kernelScriptPath}:/opt/sheetbench/kernel.py:ro`],
      },
    });
    expect(opts.Env).toContain('OPENBLAS_NUM_THREADS=1');
    expect(opts.Env.join(' ')).not.toContain('OPENAI');
  });

  it('a hard timeout kills the container and starts a new one (state reset)', async () => {
    engine.requests.length = 0;
    const factory = await createSandboxFactory(testConfig('docker'), {
      dockerSocketPath: engine.socketPath,
      warmModules: [],
    });
    const sb = await factory.create({ workDir });
    await sb.execute('keep = 1');
    // Long enough for the code to ignore the alarm before it fires, on a loaded machine too.
    const r = await sb.execute('import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True: pass', {
      timeoutMs: 2_000,
    });
    expect(r).toMatchObject({ timedOut: true, stateReset: true });
    expect((await sb.execute('"keep" in globals()')).stdout).toBe('False\n');
    await sb.dispose();
    const creates = engine.requests.filter((q) => q.path === '/containers/create').length;
    expect(creates).toBe(2);
    expect(engine.requests.some((q) => q.method === 'POST' && q.path.endsWith('/kill'))).toBe(true);
  });

  it('backend "docker" without an engine is a clear error', async () => {
    await expect(
      createSandboxFactory(testConfig('docker'), { dockerSocketPath: join(dir, 'none.sock') }),
    ).rejects.toBeInstanceOf(SandboxUnavailableError);
  });
});
