/**
 * The scripted turn the web-app tests play through the fake API (test double): "total sales by region as a bar chart".
 * It computes the grouped totals from the uploaded CSV itself (standing in for the agent's Python), writes them to
 * out/sales_by_region.csv, and streams what the real agent would: steps, code, the run's stdout, a table and a bar chart,
 * the file, the answer and the usage. `pauseAt` inserts a pause (the test releases it) after that many events.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScriptEntry, TurnScript } from '../helpers/fakeAnalysisApi';

export const SALES_CSV =
  [
    'region,product,sales',
    'North,A,120',
    'South,A,80',
    'East,B,45.5',
    'North,B,30',
    'West,A,210',
    'East,A,60',
    'South,B,20',
  ].join('\n') + '\n';
/** The totals of SALES_CSV in first-seen order. */
export const SALES_TOTALS: Array<[string, number]> = [
  ['North', 150],
  ['South', 100],
  ['East', 105.5],
  ['West', 210],
];

export const CODE_V1 =
  "import pandas as pd\ndf = pd.read_csv('uploads/sales.csv')\ntotals = df.groupby('region').sales.sum()\nprint(totals)";
export const CODE_V2 =
  "import pandas as pd\ndf = pd.read_csv('uploads/sales.csv')\ntotals = df.groupby('region', sort=False).sales.sum().reset_index()\nsave_table(totals, 'totals')\nsave_chart(totals, 'bar', x='region', y='sales')\nprint(totals.to_string(index=False))";

export function salesScript(opts: { pauseAt?: number; delayMs?: number } = {}): TurnScript {
  return async ({ files, workspace, turnId }) => {
    const upload = files[0] ?? 'uploads/sales.csv';
    const csv = await readFile(path.join(workspace, upload), 'utf8').catch(() => SALES_CSV);
    const totals = groupTotals(csv);
    const out = ['region,sales', ...totals.map(([r, s]) => `${r},${s}`)].join('\n') + '\n';
    await mkdir(path.join(workspace, 'out'), { recursive: true });
    await writeFile(path.join(workspace, 'out/sales_by_region.csv'), out);
    const stdout = totals.map(([r, s]) => `${r.padEnd(6)} ${s}`).join('\n');
    const file = {
      filename: 'sales_by_region.csv',
      path: 'out/sales_by_region.csv',
      type: 'text/csv',
      size: Buffer.byteLength(out),
    };
    const d = opts.delayMs ?? 30;
    const entries: ScriptEntry[] = [
      {
        type: 'step',
        data: { stepId: `${turnId}-s1`, kind: 'think', text: 'Load the CSV and total the sales per region.' },
        delayMs: d,
      },
      { type: 'code', data: { stepId: `${turnId}-s1`, language: 'python', code: CODE_V1 }, delayMs: d },
      {
        type: 'tool_call',
        data: { stepId: `${turnId}-s1`, callId: 'call-1', tool: 'python_execute', args: { code: CODE_V1 } },
        delayMs: d,
      },
      {
        type: 'tool_result',
        data: {
          stepId: `${turnId}-s1`,
          callId: 'call-1',
          tool: 'python_execute',
          ok: true,
          stdout,
          returnCode: 0,
          durationMs: 412,
        },
        delayMs: d,
      },
      {
        type: 'step',
        data: { stepId: `${turnId}-s2`, kind: 'think', text: 'Save the totals as a table and a bar chart.' },
        delayMs: d,
      },
      { type: 'code', data: { stepId: `${turnId}-s2`, language: 'python', code: CODE_V2 }, delayMs: d },
      {
        type: 'tool_result',
        data: {
          stepId: `${turnId}-s2`,
          callId: 'call-2',
          tool: 'python_execute',
          ok: true,
          stdout,
          returnCode: 0,
          durationMs: 380,
          files: [file],
        },
        delayMs: d,
      },
      {
        type: 'visualization',
        data: {
          output: {
            id: 'totals',
            type: 'table',
            title: 'Sales by region',
            dataFile: file.path,
            config: { columns: ['region', 'sales'], maxRows: 50 },
          },
        },
        delayMs: d,
      },
      {
        type: 'visualization',
        data: {
          output: {
            id: 'sales_chart',
            type: 'bar_chart',
            title: 'Total sales by region',
            dataFile: file.path,
            config: { xColumn: 'region', yColumn: 'sales', xLabel: 'Region', yLabel: 'Sales (USD)' },
          },
        },
        delayMs: d,
      },
      { type: 'file', data: { file }, delayMs: d },
      {
        type: 'answer',
        data: {
          text: `**West** sells most (${Math.max(...totals.map((t) => t[1]))}). Totals:\n\n${totals.map(([r, s]) => `- ${r}: ${s}`).join('\n')}\n\n<img src=x onerror="window.__xss=1">`,
        },
        delayMs: d,
      },
      { type: 'usage', data: { inputTokens: 1830, outputTokens: 264, costUsd: 0.0042 }, delayMs: d },
      ...debugSteps(turnId, stdout),
    ];
    if (opts.pauseAt !== undefined) entries.splice(opts.pauseAt, 0, { pause: true });
    return entries;
  };
}

function debugSteps(turnId: string, stdout: string): ScriptEntry[] {
  const base = {
    turnId,
    model: 'scripted-model',
    costUsd: 0.0021,
    sandbox: { python: '3.11.2', packages: { pandas: '2.2.3', numpy: '2.1.3' } },
  };
  const prompt = [
    { role: 'system', content: 'You are a data analyst. Write Python; use save_table and save_chart for outputs.' },
    { role: 'user', content: 'total sales by region as a bar chart' },
  ];
  return [
    {
      debug: {
        ...base,
        stepId: `${turnId}-s1`,
        index: 0,
        kind: 'react',
        prompt,
        reply: { content: 'I will group by region.' },
        code: CODE_V1,
        stdout,
        stderr: '',
        inputTokens: 900,
        outputTokens: 120,
        toolCalls: [
          {
            callId: 'call-1',
            tool: 'python_execute',
            args: { code: CODE_V1 },
            result: { success: true, stdout },
            ok: true,
            durationMs: 412,
          },
        ],
        timing: { modelMs: 820, executionMs: 412, toolsMs: 3, waitingMs: 15 },
      },
    },
    {
      debug: {
        ...base,
        stepId: `${turnId}-s2`,
        index: 1,
        kind: 'react',
        prompt,
        reply: { content: 'Now the chart.' },
        code: CODE_V2,
        stdout,
        stderr: '',
        inputTokens: 930,
        outputTokens: 144,
        timing: { modelMs: 760, executionMs: 380, toolsMs: 2, waitingMs: 11 },
      },
    },
  ];
}

export function groupTotals(csv: string): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const [region, , sales] = line.split(',');
    totals.set(region, (totals.get(region) ?? 0) + Number(sales));
  }
  return [...totals.entries()];
}
