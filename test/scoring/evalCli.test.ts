import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliOutput } from '../helpers/cliOutput';
import { afterAll, describe, expect, it } from 'vitest';
import { registerEvalCommands } from '../../cli/commands/eval';
import { CliError } from '../../cli/exitCodes';
import { sharedData } from '../helpers/sharedData';

const DEV20 = sharedData('spreadsheetbench-dev20');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'scoring-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (args: string[]) => cliOutput(registerEvalCommands, args);

describe('sheetbench eval / health', () => {
  it('eval writes official-shape JSON (python json.dump indent=4) and a summary beside it', async () => {
    const outputs = path.join(tmp, 'outputs');
    mkdirSync(outputs);
    for (const id of readdirSync(path.join(DEV20, 'spreadsheet'))) {
      for (const f of readdirSync(path.join(DEV20, 'spreadsheet', id)).filter((x) => x.endsWith('_answer.xlsx'))) {
        cpSync(path.join(DEV20, 'spreadsheet', id, f), path.join(outputs, f.replace('_answer', '_output')));
      }
    }
    rmSync(path.join(outputs, '2_57105_output.xlsx'));
    const outFile = path.join(tmp, 'res', 'eval.json');
    const printed = await run(['eval', '--dataset', DEV20, '--outputs', outputs, '--out', outFile]);
    const text = readFileSync(outFile, 'utf8');
    const results = JSON.parse(text) as { id: unknown; test_case_results: number[] }[];
    expect(results).toHaveLength(20);
    expect(
      text.startsWith(
        '[\n    {\n        "id": 57105,\n        "instruction_type": "Cell-Level Manipulation",\n        "test_case_results": [\n            1,\n            0,\n            1\n        ],\n        "soft_restriction": 0.6666666666666666,\n        "hard_restriction": 0\n    },',
      ),
    ).toBe(true);
    expect(text).toContain('"id": "CF_8276"');
    expect(text).toContain('"soft_restriction": 1.0,');
    const summary = JSON.parse(readFileSync(`${outFile}.summary.json`, 'utf8'));
    expect(summary.summary.tasks).toBe(20);
    expect(summary.summary.hard).toBeCloseTo(19 / 20);
    expect(summary.summary.byType['Cell-Level Manipulation'].tasks).toBe(10);
    expect(summary.verdicts[0].verdicts[1]).toEqual({ index: 2, pass: false, reason: 'File not exist' });
    expect(printed).toContain('overall: 20 tasks, soft 98.33%, hard 95.00%');
  });

  it('health reports the null agent and answer-file problems', async () => {
    const outFile = path.join(tmp, 'health.json');
    const printed = await run(['health', '--dataset', DEV20, '--out', outFile]);
    const report = JSON.parse(readFileSync(outFile, 'utf8'));
    expect(report.nullAgent.passing).toEqual([{ id: 'CF_8276', test_case_results: [1, 1, 1] }]);
    expect(report.answerSelfFailures).toEqual([]);
    expect(report.uncachedAnswerFormulas.map((x: { id: unknown }) => x.id)).toContain('208-20');
    expect(printed).toContain('null agent');
  });

  it('bad arguments are CliErrors naming the cause', async () => {
    await expect(
      run(['eval', '--dataset', DEV20, '--outputs', DEV20, '--out', path.join(tmp, 'x.json'), '--mode', 'lenient']),
    ).rejects.toThrow(CliError);
    await expect(
      run(['eval', '--dataset', path.join(tmp, 'nope'), '--outputs', tmp, '--out', path.join(tmp, 'x.json')]),
    ).rejects.toThrow(/is not a folder/);
  });
});
