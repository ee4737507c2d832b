import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../lib/scriptedLlm';
import { writeReport } from '../../benchmarks/spreadsheetbench/report/writeReport';
import { runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { promptField } from '../helpers/scriptedSolutions';

const VERIFIED = path.resolve(__dirname, '../../data/verified-sample');

/** Solves "Put the word Total in A{row} and the sum of column B into B{row}" from the instruction (never the golden file). */
function totalSolution(request: ScriptedRequest): string {
  const input = promptField(request, 'spreadsheet_path');
  const output = promptField(request, 'output_path');
  const row = /Total in A(\d+)/.exec(promptField(request, 'instruction'))![1];
  return `\`\`\`python
import openpyxl
wb = openpyxl.load_workbook('${input}')
ws = wb.active
ws['A${row}'] = 'Total'
ws['B${row}'] = sum(ws.cell(row=r, column=2).value for r in range(2, ${row}))
wb.save('${output}')
\`\`\``;
}

/** SpreadsheetBench Verified: one test case, init/golden names (incl. bare initial/golden and 42930's 43930 golden). */
describe('SpreadsheetBench Verified end to end', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: Awaited<ReturnType<typeof runToEnd>>;

  beforeAll(async () => {
    env = await startE2E(
      { rules: [{ name: 'total', reply: totalSolution }] },
      { config: { recalc: { engine: 'none' } } },
    );
    run = await startBenchmarkRun(env, { dataset: VERIFIED });
    final = await runToEnd(env, run);
  }, 240_000);
  afterAll(async () => env?.close());

  it('detects the Verified edition', () => {
    expect(JSON.parse(readFileSync(path.join(run.runDir, 'run.json'), 'utf8'))).toMatchObject({
      benchmark: 'spreadsheetbench',
      edition: 'verified_400',
    });
  });

  it('runs one test case per task and writes 1_{id}_output.xlsx', () => {
    expect(final.done).toBe(3);
    expect(readdirSync(path.join(run.runDir, 'outputs', 'single_scripted-model')).sort()).toEqual([
      '1_13284_output.xlsx',
      '1_42930_output.xlsx',
      '1_71001_output.xlsx',
    ]);
  });

  it('scores against the golden files (soft = hard with one case) in the official eval JSON shape', () => {
    const evalJson = JSON.parse(readFileSync(path.join(run.runDir, 'eval_single_scripted-model.json'), 'utf8'));
    expect(evalJson).toEqual([
      {
        id: 71001,
        instruction_type: 'Cell-Level Manipulation',
        test_case_results: [1],
        soft_restriction: 1,
        hard_restriction: 1,
      },
      {
        id: 13284,
        instruction_type: 'Cell-Level Manipulation',
        test_case_results: [1],
        soft_restriction: 1,
        hard_restriction: 1,
      },
      {
        id: 42930,
        instruction_type: 'Cell-Level Manipulation',
        test_case_results: [1],
        soft_restriction: 1,
        hard_restriction: 1,
      },
    ]);
  });

  it('showed the agent the input under the official name, and writes the report', async () => {
    const prompt = env.llm.log
      .find((e) => e.messages.some((m) => m.content.includes('spreadsheet/13284/')))!
      .messages.at(-1)!.content;
    expect(prompt).toContain('/mnt/data/spreadsheet/13284/1_13284_input.xlsx');
    const written = await writeReport({ runDir: run.runDir });
    expect(readFileSync(written.markdown, 'utf8')).toContain('42930');
  });
});
