import {
  CLASSIFY_INSTRUCTION,
  CRITIQUE_INSTRUCTION,
  DIRECT_INSTRUCTION,
  PLAN_INSTRUCTION,
  REVISE_ANSWER_LEAD,
  REVISE_NUMBERS_LEAD,
} from '../../analysis/conversation/prompts';
import { SECOND_PROGRAM_PROMPT } from '../../analysis/conversation/crossCheckPrompts';
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';

/**
 * A scripted analyst for sales.csv (region,amount): answers every pattern's prompts the way a capable model would, so
 * tests check the machinery, not the model. Tags in the question steer it: `[FAILFIRST]` makes the first code fail
 * (a misspelt column), `[JIT:<pattern>]` is what the classify step answers, `[NOTOOLS]` never calls a tool,
 * `[CLASSIFYTOOL]` calls a tool in its reply to the classify step, `[LOOP]` repeats the same failing call forever, `[BADARGS]` sends arguments that are not JSON first, `[MANIFEST]`
 * writes a chart manifest naming a missing column first, `[FETCH:<url>]` downloads JSON and prints the top 5 names.
 * Grounding: `[TABLE]` saves the totals by region as a table and cites them, `[INVENT]` adds a number no code produced
 * (until asked to revise), `[ROUND]` cites printed values rounded and as a percentage, `[NONUM]` answers without
 * numbers, `[CODEANSWER]` answers with numbers only in a code block, `[SILENT]` runs code that prints and writes nothing.
 * Correctness: `[TALLY]` counts rows per region (`value_counts`) and cites the counts until asked to revise with code
 * required, then sums;
 * `[WRONGTABLE]` saves the right totals by region as a table and cites other numbers until asked to revise,
 * `[STUBBORN]` does the same and repeats its wrong numbers when asked.
 * Restore: `[SETUP]` defines `df` and `total` (`[SLOWSETUP]` after sleeping 8 s), `[USEVAR]` uses `total` from an
 * earlier turn (and defines it again itself after a failure).
 */
export function salesAnalyst(r: ScriptedRequest): ScriptedReply {
  const question = r.messages.find((m) => m.role === 'user')?.content ?? '';
  const last = r.messages.at(-1)!;
  const tools = toolOutcomes(r);
  const failed = tools.filter((t) => t.ok === false).length;
  const instructed = instructionReply(r);
  if (instructed) return instructed;
  // The cross-check's second program (its own prompt, the question only): it prints the sums per region it computed.
  if (isSecondProgram(r) && PER_REGION.test(question) && !tools.length)
    return { text: 'Computing.', toolCalls: [{ name: 'python_execute', arguments: { code: SUMS_PRINTED } }] };
  const fetchUrl = /\[FETCH:(\S+)\]/.exec(question)?.[1];
  if (fetchUrl && !tools.length)
    return {
      text: 'Downloading.',
      toolCalls: [{ name: 'web_fetch', arguments: { url: fetchUrl, type: 'file', filename: 'downloads/items.json' } }],
    };
  if (fetchUrl && tools.length === 1)
    return { text: '', toolCalls: [{ name: 'python_execute', arguments: { code: TOP5_CODE } }] };
  if (
    question.includes('[NOTOOLS]') ||
    r.toolChoice === 'none' ||
    (last.role === 'tool' && tools.at(-1)?.ok !== false && !question.includes('[LOOP]'))
  ) {
    return taggedAnswer(r, question) ?? answerFromTools(r, 'I think the total is probably around 50.');
  }
  // Like the 0.5B: asked to revise, it repeats its counts unless it must run code.
  if (question.includes('[TALLY]') && last.role === 'user' && revisingAnswer(r) && r.toolChoice !== 'required')
    return { text: 'North: **2**, south: **1**.' };
  const tagged = taggedCode(question, failed > 0, revisingAnswer(r));
  if (tagged) return { text: 'Computing.', toolCalls: [{ name: 'python_execute', arguments: { code: tagged } }] };
  if (question.includes('[MANIFEST]'))
    return {
      text: '',
      toolCalls: [{ name: 'python_execute', arguments: { code: chartCode(failed === 0 ? 'regoin' : 'region') } }],
    };
  if (question.includes('[BADARGS]') && !tools.length)
    return { text: '', toolCalls: [{ name: 'python_execute', arguments: '{"code": "print(1)' }] };
  const failNow = (question.includes('[FAILFIRST]') && failed === 0) || question.includes('[LOOP]');
  const column = failNow ? 'amout' : 'amount';
  const code = `import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint(df['${column}'].sum())`;
  return {
    text: failed ? 'The column name was wrong; fixing it.' : 'Loading the data.',
    toolCalls: [{ name: 'python_execute', arguments: { code } }],
  };
}

const LOAD = "import pandas as pd\ndf = pd.read_csv('sales.csv')";
const SETUP = `${LOAD}\ntotal = int(df['amount'].sum())\nprint(total)`;

const BY_REGION = `${LOAD}\nby_region = df.groupby('region', as_index=False)['amount'].sum()\nsave_table(by_region, id='by_region', title='Sales by region')\nprint(df['amount'].sum())`;

/** Questions about the totals per region: a second program computes them right, whatever the first did. */
const PER_REGION = /\[(TALLY|WRONGTABLE|STUBBORN|TABLE)\]/;
const SUMS_PRINTED = `${LOAD}\nsums = df.groupby('region')['amount'].sum()\nprint(sums.to_string())\nprint(sums.sum())`;

/** Whether a request is the cross-check's second program (written from its own prompt). */
export function isSecondProgram(r: { messages: ReadonlyArray<{ content: string }> }): boolean {
  return r.messages[0]?.content.startsWith(SECOND_PROGRAM_PROMPT.split('\n')[0]) ?? false;
}

/** Whether the model was asked to revise its answer as wrong (not only for unfound numbers). */
function revisingAnswer(r: ScriptedRequest): boolean {
  return r.messages.some((m) => m.role === 'user' && m.content.startsWith(REVISE_ANSWER_LEAD));
}

/** The code a grounding, correctness or restore tag asks for. */
function taggedCode(question: string, failedBefore: boolean, revising: boolean): string | undefined {
  if (question.includes('[TALLY]'))
    return revising ? BY_REGION : `${LOAD}\nprint(df['region'].value_counts().to_string())`;
  if (question.includes('[WRONGTABLE]') || question.includes('[STUBBORN]')) return BY_REGION;
  if (question.includes('[SLOWSETUP]')) return `import time\ntime.sleep(8)\n${SETUP}`;
  if (question.includes('[SETUP]')) return SETUP;
  if (question.includes('[USEVAR]')) return failedBefore ? `${SETUP}\nprint(total * 2)` : 'print(total * 2)';
  if (question.includes('[TABLE]')) return BY_REGION;
  if (question.includes('[ROUND]'))
    return `${LOAD}\ntotal = df['amount'].sum()\nprint(round(total * 26.2657, 2))\nprint(round(total / 390.4, 4))`;
  if (question.includes('[SILENT]')) return `${LOAD}\ntotal = df['amount'].sum()`;
  return undefined;
}

/** The answer a grounding tag asks for, once the code ran. */
function taggedAnswer(r: ScriptedRequest, question: string): ScriptedReply | undefined {
  const revising = r.messages.some((m) => m.role === 'user' && m.content.startsWith(REVISE_NUMBERS_LEAD));
  if (question.includes('[TABLE]')) return { text: 'North sold **15** and south **32**: **47** in total.' };
  if (question.includes('[STUBBORN]')) return { text: 'North: **1000**, south: **2000**.' };
  if (question.includes('[TALLY]') || question.includes('[WRONGTABLE]')) {
    if (revisingAnswer(r)) return { text: 'North: **15**, south: **32**.' };
    return { text: question.includes('[TALLY]') ? 'North: **2**, south: **1**.' : 'North: **1000**, south: **2000**.' };
  }
  if (question.includes('[ROUND]')) return { text: 'The scaled total is **1,234.5**, a share of **12%**.' };
  if (question.includes('[NONUM]')) return { text: 'North sold the most.' };
  if (question.includes('[CODEANSWER]'))
    return { text: "To compute it yourself:\n\n```python\nprint(pd.read_csv('sales.csv')['amount'].sum() * 1.5)\n```" };
  if (question.includes('[INVENT]') && !revising) return { text: 'The total amount is **47**, up 12% on last year.' };
  return undefined;
}

const TOP5_CODE = `import json
items = json.load(open('downloads/items.json'))
top = sorted(items, key=lambda i: i['value'], reverse=True)[:5]
print(', '.join(i['name'] for i in top))`;

function chartCode(xColumn: string): string {
  const manifest = {
    version: '1.0',
    outputs: [
      {
        id: 'sales_by_region',
        type: 'bar_chart',
        title: 'Sales by region',
        dataFile: 'by_region.csv',
        config: { xColumn, yColumn: 'amount', xLabel: 'Region', yLabel: 'Amount' },
      },
    ],
  };
  return [
    'import json, pandas as pd',
    "df = pd.read_csv('sales.csv').groupby('region', as_index=False)['amount'].sum()",
    "df.to_csv('by_region.csv', index=False)",
    `json.dump(${JSON.stringify(manifest)}, open('visualization_manifest.json', 'w'))`,
    "print(df['amount'].sum())",
  ].join('\n');
}

/** What the tools told the model so far (tool messages parsed). */
export function toolOutcomes(r: ScriptedRequest): Array<{ ok?: boolean; stdout?: string; error?: string }> {
  return r.messages
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(m.content) as { ok?: boolean; stdout?: string; error?: string });
}

/** Replies to the patterns' own instructions (classify, plan, critique, propose, evaluate); undefined for task steps. */
export function instructionReply(r: ScriptedRequest): ScriptedReply | undefined {
  const question = r.messages.find((m) => m.role === 'user')?.content ?? '';
  const last = r.messages.at(-1)!;
  if (last.role !== 'user') return undefined;
  if (last.content === CLASSIFY_INSTRUCTION) {
    const text = `The request is a single computation.\nPATTERN: ${/\[JIT:(\w+)\]/.exec(question)?.[1] ?? 'react'}`;
    // A model that calls a tool where it was offered none (the classify step must never run it).
    if (question.includes('[CLASSIFYTOOL]'))
      return {
        text,
        toolCalls: [
          { id: 'sneaky', name: 'python_execute', arguments: { code: "open('classify_ran.txt', 'w').write('ran')" } },
        ],
      };
    return { text };
  }
  if (last.content === PLAN_INSTRUCTION) return { text: '1. Load the data\n2. Compute the result\n3. Report it' };
  if (last.content === CRITIQUE_INSTRUCTION) {
    const critiques = r.messages.filter((m) => m.content === CRITIQUE_INSTRUCTION).length;
    return { text: critiques === 1 ? '1. the result lacks its unit\nVERDICT: REVISE' : 'all ok\nVERDICT: OK' };
  }
  const propose = /^Propose approach (\d+)/.exec(last.content);
  if (propose) return { text: `Approach ${propose[1]}: compute it with pandas` };
  if (/^Here are \d+ /.test(last.content)) return { text: 'Candidate 2 is the clearest.\nBEST: 2' };
  return undefined;
}

/** The answer a model gives from the last successful tool output. */
export function answerFromTools(r: ScriptedRequest, fallback: string): ScriptedReply {
  const stdout = [...toolOutcomes(r)]
    .reverse()
    .find((t) => t.stdout)
    ?.stdout?.trim();
  return { text: stdout ? `The total amount is **${stdout}**.` : fallback };
}

export const SALES_CSV = 'region,amount\nnorth,10\nsouth,32\nnorth,5\n';

export { DIRECT_INSTRUCTION };
