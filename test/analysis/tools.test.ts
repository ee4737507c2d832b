import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ANALYSIS_TOOLS, runTool, toolSpecs } from '../../analysis/tools/index';
import { makeWorkspace, testAnalysisConfig, toolContext } from './helpers';

describe('analysis tool registry', () => {
  const env = makeWorkspace();
  const ctx = toolContext(env.workspaceDir);
  afterAll(() => env.cleanup());

  it('exposes the five tools as OpenAI function specs with JSON schemas from zod', () => {
    expect(ANALYSIS_TOOLS.map((t) => t.name)).toEqual([
      'python_execute',
      'node_execute',
      'file_system',
      'web_fetch',
      'calculator',
    ]);
    const specs = toolSpecs();
    expect(specs).toHaveLength(5);
    const py = specs.find((s) => s.function.name === 'python_execute')!;
    expect(py.type).toBe('function');
    expect(py.function.parameters).toMatchObject({
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string' }, packages: { type: 'array' } },
    });
    expect(py.function.parameters).not.toHaveProperty('$schema');
    const fetch = toolSpecs(['web_fetch'])[0];
    expect(fetch.function.parameters).toMatchObject({
      properties: { type: { enum: ['html', 'json', 'text', 'file'] } },
      required: ['url'],
    });
    expect(() => toolSpecs(['rm_rf'])).toThrow(/unknown analysis tool "rm_rf"/);
  });

  it('turns model mistakes into ok:false messages, never exceptions', async () => {
    expect(await runTool('shell', { cmd: 'ls' }, ctx)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/unknown tool "shell"; available tools: python_execute/),
    });
    expect(await runTool('calculator', '{"expression": ', ctx)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not valid JSON/),
    });
    expect(await runTool('calculator', { expr: '1+1' }, ctx)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/invalid arguments for calculator:.*expression/s),
    });
    expect(await runTool('file_system', { action: 'delete', path: 'x' }, ctx)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/action/),
    });
    const ok = await runTool('calculator', '{"expression": "1+1"}', ctx);
    expect(ok).toMatchObject({ ok: true, result: { result: '2', value: 2 } });
    expect(ok.durationMs).toBeGreaterThanOrEqual(0);
  });
});

describe('calculator', () => {
  const ctx = toolContext('/nonexistent');
  const calc = (expression: string) => runTool('calculator', { expression }, ctx);

  it('does arithmetic, statistics and units', async () => {
    expect((await calc('(2 + 3) * 4 / 5')).result).toMatchObject({ value: 4 });
    expect((await calc('mean([2, 4, 4, 4, 5, 5, 7, 9])')).result).toMatchObject({ value: 5 });
    expect((await calc('std([2, 4, 4, 4, 5, 5, 7, 9], "uncorrected")')).result).toMatchObject({ value: 2 });
    expect((await calc('median([3, 1, 2])')).result).toMatchObject({ value: 2 });
    expect((await calc('5 km to mile')).result).toMatchObject({ result: '3.1068559611867 mile' });
    expect((await calc('100 degF to degC')).result).toMatchObject({
      result: expect.stringMatching(/^37\.77777777777\d* degC$/),
    });
    expect((await calc('a = 3; b = 4; sqrt(a^2 + b^2)')).result).toMatchObject({ value: 5 });
  });

  it('refuses the functions mathjs documents as unsafe, and survives expressions too big for memory', async () => {
    for (const expression of [
      'import({x: 1}, {override: true})',
      'createUnit("foo")',
      'evaluate("1+1")',
      'parse("1+1")',
      'simplify("x+x")',
      'derivative("x^2", "x")',
    ]) {
      const out = await calc(expression);
      expect(out.ok, expression).toBe(false);
      expect(out.error).toMatch(/is disabled in the calculator/);
    }
    expect((await calc('ones([20000, 20000])')).error).toMatch(/needs more than 128 MB and was stopped/);
    expect((await calc('2 + 2')).result).toMatchObject({ value: 4 }); // a new evaluation thread took over
    expect((await calc('1 +')).error).toMatch(/could not evaluate/);
    expect((await calc('f(x) = x^2')).error).toMatch(/function, not a value/);
  });
});

describe('file_system', () => {
  const env = makeWorkspace();
  const ctx = toolContext(env.workspaceDir, testAnalysisConfig({ workspaceMaxBytes: 1000, maxReturnChars: 50 }));
  const fs = (args: Record<string, unknown>) => runTool('file_system', args, ctx);
  afterAll(() => env.cleanup());
  mkdirSync(join(env.workspaceDir, 'data'));
  writeFileSync(join(env.workspaceDir, 'data/a.csv'), 'x,y\n1,2\n');
  symlinkSync(env.secretPath, join(env.workspaceDir, 'leak.txt'));
  symlinkSync(env.root, join(env.workspaceDir, 'up'));

  it('reads, writes, lists and checks files inside the workspace', async () => {
    expect((await fs({ action: 'read', path: 'data/a.csv' })).result).toMatchObject({
      content: 'x,y\n1,2\n',
      size: 8,
      truncated: false,
    });
    expect((await fs({ action: 'write', path: 'notes/summary.txt', content: 'hello' })).result).toMatchObject({
      file: { filename: 'summary.txt', path: 'notes/summary.txt', type: 'txt', size: 5 },
    });
    expect(readFileSync(join(env.workspaceDir, 'notes/summary.txt'), 'utf8')).toBe('hello');
    const listed = (await fs({ action: 'list', path: '.' })).result as { files: Array<{ path: string }> };
    expect(listed.files.map((f) => f.path)).toEqual(['data/a.csv', 'notes/summary.txt']);
    expect((await fs({ action: 'exists', path: 'data' })).result).toMatchObject({ exists: true, kind: 'directory' });
    expect((await fs({ action: 'exists', path: 'nope.txt' })).result).toMatchObject({ exists: false });
    writeFileSync(join(env.workspaceDir, 'long.txt'), 'z'.repeat(120));
    expect((await fs({ action: 'read', path: 'long.txt' })).result).toMatchObject({
      truncated: true,
      content: 'z'.repeat(50),
    });
  });

  it('refuses absolute paths, "..", symlinks leading out, and writes over the workspace limit', async () => {
    expect((await fs({ action: 'read', path: env.secretPath })).error).toMatch(/absolute paths are refused/);
    expect((await fs({ action: 'read', path: '../1_999_answer.xlsx' })).error).toMatch(/"\.\." is refused/);
    expect((await fs({ action: 'read', path: 'data/../../1_999_answer.xlsx' })).error).toMatch(/"\.\." is refused/);
    expect((await fs({ action: 'read', path: 'leak.txt' })).error).toMatch(/resolves outside the workspace/);
    expect((await fs({ action: 'read', path: 'up/1_999_answer.xlsx' })).error).toMatch(
      /resolves outside the workspace/,
    );
    expect((await fs({ action: 'write', path: 'up/planted.txt', content: 'x' })).error).toMatch(
      /resolves outside the workspace/,
    );
    expect((await fs({ action: 'list', path: 'up' })).error).toMatch(/resolves outside the workspace/);
    expect((await fs({ action: 'read', path: '.sheetbench/python-session' })).error).toMatch(/reserved/);
    expect((await fs({ action: 'write', path: 'big.txt', content: 'b'.repeat(2000) })).error).toMatch(
      /over its 1 KB limit/,
    );
    for (const r of [
      await fs({ action: 'read', path: 'leak.txt' }),
      await fs({ action: 'read', path: 'up/1_999_answer.xlsx' }),
    ])
      expect(JSON.stringify(r)).not.toContain('SECRET-ANSWER');
  });
});
