/**
 * python_execute code that fetches a URL itself (what the embedded models write for the suite's download requests): the
 * URLs it names are fetched by web_fetch under its policy and served to the code from the saved files, in the real
 * bwrap sandbox against a local HTTP server. Abuse cases: a refused address is never fetched and the code still finds
 * no network; only GETs of the named URLs are served; at most MAX_CODE_DOWNLOADS URLs per call.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedPython } from '../../analysis/conversation/isolatedProgram';
import { MAX_CODE_DOWNLOADS, urlsInCode } from '../../analysis/tools/codeDownloads';
import { disposeConversationTools, runTool, type ToolContext } from '../../analysis/tools/index';
import type { PythonExecuteReport } from '../../analysis/tools/pythonExecute';
import { makeWorkspace, testAnalysisConfig, toolContext } from './helpers';

const ITEMS = [
  { name: 'item-a', score: 300 },
  { name: 'item-b', score: 120 },
  { name: 'item-c', score: 260 },
];

describe('urlsInCode', () => {
  it('takes the quoted http(s) URLs once each, in order, at most MAX_CODE_DOWNLOADS', () => {
    const code = `# see http://docs.example/ (a comment, unquoted)\nr = requests.get("http://h:1/a.json")\nb = pd.read_csv('https://h/b.csv')\nrequests.get("http://h:1/a.json")`;
    expect(urlsInCode(code)).toEqual(['http://h:1/a.json', 'https://h/b.csv']);
    const many = Array.from({ length: 6 }, (_, i) => `u${i} = "http://h/${i}.json"`).join('\n');
    expect(urlsInCode(many)).toHaveLength(MAX_CODE_DOWNLOADS);
    expect(urlsInCode('requests.get(base + "/items.json")')).toEqual([]);
    // The cross-check's second program runs wrapped in a string literal: its URLs are found there too.
    expect(urlsInCode(isolatedPython('url = "http://h:1/a.json"\nr = requests.get(url)'))).toEqual([
      'http://h:1/a.json',
    ]);
  });
});

describe('python_execute serves the URLs its code names (bwrap)', () => {
  const env = makeWorkspace();
  const contexts: ToolContext[] = [];
  let server: Server;
  let base = '';
  const hits: string[] = [];
  const context = (allowPrivateAddresses: boolean) => {
    const ctx = toolContext(
      env.workspaceDir,
      testAnalysisConfig({ executionTimeoutMs: 20_000, fetch: { allowPrivateAddresses } }),
    );
    contexts.push(ctx);
    return ctx;
  };
  const run = async (ctx: ToolContext, code: string) => {
    const outcome = await runTool('python_execute', { code }, ctx);
    expect(outcome.ok, outcome.error).toBe(true);
    return outcome.result as PythonExecuteReport;
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ITEMS));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const ctx of contexts) await disposeConversationTools(ctx.conversationId);
    server?.close();
    env.cleanup();
  });

  it('requests.get, urllib and pandas read the fetched file; the body is saved under downloads/ and the model told', async () => {
    const ctx = context(true);
    hits.length = 0;
    const r = await run(
      ctx,
      `import requests\nitems = requests.get("${base}/items.json").json()\nprint(sum(i['score'] for i in items if i['score'] > 250))`,
    );
    expect(r).toMatchObject({ success: true, stdout: '560\n' });
    expect(r.downloads).toEqual([{ url: `${base}/items.json`, file: 'downloads/items.json' }]);
    expect(r.downloadNote).toMatch(
      /Python has no network: .*items\.json was fetched with web_fetch into downloads\/items\.json/,
    );
    expect(JSON.parse(readFileSync(join(env.workspaceDir, 'downloads/items.json'), 'utf8'))).toEqual(ITEMS);
    expect(hits).toEqual(['GET /items.json']);

    const viaUrllib = await run(
      ctx,
      `import json, urllib.request\nwith urllib.request.urlopen('${base}/items.json') as f:\n    print(len(json.load(f)))`,
    );
    expect(viaUrllib.stdout).toBe('3\n');
    const viaPandas = await run(ctx, `import pandas as pd\nprint(pd.read_json("${base}/items.json")['score'].sum())`);
    expect(viaPandas.stdout).toBe('680\n');
    // The cross-check's second program (its code wrapped in a string literal, run in fresh globals) is served too.
    const second = await run(
      ctx,
      isolatedPython(`import requests\nprint(len(requests.get("${base}/items.json").json()))`),
    );
    expect(second).toMatchObject({ success: true, stdout: '3\n' });
  });

  it("the web_fetch tool called as a Python function (the 1.5B's a09) reads a URL the code names; another is refused, saying why", async () => {
    const ctx = context(true);
    const code = `import json\ndata = json.loads(web_fetch("${base}/items.json"))\nprint(sum(1 for i in data if i['score'] > 250))`;
    expect(await run(ctx, code)).toMatchObject({ success: true, stdout: '2\n' });
    expect((await run(ctx, `print(web_fetch("${base}/items.json").json()[0]['name'])`)).stdout).toBe(
      `${ITEMS[0].name}\n`,
    );
    // The second program has it too.
    const second = await run(ctx, isolatedPython(`print(len(web_fetch("${base}/items.json").json()))`));
    expect(second).toMatchObject({ success: true, stdout: '3\n' });
    // A URL this call does not write in its code is not fetched for it.
    const other = await run(ctx, 'u = "http" + "://example.invalid/x.json"\nweb_fetch(u)');
    expect(other.success).toBe(false);
    expect(other.error).toMatch(/web_fetch in Python reads only URLs written as quoted strings/);
  });

  it('only GETs of the URLs the call names are served: a POST, or a URL built at run time, finds no network', async () => {
    const ctx = context(true);
    const post = await run(ctx, `import requests\nrequests.post("${base}/items.json", json={})`);
    expect(post.success).toBe(false);
    expect(post.error).toMatch(/ConnectionError|Connection refused|Errno/);
    const rest = base.replace('http', '');
    const built = await run(ctx, `import requests\nrequests.get("http" + "${rest}/items.json")`);
    expect(built.downloads).toBeUndefined();
    // Nor is the URL served in the first test's calls: this call does not name it.
    expect(built.success).toBe(false);
  });

  it('a private address refused by the web_fetch policy is never fetched: the code still finds no network', async () => {
    const ctx = context(false);
    hits.length = 0;
    const r = await run(ctx, `import requests\nprint(requests.get("${base}/items.json").text)`);
    expect(r.success).toBe(false);
    expect(r.downloads).toHaveLength(1);
    expect(r.downloads![0].file).toBeUndefined();
    expect(r.downloads![0].error).toMatch(/private|loopback|refused|not allowed/i);
    expect(r.downloadNote).toMatch(/could not be fetched for the code/);
    expect(hits).toEqual([]);
  });

  it('fetches at most MAX_CODE_DOWNLOADS URLs for one call', async () => {
    const ctx = context(true);
    hits.length = 0;
    const urls = Array.from({ length: 5 }, (_, i) => `"${base}/f${i}.json"`).join(', ');
    const r = await run(ctx, `urls = [${urls}]\nprint(len(urls))`);
    expect(r.downloads).toHaveLength(MAX_CODE_DOWNLOADS);
    expect(hits).toHaveLength(MAX_CODE_DOWNLOADS);
  });
});
