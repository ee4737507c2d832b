/**
 * The scripted model of the web-app end-to-end tests, screenshots and page bench: it answers "total sales by region"
 * with Python that reads sales.csv, writes by_region.csv and a visualization manifest (table + bar chart), then answers
 * with what the sandbox printed. Optional holds let a test keep a turn running.
 */
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';

export const SALES_CODE = [
  'import json',
  'import pandas as pd',
  "df = pd.read_csv('sales.csv')",
  "totals = df.groupby('region', sort=False, as_index=False)['sales'].sum()",
  "totals.to_csv('by_region.csv', index=False)",
  "manifest = {'version': '1.0', 'outputs': [",
  "  {'id': 'totals', 'type': 'table', 'title': 'Sales by region', 'dataFile': 'by_region.csv', 'config': {'columns': ['region', 'sales'], 'maxRows': 50}},",
  "  {'id': 'sales_chart', 'type': 'bar_chart', 'title': 'Total sales by region', 'dataFile': 'by_region.csv', 'config': {'xColumn': 'region', 'yColumn': 'sales', 'xLabel': 'Region', 'yLabel': 'Sales (USD)'}}]}",
  "json.dump(manifest, open('visualization_manifest.json', 'w'))",
  'print(totals.to_string(index=False))',
].join('\n');

export interface Hold {
  opened: Promise<void>;
  open(): void;
}

/** A promise the test resolves to let a held model call answer. */
export function hold(): Hold {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The model's reply, without holds. */
export function salesReply(r: ScriptedRequest): ScriptedReply {
  const last = r.messages.at(-1);
  if (last?.role === 'tool') {
    const out = JSON.parse(String(last.content)) as { stdout?: string };
    return { text: `Sales by region — **West** leads:\n\n\`\`\`\n${(out.stdout ?? '').trim()}\n\`\`\`` };
  }
  return {
    text: 'I will total the sales per region and chart them.',
    toolCalls: [{ name: 'python_execute', arguments: { code: SALES_CODE } }],
  };
}

/** salesReply, answering only once the current hold (if any) of that call is opened. */
export function salesModel(holds: { answer?: () => Hold | undefined; first?: () => Hold | undefined }) {
  return async (r: ScriptedRequest): Promise<ScriptedReply> => {
    await (r.messages.at(-1)?.role === 'tool' ? holds.answer : holds.first)?.()?.opened;
    return salesReply(r);
  };
}
