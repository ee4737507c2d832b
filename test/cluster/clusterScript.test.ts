import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLUSTER_SKIP_REASON, onCluster } from '../helpers/cluster';

// Bad input for scripts/cluster.sh, on the live cluster (opt-in, SHEETBENCH_CLUSTER=1; run it alone: it stops things).
// Each case breaks one thing, checks the message names the cause, and `up` repairs it afterwards.
const ROOT = path.resolve(import.meta.dirname, '../..');
const PG = {
  bin: '/usr/lib/postgresql/15/bin',
  data: path.join(ROOT, '.state/cluster/pg/data'),
  socket: path.join(ROOT, '.state/cluster/pg'),
  port: '55432',
};

function cluster(...args: string[]) {
  return spawnSync(path.join(ROOT, 'scripts/cluster.sh'), args, { cwd: ROOT, encoding: 'utf8' });
}
function asPostgres(cmd: string, ...args: string[]) {
  const r = spawnSync('runuser', ['-u', 'postgres', '--', path.join(PG.bin, cmd), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  return r.stdout;
}
function sqlOnTemporalDb(sql: string): string {
  return asPostgres('psql', '-h', PG.socket, '-p', PG.port, '-U', 'postgres', '-d', 'temporal', '-qtAc', sql).trim();
}

describe.skipIf(!onCluster)(
  `scripts/cluster.sh names the cause${onCluster ? '' : ` (skipped: ${CLUSTER_SKIP_REASON})`}`,
  () => {
    afterEach(() => {
      const up = cluster('up');
      expect(up.status, up.stderr).toBe(0);
    }, 180_000);

    it('PostgreSQL down: the server is not started, and the message says why', () => {
      asPostgres('pg_ctl', '-D', PG.data, '-m', 'fast', '-w', 'stop');
      const status = cluster('status');
      expect(status.status).not.toBe(0);
      expect(status.stdout).toContain('PostgreSQL: stopped');
      const r = cluster('restart-server');
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/PostgreSQL is not accepting connections on 127\.0\.0\.1:55432/);
    }, 120_000);

    it('a schema older than the server: the start-up failure is reported as such', () => {
      const actual = sqlOnTemporalDb("SELECT curr_version FROM schema_version WHERE db_name = 'temporal'");
      sqlOnTemporalDb("UPDATE schema_version SET curr_version = '1.0' WHERE db_name = 'temporal'");
      try {
        const r = cluster('restart-server');
        expect(r.status).not.toBe(0);
        expect(r.stderr).toMatch(
          /database schema is older than Temporal server v1\.32\.1 .*Expected version: \S+ cannot be greater than Actual version: 1\.0/,
        );
      } finally {
        // Put the real version back: `up` would otherwise re-apply every migration since 1.0 onto existing tables.
        sqlOnTemporalDb(`UPDATE schema_version SET curr_version = '${actual}' WHERE db_name = 'temporal'`);
      }
    }, 120_000);
  },
);
