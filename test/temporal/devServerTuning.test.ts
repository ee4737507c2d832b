import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { devServerConfigSchema, configSchema } from '../../config/schema';
import { devServerArgs } from '../../lib/temporal/devServer';
import { onCluster } from '../helpers/cluster';
import { alive, waitUntil } from '../helpers/wait';
import { connectClient } from '../../lib/temporal/connection';
import { startTestTemporal, TEST_NAMESPACE, type TestTemporal } from '../helpers/temporalServer';

const base = { stateDir: '/tmp/x', port: 1, uiPort: 2, namespace: 'ns', retentionDays: 1 };
const flagValues = (args: string[], flag: string) => args.flatMap((a, i) => (args[i - 1] === flag ? [a] : []));

describe('the embedded dev server is started with the configured tuning', () => {
  it('by default: eager activities on, SQLite in WAL mode with synchronous=normal', () => {
    const args = devServerArgs({ ...base, tuning: configSchema.parse({}).temporal.devServer });
    expect(flagValues(args, '--dynamic-config-value')).toContain('system.enableActivityEagerExecution=true');
    expect(flagValues(args, '--sqlite-pragma')).toEqual(['journal_mode=wal', 'synchronous=normal']);
    expect(devServerArgs(base)).toEqual(args);
  });

  it('both can be turned off', () => {
    const args = devServerArgs({
      ...base,
      tuning: devServerConfigSchema.parse({ eagerActivities: false, sqlitePragmas: {} }),
    });
    expect(flagValues(args, '--dynamic-config-value')).toContain('system.enableActivityEagerExecution=false');
    expect(args).not.toContain('--sqlite-pragma');
  });

  it('passes further dynamic config values as JSON', () => {
    const args = devServerArgs({
      ...base,
      tuning: devServerConfigSchema.parse({
        dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 40, 'a.b': 'x' },
      }),
    });
    expect(flagValues(args, '--dynamic-config-value')).toEqual(
      expect.arrayContaining(['limit.historyCount.suggestContinueAsNew=40', 'a.b="x"']),
    );
    expect(() => devServerConfigSchema.parse({ dynamicConfig: { 'a b': 1 } })).toThrow();
  });

  it('a pragma that is not a plain name=value is refused by the config', () => {
    expect(() => devServerConfigSchema.parse({ sqlitePragmas: { journal_mode: 'wal; drop table x' } })).toThrow();
  });
});

describe.skipIf(onCluster)('a test server (started as the CLI starts one)', () => {
  let temporal: TestTemporal | undefined;
  afterAll(async () => temporal?.stop());

  it('keeps its SQLite state in WAL mode', async () => {
    temporal = await startTestTemporal({ own: true });
    expect(existsSync(path.join(temporal.stateDir, 'temporal.db-wal'))).toBe(true);
  }, 120_000);

  it('loses nothing it acknowledged when killed with kill -9 (WAL + synchronous=normal)', async () => {
    temporal ??= await startTestTemporal({ own: true });
    let client = await connectClient({ address: temporal.address, namespace: TEST_NAMESPACE });
    // No worker serves this type: the server just records the start and every signal it acknowledges.
    const handle = await client.workflow.start('noWorkerServesThis', {
      taskQueue: `nobody-${Date.now()}`,
      workflowId: `durability-${Date.now()}`,
    });
    for (let i = 0; i < 20; i++) await handle.signal('acknowledged', i);
    await client.connection.close();
    const pid = temporal.server.pid;
    process.kill(pid, 'SIGKILL');
    await waitUntil(() => !alive(pid), 30_000, `the killed server (pid ${pid}) to exit`);
    await temporal.restart();
    client = await connectClient({ address: temporal.address, namespace: TEST_NAMESPACE });
    const history = await client.workflow.getHandle(handle.workflowId).fetchHistory();
    const signals = (history.events ?? []).filter(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'acknowledged',
    );
    await client.connection.close();
    expect(signals).toHaveLength(20);
  }, 180_000);
});
