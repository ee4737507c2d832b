import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedModelMeaning } from '../../benchmarks/spreadsheetbench/embeddedMeaning';

function runWith(
  results: Array<{ testCaseResults: number[]; reasons: Array<string | null>; failure?: object }>,
): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-meaning-'));
  mkdirSync(path.join(dir, 'results'));
  results.forEach((r, i) => writeFileSync(path.join(dir, 'results', `${i}.json`), JSON.stringify(r)));
  return dir;
}

describe('what the scores of a run by an embedded model mean', () => {
  it('counts tasks whose code wrote a workbook and whose test cases passed, and says why the score is near zero', async () => {
    const dir = runWith([
      { testCaseResults: [0, 0, 0], reasons: ['worksheet "Sales" not found in output', 'x', 'x'] },
      { testCaseResults: [0, 0, 0], reasons: ['File not exist', 'File not exist', 'File not exist'] },
      { testCaseResults: [1, 0, 1], reasons: [null, 'cell B7 differs', null] },
    ]);
    const lines = await embeddedModelMeaning(dir, { llm: { provider: 'local', model: 'local-qwen2.5-coder-0.5b' } });
    expect(lines.join('\n')).toContain('the embedded model Qwen2.5-Coder-0.5B-Instruct ran offline');
    expect(lines.join('\n')).toContain(
      'On 3 tasks its code wrote an output workbook for 2; 1 got at least one test case right and 0 all of them.',
    );
    expect(lines.join('\n')).toContain('--base-url');
  });

  it('says nothing for a model behind an endpoint', async () => {
    expect(
      await embeddedModelMeaning(runWith([{ testCaseResults: [0], reasons: ['x'] }]), {
        llm: { provider: 'openai', model: 'gpt-4o' },
      }),
    ).toEqual([]);
  });
});
