/**
 * Generated SpreadsheetBench 2 Visualization tasks (a category folder: input and answer per task, the checklist as the
 * release's `criteria`) and a scripted model for them: the scaffold's agent writes the task's output in one bash step
 * (with a bar chart, without any chart, or bytes that are no workbook; for vis_png of visualizationCharts.ts two
 * charts and an `<id>_output.png` beside them), then submits; the vision judge answers with
 * what `judgeReply` returns (it may hold the call). Used by visualizationRun.test.ts and the replay fixtures.
 */
import type { Script, ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';
import { rmSync } from 'node:fs';
import { runPython } from '../scoring/oracle';
import { startE2E, type ConfigOverrides, type E2EEnv } from './e2e';

export const VIS_CHECKLIST = ['a bar chart of the values', 'titled "Values"', 'one bar per row'];
/** A chart, an output without a chart, an output that is no workbook. */
export const VIS_TASKS = ['vis_bar', 'vis_plain', 'vis_broken'];

const GENERATE = `
import json, os, sys, openpyxl
root = sys.argv[1]
records = []
for tid in ${JSON.stringify(VIS_TASKS)}:
    d = os.path.join(root, "spreadsheet", tid); os.makedirs(d)
    wb = openpyxl.Workbook(); ws = wb.active; ws.title = "Data"
    for r in range(1, 6): ws.append([f"r{r}", r * 10])
    wb.save(os.path.join(d, "input.xlsx")); wb.save(os.path.join(d, "answer.xlsx"))
    records.append({"id": tid, "instruction": f"do {tid}: chart the values", "spreadsheet_path": f"spreadsheet/{tid}/input.xlsx",
                    "golden_response_path": f"spreadsheet/{tid}/answer.xlsx", "answer_position": "Data!A1:B5",
                    "criteria": [{"id": i + 1, "instruction": c, "rubric_category": "chart"} for i, c in enumerate(${JSON.stringify(VIS_CHECKLIST)})]})
json.dump(records, open(os.path.join(root, "dataset.json"), "w"))
`;

/** Writes the category folder `dir` (named Visualization by the caller). */
export function generateVisualizationTasks(dir: string): void {
  runPython(['-c', GENERATE, dir], '');
}

/** What the agent does per task: write its output (with a chart, without one, not a workbook). */
function agentCommand(id: string, input: string, output: string): string {
  if (id === 'vis_broken') return `printf 'not a workbook' > ${output}`;
  if (id === 'vis_png') return outputImageCommand(input, output);
  const chart =
    id === 'vis_bar'
      ? [
          'from openpyxl.chart import BarChart, Reference',
          'c = BarChart(); c.title = "Values"',
          'c.add_data(Reference(ws, min_col=2, min_row=1, max_row=5)); ws.add_chart(c, "D2")',
        ]
      : [];
  return [
    "python3 - << 'EOF'",
    'import openpyxl',
    `wb = openpyxl.load_workbook("${input}"); ws = wb["Data"]`,
    ...chart,
    `wb.save("${output}")`,
    'EOF',
  ].join('\n');
}

/**
 * vis_png (visualizationCharts.ts): a workbook with two titled charts and, beside it, `vis_png_output.png` (a 64×48
 * red image): the judge should see that image alone.
 */
function outputImageCommand(input: string, output: string): string {
  return [
    "python3 - << 'EOF'",
    'import openpyxl',
    'from openpyxl.chart import BarChart, LineChart, Reference',
    'from PIL import Image',
    `wb = openpyxl.load_workbook("${input}"); ws = wb["Data"]`,
    'b = BarChart(); b.title = "Sales"; b.add_data(Reference(ws, min_col=2, min_row=1, max_row=5)); ws.add_chart(b, "D2")',
    'l = LineChart(); l.title = "Trend"; l.add_data(Reference(ws, min_col=2, min_row=1, max_row=5)); ws.add_chart(l, "D20")',
    `wb.save("${output}")`,
    `Image.new("RGB", (64, 48), (255, 0, 0)).save("${output.replace(/\.xlsx$/, '.png')}")`,
    'EOF',
  ].join('\n');
}

function scaffoldReply(request: ScriptedRequest): ScriptedReply {
  const instance = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const id = /\*\*Instruction:\*\* do (\S+):/.exec(instance)?.[1] ?? '';
  const input = /\*\*Input File:\*\* (\S+)/.exec(instance)?.[1] ?? '';
  const output = /\*\*Output Path:\*\* (\S+)/.exec(instance)?.[1] ?? '';
  const turn = request.messages.filter((m) => m.role === 'tool').length;
  return turn === 0
    ? { text: '', toolCalls: [{ name: 'bash', arguments: { command: agentCommand(id, input, output) } }] }
    : { text: '', toolCalls: [{ name: 'submit', arguments: {} }] };
}

export function visualizationScript(judgeReply: (request: ScriptedRequest) => string | Promise<string>): Script {
  return {
    rules: [
      { name: 'scaffold', match: { callKey: /\/scaffold\// }, reply: scaffoldReply },
      { name: 'vision', match: { minImages: 1 }, reply: judgeReply },
    ],
  };
}

/**
 * The e2e environment of a Visualization test with a scripted vision judge: the generated tasks in `data`, the judge
 * on the scripted model server (its key in the environment variable `keyEnv`), three tasks at a time; `close` lets a
 * held judge go, stops everything and removes `tmp`.
 */
export async function startVisionJudgeE2E(
  script: Script,
  paths: { data: string; tmp: string },
  keyEnv: string,
  judge: { open(): void },
  config: Pick<ConfigOverrides, 'llm' | 'temporal' | 'worker'> = {},
): Promise<{ env: E2EEnv; close(): Promise<void> }> {
  generateVisualizationTasks(paths.data);
  process.env[keyEnv] = 'test-vlm-key';
  const env = await startE2E(script, {
    config: {
      run: { concurrency: 3 },
      visionJudge: { baseUrl: 'set below', model: 'scripted-vision', apiKeyEnv: keyEnv },
      ...config,
    },
  });
  env.config.visionJudge.baseUrl = env.llm.url;
  return {
    env,
    close: async () => {
      judge.open();
      await env.close();
      delete process.env[keyEnv];
      rmSync(paths.tmp, { recursive: true, force: true });
    },
  };
}
