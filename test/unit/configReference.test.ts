import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config/paths';
import { configReference, configReferenceMarkdown, REFERENCE_END, REFERENCE_START } from '../../config/reference';

describe('every config field is documented in the schema, and config/README.md is the reference it generates', () => {
  const sections = configReference();

  it('every section and every field (groups included) has a description', () => {
    const undocumented = [
      ...sections.filter((s) => !s.description).map((s) => s.name),
      ...sections.flatMap((s) => s.fields.filter((f) => !f.description?.trim()).map((f) => `${s.name}.${f.path}`)),
    ];
    expect(undocumented, `add .describe('…') to these in config/sections/`).toEqual([]);
    expect(sections.map((s) => s.name)).toEqual([
      'temporal',
      'worker',
      'llm',
      'sandbox',
      'recalc',
      'artifacts',
      'run',
      'spreadsheetbench',
      'dsbench',
      'visionJudge',
      'analysisSuite',
      'conversation',
      'analysis',
      'server',
    ]);
  });

  it('config/README.md holds the generated reference, unchanged', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'config', 'README.md'), 'utf8');
    const start = readme.indexOf(REFERENCE_START);
    const end = readme.indexOf(REFERENCE_END);
    expect(start, 'config/README.md lacks its reference markers').toBeGreaterThan(-1);
    const committed = readme.slice(start + REFERENCE_START.length, end).trim();
    expect(
      committed === configReferenceMarkdown().trim(),
      'config/README.md is stale: run `bin/sheetbench config docs` and put its output between the markers',
    ).toBe(true);
  });

  it('`sheetbench config docs` prints it', () => {
    const printed = execFileSync(path.join(REPO_ROOT, 'bin', 'sheetbench'), ['config', 'docs'], { encoding: 'utf8' });
    expect(printed.trim()).toBe(configReferenceMarkdown().trim());
  }, 60_000);

  it('the reference shows types, defaults and the old keys', () => {
    const md = configReferenceMarkdown();
    expect(md).toContain('| `maxSteps` | integer > 0 | `5` |');
    expect(md).toContain('| `scoringMode` | "official" \\| "strict" | `"official"` |');
    expect(md).toContain('| `run.maxTurns` | `spreadsheetbench.maxSteps` |');
  });
});
