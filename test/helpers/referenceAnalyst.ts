import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';
import { requestText, type AnalysisTask } from '../../benchmarks/analysis/dataset';
import { instructionReply, toolOutcomes } from './analysisModel';

interface Reference {
  code: string;
  fetch?: string;
  /** A misspelt column the first attempt uses (the fix then succeeds). */
  failFirst?: string;
}

/**
 * The scripted model for the analysis suite: recognises each request and runs its reference solution (data/analysis/
 * reference.json), downloading first where the request says so and failing first where the suite wants a fix. It
 * measures the machinery (steps, tokens, patterns), not a model's skill.
 */
export function referenceAnalyst(
  suiteDir: string,
  tasks: AnalysisTask[],
  dataUrl: string,
): (r: ScriptedRequest) => ScriptedReply {
  const reference = JSON.parse(readFileSync(path.join(suiteDir, 'reference.json'), 'utf8')) as Record<
    string,
    Reference
  >;
  return (r) => {
    const instructed = instructionReply(r);
    if (instructed) return instructed;
    const question = r.messages.find((m) => m.role === 'user')?.content ?? '';
    const task = tasks.find((t) => question.startsWith(requestText(t, dataUrl)));
    if (!task) return { text: 'I do not recognise this request.' };
    const ref = reference[task.id];
    const tools = toolOutcomes(r);
    const last = r.messages.at(-1)!;
    if (ref.fetch && !tools.length) {
      return {
        text: 'Downloading the data.',
        toolCalls: [
          {
            name: 'web_fetch',
            arguments: { url: `${dataUrl}/${ref.fetch}`, type: 'file', filename: 'downloads/items.json' },
          },
        ],
      };
    }
    const ranCode = tools.length > (ref.fetch ? 1 : 0);
    if (r.toolChoice === 'none' || (ranCode && last.role === 'tool' && tools.at(-1)?.ok !== false)) {
      const stdout = [...tools]
        .reverse()
        .find((t) => t.stdout)
        ?.stdout?.trim();
      return { text: `Result:\n\n${stdout ?? '(no output)'}` };
    }
    const failedBefore = tools.some((t) => t.ok === false);
    const code = ref.failFirst && !failedBefore ? `${failingPrelude(task, ref.failFirst)}\n${ref.code}` : ref.code;
    return {
      text: failedBefore ? 'Fixing the column name.' : 'Running the analysis.',
      toolCalls: [{ name: 'python_execute', arguments: { code } }],
    };
  };
}

function failingPrelude(task: AnalysisTask, column: string): string {
  return `import pandas as pd\ndf = pd.read_csv('${task.files[0]}')\ndf['${column}'].sum()`;
}
