import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setupVerificationProblem } from '../../cli/doctor/model';
import { workbookText } from '../../benchmarks/dsbench/workbookText';
import { DatasetError } from '../../lib/runStore/taskRecord';
import type { Sandbox } from '../../lib/sandbox/types';
import { lockOwner, withFileMutex } from '../../lib/llm/fileMutex';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'boundary-read-'));

describe("doctor: set-up's .verified stamp beside a model", () => {
  const SHA = 'a'.repeat(64);
  function model(): string {
    const file = path.join(tmp(), 'm.gguf');
    writeFileSync(file, 'GGUF....');
    return file;
  }
  const stampOf = (file: string) => ({
    sha256: SHA,
    bytes: statSync(file).size,
    mtime: String(statSync(file, { bigint: true }).mtimeNs),
  });

  it('holds with a valid stamp (extra fields of another version kept)', () => {
    const file = model();
    writeFileSync(`${file}.verified`, JSON.stringify({ ...stampOf(file), tool: 'fetch-model.py' }));
    expect(setupVerificationProblem(file, SHA)).toBeUndefined();
  });
  it('says "not verified" without a stamp', () => {
    expect(setupVerificationProblem(model(), SHA)).toMatch(/was not verified by set-up/);
  });
  it('names a corrupt stamp and its problem, not "not verified"', () => {
    const file = model();
    writeFileSync(`${file}.verified`, JSON.stringify({ ...stampOf(file), bytes: 'many' }));
    const problem = setupVerificationProblem(file, SHA);
    expect(problem).toContain(`${file}.verified`);
    expect(problem).toMatch(/bytes/);
    writeFileSync(`${file}.verified`, '{"sha256": "aa');
    expect(setupVerificationProblem(file, SHA)).toMatch(/m\.gguf\.verified: not valid JSON/);
  });
  it('says a file changed since its stamp', () => {
    const file = model();
    writeFileSync(`${file}.verified`, JSON.stringify({ ...stampOf(file), sha256: 'b'.repeat(64) }));
    expect(setupVerificationProblem(file, SHA)).toMatch(/changed since set-up/);
  });
});

describe("DSBench workbook text: the sandbox script's dsbench_error.json", () => {
  /** A sandbox whose script run leaves `errorJson` as dsbench_error.json (what workbook_text.py writes on failure). */
  function sandboxWriting(errorJson: string) {
    return (workDir: string): Promise<Sandbox> =>
      Promise.resolve({
        backend: 'process',
        workDirInside: workDir,
        execute: async () => {
          await writeFile(path.join(workDir, 'dsbench_error.json'), errorJson);
          return { stdout: '', stderr: '', error: '', timedOut: false } as never;
        },
        writeFile: () => Promise.resolve(),
        readFile: () => Promise.resolve(Buffer.alloc(0)),
        reset: () => Promise.resolve(),
        dispose: () => Promise.resolve(),
      } as unknown as Sandbox);
  }
  function run(errorJson: string) {
    const dir = tmp();
    writeFileSync(path.join(dir, 'a.xlsx'), 'PK\u0003\u0004');
    return workbookText({
      competitionId: 'comp-7',
      dir,
      workbooks: ['a.xlsx'],
      workDir: path.join(tmp(), 'work'),
      sandbox: sandboxWriting(errorJson),
      timeoutMs: 1000,
    });
  }
  it('turns a valid error report into the competition dataset error', async () => {
    const err = await run(JSON.stringify({ file: 'a.xlsx', error: 'bad zip' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toMatch(/competition comp-7: workbook a\.xlsx cannot be read.*bad zip/);
  });
  it('names the competition and the file when the report is corrupt', async () => {
    await expect(run(JSON.stringify({ file: 3 }))).rejects.toThrow(/competition comp-7: .*dsbench_error\.json.*file/);
    await expect(run('{"file": "a.x')).rejects.toThrow(/competition comp-7: .*dsbench_error\.json: not valid JSON/);
  });
});

describe('file mutex: the lock owner another process wrote', () => {
  it('reads an owner, and a half-written one as no owner (not an error)', () => {
    expect(lockOwner(JSON.stringify({ pid: 12, host: 'h', since: 1 }))).toMatchObject({ pid: 12, host: 'h' });
    expect(lockOwner('{"pid": 1')).toBeUndefined();
    expect(lockOwner('{"pid": "12"}')).toBeUndefined();
  });
  it('breaks a lock whose owner on this host is dead', async () => {
    const lock = path.join(tmp(), 'l.lock');
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname() }));
    expect(await withFileMutex(lock, () => Promise.resolve(readFileSync(lock, 'utf8')))).toContain(String(process.pid));
  });
});
