import type { VisualizationOutput } from '../conversation/types';
import type { ExportItem, ExportTurn } from './turns';

/**
 * The export as a list of cells, shared by the notebook and the script: markdown (questions, answers, notes) and code
 * (each successful execution, in order, with the outputs that were shown). One turn's export starts with the code of
 * the turns before it, which its code builds on.
 */
export type Cell =
  | { type: 'markdown'; text: string }
  | { type: 'code'; code: string; stdout?: string; stderr?: string; outputs: VisualizationOutput[] };

export interface CellPlan {
  title: string;
  conversationId: string;
  /** Workspace names of the files shipped in the inputs zip. */
  inputs: string[];
  inputsZip: string;
  /** The turn exported (all finished turns when absent). */
  turnId?: string;
  /** Defines the sandbox's helpers (save_table, …) when the code uses them. */
  helperSource: string;
}

const HELPERS_USED = /\b(save_table|save_chart|save_vega_lite|save_image)\s*\(/;

export function exportCells(turns: ExportTurn[], plan: CellPlan): Cell[] {
  const shown = plan.turnId ? turns.filter((t) => t.turnId === plan.turnId) : turns;
  const before = plan.turnId
    ? turns.slice(
        0,
        turns.findIndex((t) => t.turnId === plan.turnId),
      )
    : [];
  const code = [...before, ...shown].flatMap((t) => t.items);
  const cells: Cell[] = [
    { type: 'markdown', text: intro(plan, shown) },
    { type: 'code', code: setupCode(plan, code), outputs: [] },
  ];
  const cwd = { dir: '' };
  if (before.some((t) => t.items.length)) {
    cells.push({
      type: 'markdown',
      text: `## Code from earlier turns\n\nTurn ${plan.turnId} builds on the state these cells made (turns ${before.map((t) => t.turnId).join(', ')}).`,
    });
    for (const t of before) cells.push(...t.items.flatMap((i) => itemCells(i, cwd)));
  }
  for (const t of shown) {
    cells.push({ type: 'markdown', text: `## Turn ${t.turnId}\n\n**Question:** ${t.question}` });
    cells.push(...t.items.flatMap((i) => itemCells(i, cwd)));
    if (t.failed)
      cells.push({ type: 'markdown', text: `_${t.failed} execution(s) of this turn failed and are left out._` });
    cells.push({ type: 'markdown', text: answerText(t) });
  }
  return cells;
}

function intro(plan: CellPlan, shown: ExportTurn[]): string {
  const what = plan.turnId
    ? `turn ${plan.turnId} of conversation \`${plan.conversationId}\``
    : `conversation \`${plan.conversationId}\` (${shown.length} turn${shown.length === 1 ? '' : 's'})`;
  const inputs = plan.inputs.length
    ? `It reads ${plan.inputs.map((i) => `\`${i}\``).join(', ')}: unzip \`${plan.inputsZip}\` next to it and run it from that folder.`
    : 'It reads no uploaded file.';
  return `# ${plan.title}\n\nExported from sheetbench, ${what}. ${inputs} The code cells are the executions that succeeded, in the order they ran, with the outputs that were shown.`;
}

/** Where the code runs (the workspace, as in the sandbox), and the sandbox's helpers when the code calls them. */
function setupCode(plan: CellPlan, items: ExportItem[]): string {
  const lines = [
    'import os',
    '',
    '# The folder holding the inputs: the sandbox ran this code in its workspace.',
    'WORKSPACE = os.getcwd()',
  ];
  if (items.some((i) => i.kind === 'python' && HELPERS_USED.test(i.exec.code))) {
    lines.push(
      '',
      '# The helpers the sheetbench sandbox preloads (save_table, save_chart, save_vega_lite, save_image): they write',
      '# a data file and its entry in visualization_manifest.json.',
      'import sys, types',
      "sheetbench_viz = types.ModuleType('sheetbench_viz')",
      `exec(compile(${JSON.stringify(plan.helperSource)}, 'sheetbench_viz.py', 'exec'), sheetbench_viz.__dict__)`,
      "sys.modules['sheetbench_viz'] = sheetbench_viz",
      'sheetbench_viz._set_root(WORKSPACE)',
      'from sheetbench_viz import save_table, save_chart, save_vega_lite, save_image',
    );
  }
  return lines.join('\n');
}

function itemCells(item: ExportItem, cwd: { dir: string }): Cell[] {
  switch (item.kind) {
    case 'python': {
      const dir = item.exec.workingDir ?? '';
      const chdir =
        dir === cwd.dir
          ? ''
          : `os.chdir(os.path.join(WORKSPACE, ${JSON.stringify(dir)}))  # the sandbox ran this cell in ${dir || 'the workspace'}\n`;
      // Code that changes folder itself leaves the next cell elsewhere than the sandbox's prelude would.
      cwd.dir = /\bchdir\s*\(/.test(item.exec.code) ? '\0' : dir;
      const r = item.exec.result.data;
      return [
        {
          type: 'code',
          code: `${chdir}${item.exec.code}`,
          outputs: item.outputs,
          ...(r.stdout ? { stdout: String(r.stdout) } : {}),
          ...(r.stderr ? { stderr: String(r.stderr) } : {}),
        },
      ];
    }
    case 'javascript':
      return [
        {
          type: 'markdown',
          text: `This step ran JavaScript (node_execute), which a Python notebook does not re-run:\n\n\`\`\`javascript\n${item.exec.code}\n\`\`\``,
        },
      ];
    case 'fetch':
      return [
        {
          type: 'markdown',
          text: `\`web_fetch\` downloaded ${item.url} to \`${item.file}\` (the file is in the inputs zip; the sandbox has no network).`,
        },
      ];
    case 'write':
      return [
        {
          type: 'code',
          code: `# file_system wrote ${item.path}\nwith open(os.path.join(WORKSPACE, ${JSON.stringify(item.path)}), 'w', encoding='utf-8') as f:\n    f.write(${JSON.stringify(item.content)})`,
          outputs: [],
        },
      ];
  }
}

function answerText(t: ExportTurn): string {
  if (t.status !== 'completed' && !t.answer) return `**Answer:** _none (the turn ${t.status})._`;
  const missing = t.grounding?.numbers.filter((n) => !n.grounded).map((n) => n.text) ?? [];
  const note = missing.length ? `\n\n_Numbers not found in this turn's tool outputs: ${missing.join(', ')}._` : '';
  return `**Answer:**\n\n${t.answer ?? ''}${note}`;
}
