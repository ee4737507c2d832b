import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docker-compose.yml is validated by Debian's docker-compose (installed by scripts/setup.d/compose.sh), which needs
// no Docker engine, and must describe the same server as scripts/cluster.sh.
const ROOT = path.resolve(import.meta.dirname, '../..');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');

function compose(file: string, ...args: string[]) {
  const r = spawnSync('docker-compose', ['-f', file, 'config', ...args], { encoding: 'utf8', cwd: ROOT });
  if (r.error)
    throw new Error(`docker-compose is not installed (scripts/setup.d/compose.sh installs it): ${r.error.message}`);
  return r;
}

/** The normalized file as JSON (PyYAML ships with docker-compose). */
function normalized(file: string): {
  services: Record<string, { image?: string; command?: string[]; build?: { args?: Record<string, string> } }>;
} {
  const yaml = compose(file).stdout;
  const r = spawnSync('python3', ['-c', 'import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'], {
    input: yaml,
    encoding: 'utf8',
  });
  return JSON.parse(r.stdout);
}

function clusterScriptPin(name: string): string {
  const m = new RegExp(`^${name}=([\\w.]+)`, 'm').exec(readFileSync(path.join(ROOT, 'scripts/cluster.sh'), 'utf8'));
  if (!m) throw new Error(`scripts/cluster.sh has no ${name}=`);
  return m[1];
}

function brokenCopy(edit: (text: string) => string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'compose-')), 'docker-compose.yml');
  const original = readFileSync(COMPOSE_FILE, 'utf8');
  const text = edit(original);
  expect(text).not.toBe(original);
  writeFileSync(file, text);
  return file;
}

describe('docker-compose.yml', () => {
  it('is a valid compose file', () => {
    const r = compose(COMPOSE_FILE, '-q');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('runs the versions and the server config that scripts/cluster.sh runs here', () => {
    const { services } = normalized(COMPOSE_FILE);
    const server = clusterScriptPin('TEMPORAL_SERVER_VERSION');
    expect(services['temporal-schema'].build?.args?.TEMPORAL_SERVER_VERSION).toBe(server);
    expect(services.temporal.image).toBe(services['temporal-schema'].image);
    expect(services.temporal.image).toMatch(new RegExp(`:${server}$`));
    expect(services.temporal.command?.join(' ')).toContain('--config-file lib/temporal/cluster/server.yaml');
    expect(services['temporal-db'].image).toBe(`postgres:${clusterScriptPin('PG_VERSION')}`);
    expect(services['temporal-ui'].image).toBe(`temporalio/ui:${clusterScriptPin('UI_SERVER_VERSION')}`);
  });

  it.each([
    ['a wrong type', (t: string) => t.replace('- "17233:17233"', '17233'), /ports contains an invalid type/],
    ['an unknown key', (t: string) => t.replace('  temporal-db:\n', '  temporal-db:\n    bogus_key: 1\n'), /bogus_key/],
    ['an undefined dependency', (t: string) => t.replace('depends_on: [temporal]', 'depends_on: [nosuch]'), /nosuch/],
  ])('is refused when it has %s', (_name, edit, message) => {
    const r = compose(brokenCopy(edit), '-q');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });
});
