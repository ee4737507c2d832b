import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { registerReportCommand } from '../../cli/commands/report';
import { CliError, EXIT } from '../../cli/exitCodes';
import { baselineRun, buildRunFolder, makeTempDir, standardRun } from './fixtures';

function program(): Command {
  const p = new Command().exitOverride();
  registerReportCommand(p);
  return p;
}

describe('sheetbench report', () => {
  it('writes report.md, report.html, transcript pages and the Inspect log (with --compare and --out)', async () => {
    const tmp = await makeTempDir();
    const runDir = await buildRunFolder(tmp, standardRun());
    const baseDir = await buildRunFolder(tmp, baselineRun());
    const out = path.join(tmp, 'out');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await program().parseAsync(['node', 'sheetbench', 'report', runDir, '--compare', baseDir, '--out', out]);
    log.mockRestore();
    for (const f of ['report.md', 'report.html', 'tasks/13-1/transcript.html']) await access(path.join(out, f));
    expect(await readFile(path.join(out, 'report.md'), 'utf8')).toContain('## Comparison with run-base');
    // the transcript page links back to the run's own transcript.json
    const page = await readFile(path.join(out, 'tasks/101/transcript.html'), 'utf8');
    expect(page).toContain('href="../../../run-a/tasks/101/transcript.json"');
  });

  it('fails with exit code notFound for a folder that is not a run', async () => {
    const missing = path.join(await makeTempDir(), 'runs', 'nope');
    const err = await program()
      .parseAsync(['node', 'sheetbench', 'report', missing])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.notFound);
    expect((err as Error).message).toContain(`${path.join(missing, 'run.json')}: file is missing`);
  });

  it('fails with a message naming the broken file', async () => {
    const runDir = await buildRunFolder(await makeTempDir(), standardRun());
    await writeFile(
      path.join(runDir, 'run.json'),
      JSON.stringify({ runId: 'x', agent: 'single', model: 'm', createdAt: 'yesterday' }),
    );
    const err = await program()
      .parseAsync(['node', 'sheetbench', 'report', runDir])
      .catch((e: unknown) => e);
    expect((err as CliError).exitCode).toBe(EXIT.failure);
    expect((err as Error).message).toMatch(/run\.json: unexpected content: .*setting: Invalid input/);
  });
});
