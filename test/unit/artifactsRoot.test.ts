import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactsRootError, fromPayloadPath, toPayloadPath } from '../../lib/runStore/artifactsRoot';

describe('artifacts root: run folders travel relative to a root each worker configures', () => {
  it("a folder inside the root travels relative, with / separators, and resolves under another host's root", () => {
    const payload = toPayloadPath('/srv/store/runs/team-a/run-1', '/srv/store/runs');
    expect(payload).toBe('team-a/run-1');
    expect(fromPayloadPath(payload, '/mnt/nfs/runs')).toBe('/mnt/nfs/runs/team-a/run-1');
    expect(fromPayloadPath(`${payload}/outputs/single_m/1_7_output.xlsx`, '/mnt/nfs/runs/')).toBe(
      '/mnt/nfs/runs/team-a/run-1/outputs/single_m/1_7_output.xlsx',
    );
  });

  it('a relative root is taken from the working directory', () => {
    expect(toPayloadPath(path.resolve('runs/r9'), 'runs')).toBe('r9');
    expect(fromPayloadPath('r9', 'runs')).toBe(path.resolve('runs/r9'));
  });

  it('folders outside the root, and every path when no root is set, travel absolute (as before roots)', () => {
    expect(toPayloadPath('/tmp/elsewhere/run-2', '/srv/store/runs')).toBe('/tmp/elsewhere/run-2');
    expect(toPayloadPath('/srv/store/runs', '/srv/store/runs')).toBe('/srv/store/runs');
    expect(toPayloadPath('/srv/store/runs-old/r', '/srv/store/runs')).toBe('/srv/store/runs-old/r');
    expect(toPayloadPath('/srv/store/runs/r', undefined)).toBe('/srv/store/runs/r');
  });

  it('absolute payload paths (histories recorded before roots) are used unchanged by any worker', () => {
    expect(fromPayloadPath('/home/u/runs/run-old', '/mnt/nfs/runs')).toBe('/home/u/runs/run-old');
    expect(fromPayloadPath('/home/u/runs/run-old', undefined)).toBe('/home/u/runs/run-old');
  });

  it('a Windows recalc worker joins the POSIX-relative path onto a UNC share or a drive with Windows separators', () => {
    const rel = 'team-a/run-1/outputs/single_gpt-4o/1_13284_output.xlsx';
    expect(fromPayloadPath(rel, '\\\\fileserver\\bench\\runs')).toBe(
      '\\\\fileserver\\bench\\runs\\team-a\\run-1\\outputs\\single_gpt-4o\\1_13284_output.xlsx',
    );
    expect(fromPayloadPath(rel, 'R:\\runs')).toBe(
      'R:\\runs\\team-a\\run-1\\outputs\\single_gpt-4o\\1_13284_output.xlsx',
    );
    expect(fromPayloadPath(rel, 'R:/runs')).toBe(
      'R:\\runs\\team-a\\run-1\\outputs\\single_gpt-4o\\1_13284_output.xlsx',
    );
    // A run started on Windows inside its root travels with / separators too.
    expect(toPayloadPath('R:\\runs\\team-a\\run-1', 'R:\\runs')).toBe('team-a/run-1');
  });

  it('refuses a relative path without a root, or one that climbs out of the root, naming the cause', () => {
    expect(() => fromPayloadPath('run-1', undefined)).toThrow(ArtifactsRootError);
    expect(() => fromPayloadPath('run-1', undefined)).toThrow(/SHEETBENCH_ARTIFACTS_ROOT/);
    expect(() => fromPayloadPath('../etc/run-1', '/srv/runs')).toThrow(/leaves the artifacts root/);
  });
});
