import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedReply, ScriptedRequest } from '../../lib/scriptedLlm';
import { runCases, startAnalysisEnv, type AnalysisEnv, type CaseOutcome } from '../helpers/analysis';

/**
 * The suite's a09 as the 1.5B failed it (run at c7450a7), end to end (the scripted OpenAI-compatible server, real
 * Temporal, sandbox, web_fetch and a data server): it fetched the JSON with the web_fetch tool's `type: "json"` (the
 * body comes back in the result, no file is saved), opened `items.json`, and ran the cells that needed it. The failed
 * calls' results now say why (no such file: the body came back inline, or the URL was never downloaded; a name not
 * defined because the code defining it failed) and how to load the URL in one code run. A model that follows the hint
 * answers; one that repeats itself is still stopped.
 */
const SCORES = [118, 498, 449, 54, 44, 136, 140, 21, 464, 399, 93, 139];
const ITEMS = SCORES.map((score, i) => ({ name: `item-${String.fromCharCode(97 + i)}`, score }));
const ABOVE_250 = SCORES.filter((s) => s > 250).length;

const OPEN = "import json\nwith open('items.json', 'r') as file:\n    data = json.load(file)";
const FILTER = "filtered_items = [item for item in data if item['score'] > 250]";
const COUNT = 'print(len(filtered_items))';

const py = (code: string) => ({ name: 'python_execute', arguments: { code } });
const toolTexts = (r: { messages: Array<{ role: string; content: string }> }) =>
  r.messages.filter((m) => m.role === 'tool').map((m) => m.content);

/** Like the 1.5B: fetch inline (or not at all), open a file, run the cells that need it; reads a hint if it has one. */
function model(url: () => string) {
  return (r: ScriptedRequest): ScriptedReply => {
    const question = r.messages.find((m) => m.role === 'user')?.content ?? '';
    const tools = toolTexts(r);
    const last = r.messages.at(-1)!;
    if (last.role === 'tool' && !last.content.includes('"ok":false') && tools.some((t) => t.includes('"stdout"')))
      return { text: `**${/"stdout":"(\d+)/.exec(tools.at(-1)!)?.[1] ?? '?'}** items have a score above 250.` };
    const hinted = tools.some((t) => t.includes(`requests.get('${url()}').json()`));
    if (hinted && question.includes('[FOLLOWS]'))
      return {
        text: 'Loading it from the URL.',
        toolCalls: [
          py(
            `import requests\ndata = requests.get('${url()}').json()\nprint(len([i for i in data if i['score'] > 250]))`,
          ),
        ],
      };
    const fetch = question.includes('[NOFETCH]')
      ? []
      : [{ name: 'web_fetch', arguments: { url: url(), type: 'json' } }];
    return { text: 'Step 1: download. Step 2: parse.', toolCalls: [...fetch, py(OPEN), py(FILTER), py(COUNT)] };
  };
}

describe('a09: a file the code opens that web_fetch never saved', () => {
  let a: AnalysisEnv;
  let data: Server;
  let url = '';
  let outcomes = new Map<string, CaseOutcome>();

  beforeAll(async () => {
    data = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ITEMS)),
    );
    await new Promise<void>((r) => data.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(data.address() as AddressInfo).port}/items.json`;
    a = await startAnalysisEnv(
      model(() => url),
      {
        analysis: { fetch: { allowPrivateAddresses: true } },
        conversation: { crossCheck: false },
      },
    );
    const ask = (tag: string) => `Download the items from ${url}; how many have a score above 250? ${tag}`;
    outcomes = await runCases(
      a,
      [
        ['follows', 'react', ask('[FOLLOWS]')],
        ['nofetch', 'react', ask('[NOFETCH] [FOLLOWS]')],
        ['repeats', 'react', ask('[REPEATS]')],
      ],
      Buffer.from('region,amount\nnorth,10\n'),
    ); // an unrelated file the user uploaded
  }, 600_000);
  afterAll(async () => {
    await a?.close();
    data?.close();
  });

  const sentTo = (tag: string) =>
    a.env.llm.log.filter((e) => e.messages.some((m) => m.role === 'user' && m.content.includes(tag))).at(-1)!;

  it('the missing file: the body came back in the tool result, no file saved; load the URL in the code', () => {
    const tools = toolTexts(sentTo('[REPEATS]'));
    const opened = tools.find((t) => t.includes('FileNotFoundError'))!;
    expect(opened).toContain(
      `"hint":"there is no file items.json in the workspace (its files: sales.csv): the web_fetch tool returned the content of ${url} in its result and saved no file.`,
    );
    expect(opened).toContain(`data = requests.get('${url}').json()`);
  });

  it('the cells after it: the name is undefined because the code defining it failed, not this code', () => {
    const tools = toolTexts(sentTo('[REPEATS]'));
    const filtered = tools.find((t) => t.includes("NameError: name 'data' is not defined"))!;
    expect(filtered).toContain('data is not defined because the earlier code that defines it failed');
    const counted = tools.find((t) => t.includes("NameError: name 'filtered_items' is not defined"))!;
    expect(counted).toContain('filtered_items is not defined because the earlier code that defines it failed');
  });

  it('a model following the hint loads the URL in its code and answers the count', () => {
    const o = outcomes.get('follows')!;
    expect(o.status).toBe('completed');
    expect(o.answer).toContain(`**${ABOVE_250}** items`);
  });

  it('never fetched: the hint says the URL was not downloaded; followed, the count is answered', () => {
    const tools = toolTexts(sentTo('[NOFETCH]'));
    expect(tools.find((t) => t.includes('FileNotFoundError'))).toContain(`${url} was not downloaded`);
    const o = outcomes.get('nofetch')!;
    expect(o.status).toBe('completed');
    expect(o.answer).toContain(`**${ABOVE_250}** items`);
  });

  it('a model that repeats the same calls is still stopped', () => {
    const o = outcomes.get('repeats')!;
    expect(o.status).toBe('failed');
    expect(String(o.events.at(-1)!.data.error)).toContain('the same failing python_execute call 3 times');
  });
});
