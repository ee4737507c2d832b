/**
 * python_execute / node_execute against the real bwrap sandbox: persistence, helpers, figure capture, manifest
 * feedback, and hostile code (network, files outside, off-list packages, time and size limits). After each hostile
 * case the same conversation must still run code (the worker and the sandbox are alive).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeConversationTools, runTool, type ToolContext } from '../../analysis/tools/index';
import type { PythonExecuteReport } from '../../analysis/tools/pythonExecute';
import { makeWorkspace, testAnalysisConfig, toolContext } from './helpers';

const py = async (ctx: ToolContext, args: Record<string, unknown>) => {
  return runTool('python_execute', args, ctx);
};
const report = async (ctx: ToolContext, code: string, extra: Record<string, unknown> = {}) => {
  const outcome = await py(ctx, { code, ...extra });
  expect(outcome.ok, outcome.error).toBe(true);
  return outcome.result as PythonExecuteReport;
};

describe('python_execute (bwrap)', () => {
  const env = makeWorkspace();
  const ctx = toolContext(
    env.workspaceDir,
    testAnalysisConfig({ executionTimeoutMs: 4000, workspaceMaxBytes: 8 * 1024 * 1024 }),
  );
  let listener: Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    listener = createServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(async () => {
    await disposeConversationTools(ctx.conversationId);
    listener?.close();
    env.cleanup();
  });
  const stillAlive = async () => {
    expect(process.kill(process.pid, 0)).toBe(true);
    expect((await report(ctx, '1 + 1')).stdout).toBe('2\n');
  };

  it('keeps variables between calls of one conversation, and reads workspace files', async () => {
    writeFileSync(join(env.workspaceDir, 'sales.csv'), 'region,sales\nnorth,10\nsouth,32\nnorth,5\n');
    const first = await report(
      ctx,
      'import pandas as pd\ndf = pd.read_csv("sales.csv")\ntotal = int(df["sales"].sum())\nprint(total)',
      { packages: ['pandas'] },
    );
    expect(first).toMatchObject({ success: true, stdout: '47\n', returnCode: 0, stateReset: false });
    const second = await report(ctx, 'print(total * 2, len(df))');
    expect(second.stdout).toBe('94 3\n');
  });

  it('save_table / save_chart write data files and manifest entries; open figures become PNG images', async () => {
    const r = await report(
      ctx,
      [
        'by = df.groupby("region", as_index=False)["sales"].sum()',
        'save_table(by, id="totals", title="Sales by region")',
        'save_chart(by, "bar", x="region", y="sales", title="Sales", id="sales-bar")',
        'import matplotlib.pyplot as plt',
        'plt.figure(); plt.plot([1, 2, 3], [3, 1, 2]); plt.title("Trend")',
      ].join('\n'),
    );
    expect(r.success, r.error).toBe(true);
    const byId = Object.fromEntries((r.visualizations ?? []).map((v) => [v.id, v]));
    expect(byId.totals).toMatchObject({ type: 'table', dataFile: 'viz/totals.csv' });
    expect(byId['sales-bar']).toMatchObject({ type: 'bar_chart', config: { xColumn: 'region', yColumn: 'sales' } });
    const image = (r.visualizations ?? []).find((v) => v.type === 'image');
    expect(image).toMatchObject({ type: 'image', title: 'Trend' });
    const png = readFileSync(join(env.workspaceDir, (image as { file: string }).file));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const paths = r.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'viz/totals.csv',
        'viz/sales-bar.csv',
        'visualization_manifest.json',
        (image as { file: string }).file,
      ]),
    );
    expect(r.files.find((f) => f.path === 'viz/totals.csv')).toMatchObject({ filename: 'totals.csv', type: 'csv' });
    expect(readFileSync(join(env.workspaceDir, 'viz/totals.csv'), 'utf8')).toBe('region,sales\nnorth,15\nsouth,32\n');
    // What was saved is shown back: each data file's first lines under its path.
    expect(r.savedData).toContain('viz/totals.csv:\nregion,sales\nnorth,15\nsouth,32\n');
    expect(r.savedData).toContain('viz/sales-bar.csv:\nregion,sales\n');
  });

  it("a saved table holding no value (the 1.5B's a15: a rolling mean over one row) is shown saying so", async () => {
    const r = await report(
      ctx,
      [
        'import pandas as pd',
        "prices = pd.DataFrame({'date': ['2024-02-28', '2024-02-29'], 'price': [83.1, 84.2]})",
        "ma = prices[prices['date'] == prices['date'].max()]['price'].rolling(window=7).mean()",
        "save_table(ma, id='ma', title='7-day average')",
      ].join('\n'),
    );
    expect(r.success, r.error).toBe(true);
    expect(r.savedData).toMatch(/^viz\/ma\.csv:\nindex,price\n1,\n\(it holds no value/);
    // The code shows why: a rolling window over the one row selected.
    expect(r.savedData).toContain('rolling(7) gives NaN until 7 rows are in the window');
    // A call that saves nothing shows nothing saved.
    expect((await report(ctx, 'print(1)')).savedData).toBeUndefined();
  });

  it("a data file the code swaps for a symlink to a file outside is not previewed (the target's bytes never shown)", async () => {
    const r = await report(
      ctx,
      [
        "save_table(pd.DataFrame({'a': [1]}), id='leak', title='t')",
        'import os',
        "os.remove('viz/leak.csv')",
        `os.symlink(${JSON.stringify(env.secretPath)}, 'viz/leak.csv')`,
      ].join('\n'),
    );
    expect(JSON.stringify(r)).not.toContain('SECRET-ANSWER');
    // The manifest is whole again for the tests after this one.
    const mended = await report(
      ctx,
      "os.remove('viz/leak.csv')\nsave_table(pd.DataFrame({'a': [1]}), id='leak', title='t')",
    );
    expect(mended.success, mended.error).toBe(true);
  });

  it('runs in a workingDir sub-folder while the helpers still write to the workspace root', async () => {
    expect((await runTool('file_system', { action: 'write', path: 'sub/in.txt', content: 'x' }, ctx)).ok).toBe(true);
    const r = await report(
      ctx,
      'import os\nprint(sorted(os.listdir(".")))\nsave_table(df.head(1), id="from-sub")\nimport matplotlib.pyplot as plt\nplt.plot([1]); plt.show()',
      { workingDir: 'sub' },
    );
    expect(r).toMatchObject({ success: true, stdout: "['in.txt']\n", stderr: '' });
    expect(r.files.map((f) => f.path)).toContain('viz/from-sub.csv');
    expect((await py(ctx, { code: '1', workingDir: '../' })).error).toMatch(/"\.\." is refused/);
    expect((await py(ctx, { code: '1', workingDir: 'nope' })).error).toMatch(/not a folder of the workspace/);
  });

  it('reports a wrong manifest entry so the model can fix it, then accepts the corrected one', async () => {
    const manifest = (y: string) =>
      `import json\nm = json.load(open("visualization_manifest.json"))\nm["outputs"] = [o for o in m["outputs"] if o.get("id") != "hand"]\n` +
      `m["outputs"].append({"id": "hand", "type": "line_chart", "dataFile": "viz/totals.csv", "config": {"xColumn": "region", "yColumn": "${y}"}})\n` +
      `json.dump(m, open("visualization_manifest.json", "w"))`;
    const wrong = await report(ctx, manifest('revenue'));
    expect(wrong.success).toBe(false);
    expect(wrong.manifestErrors?.join('\n')).toMatch(
      /"revenue" not in viz\/totals\.csv \(its columns: "region", "sales"\)/,
    );
    expect(wrong.error).toMatch(/visualization_manifest\.json has problems/);
    expect(wrong.visualizations?.map((v) => v.id)).not.toContain('hand');
    const fixed = await report(ctx, manifest('sales'));
    expect(fixed.success, fixed.error).toBe(true);
    expect(fixed.manifestErrors).toBeUndefined();
    expect(fixed.visualizations?.find((v) => v.id === 'hand')).toMatchObject({ type: 'line_chart' });
  });

  it('code that tries the network gets no connection', async () => {
    const r = await report(
      ctx,
      `import socket\ns = socket.socket()\ns.settimeout(2)\ns.connect(("127.0.0.1", ${port}))`,
    );
    expect(r.success).toBe(false);
    expect(r.error).toMatch(/ConnectionRefusedError|Network is unreachable/);
    expect(r.returnCode).toBe(1);
    expect(connections).toBe(0);
    await stillAlive();
  });

  it('code cannot read outside the workspace', async () => {
    const r = await report(ctx, `print(open(${JSON.stringify(env.secretPath)}).read())`);
    expect(r.success).toBe(false);
    expect(r.error).toMatch(/FileNotFoundError|PermissionError/);
    expect(r.stdout).not.toContain('SECRET-ANSWER');
    const up = await report(ctx, 'print(open("../1_999_answer.xlsx").read())');
    expect(up.stdout).not.toContain('SECRET-ANSWER');
    await stillAlive();
  });

  it('refuses an off-list package, and pip install inside the sandbox cannot work', async () => {
    const refused = await py(ctx, { code: 'import torch', packages: ['torch'] });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/torch are not allowed.*Allowed, already installed: pandas/s);
    const pip = await report(
      ctx,
      'import subprocess, sys\nr = subprocess.run([sys.executable, "-m", "pip", "install", "--no-input", "six==1.16.0"], capture_output=True, text=True, timeout=60)\nprint("rc", r.returncode)',
    );
    expect(pip.stdout).toMatch(/rc [1-9]/);
    await stillAlive();
  });

  it('stops code that exceeds the time limit with a clear message, keeping the kernel', async () => {
    const r = await report(ctx, 'import time\nkeep = 41\nwhile True: pass', { timeout: 1 });
    expect(r).toMatchObject({ success: false, timedOut: true });
    expect(r.error).toMatch(/TimeoutError: execution exceeded 1 s/);
    expect((await report(ctx, 'keep + 1')).stdout).toBe('42\n');
  });

  it('kills code that ignores the interrupt, and says the state was reset', async () => {
    const r = await report(
      ctx,
      'import signal, time\nsignal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\ntime.sleep(60)',
      { timeout: 1 },
    );
    expect(r).toMatchObject({ success: false, timedOut: true, stateReset: true });
    expect(r.error).toMatch(/hard timeout: the code ignored the 1 s interrupt and was killed/);
    expect(r.notice).toMatch(/state was reset/);
    const next = await report(ctx, 'print("keep" in globals())');
    expect(next).toMatchObject({ stdout: 'False\n', stateReset: false }); // already announced, not news again
  });

  it('queues parallel calls of one conversation instead of failing', async () => {
    const [a, b] = await Promise.all([
      report(ctx, 'import time\ntime.sleep(0.3)\nprint("a")'),
      report(ctx, 'print("b")'),
    ]);
    expect([a.stdout, b.stdout]).toEqual(['a\n', 'b\n']);
  });

  it('refuses and cleans output that takes the workspace over its size limit', async () => {
    const r = await report(ctx, 'open("big.bin", "wb").write(b"x" * (10 * 1024 * 1024))');
    expect(r.success).toBe(false);
    expect(r.error).toMatch(/WorkspaceLimitError|File too large/);
    expect(
      existsSync(join(env.workspaceDir, 'big.bin')) ? readFileSync(join(env.workspaceDir, 'big.bin')).length : 0,
    ).toBeLessThanOrEqual(8 * 1024 * 1024);
    const many = await report(ctx, 'for i in range(3): open(f"part{i}.bin", "wb").write(b"y" * (3 * 1024 * 1024))');
    expect(many.success).toBe(false);
    expect(many.error).toMatch(
      /WorkspaceLimitError: the workspace exceeded its 8\.0 MB limit; removed the files this execution wrote: part/,
    );
    await stillAlive();
  });

  it('a symlink the code plants does not hand its target to the sandbox user when the sandbox is re-created', async () => {
    const planted = await report(ctx, `import os\nos.symlink(${JSON.stringify(env.secretPath)}, "planted-link")`);
    expect(planted.success, planted.error).toBe(true);
    const ownerBefore = statSync(env.secretPath).uid;
    await disposeConversationTools(ctx.conversationId); // the next call creates a sandbox, which hands the workspace over
    expect((await report(ctx, 'print(open("planted-link").read())')).stdout).not.toContain('SECRET-ANSWER');
    expect(statSync(env.secretPath).uid).toBe(ownerBefore);
    expect((await runTool('file_system', { action: 'read', path: 'planted-link' }, ctx)).error).toMatch(
      /outside the workspace/,
    );
  });

  it('tells the model when the state was reset (kernel gone, as after a worker restart)', async () => {
    await disposeConversationTools(ctx.conversationId);
    const r = await report(ctx, 'print("total" in globals())');
    expect(r.stdout).toBe('False\n');
    expect(r.stateReset).toBe(true);
    expect(r.notice).toMatch(/state was reset/);
    expect((await report(ctx, 'x = 1')).stateReset).toBe(false);
  });

  it('node_execute runs JavaScript with the same isolation', async () => {
    const ok = await runTool(
      'node_execute',
      { code: 'const fs = require("fs"); fs.writeFileSync("from-node.txt", "hi"); console.log(6 * 7)' },
      ctx,
    );
    expect(ok.ok, ok.error).toBe(true);
    expect(ok.result).toMatchObject({ success: true, stdout: '42\n', files: [{ path: 'from-node.txt', size: 2 }] });
    const secret = await runTool(
      'node_execute',
      { code: `console.log(require("fs").readFileSync(${JSON.stringify(env.secretPath)}, "utf8"))` },
      ctx,
    );
    expect(secret.result).toMatchObject({ success: false });
    expect(JSON.stringify(secret.result)).not.toContain('SECRET-ANSWER');
    const net = await runTool(
      'node_execute',
      { code: `require("net").connect(${port}, "127.0.0.1").on("error", (e) => { console.log("ERR", e.code); })` },
      ctx,
    );
    expect((net.result as { stdout: string }).stdout).toMatch(/ERR (ECONNREFUSED|ENETUNREACH)/);
    expect(connections).toBe(0);
    const spin = await runTool('node_execute', { code: 'while (true) {}', timeout: 1 }, ctx);
    expect(spin.result).toMatchObject({
      success: false,
      timedOut: true,
      error: expect.stringMatching(/TimeoutError: execution exceeded 1 s/),
    });
    expect((await runTool('node_execute', { code: 'console.log("alive")' }, ctx)).result).toMatchObject({
      stdout: 'alive\n',
    });
  });
});
