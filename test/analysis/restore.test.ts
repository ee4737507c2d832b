/**
 * python_execute restores a lost kernel (real bwrap sandbox): the conversation's earlier successful cells are re-run in
 * order within a budget; only a restore that fails or runs out of budget reports stateReset, naming the variables gone.
 */
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { disposeConversationTools, runTool, type PythonCell, type ToolContext } from '../../analysis/tools/index';
import type { PythonExecuteReport } from '../../analysis/tools/pythonExecute';
import { makeWorkspace, testAnalysisConfig, toolContext } from './helpers';

/** A conversation whose history is what this test ran successfully (as the event log would say). */
function conversation(workspaceDir: string, config: Record<string, unknown> = {}) {
  const history: PythonCell[] = [];
  const ctx: ToolContext = toolContext(workspaceDir, testAnalysisConfig({ executionTimeoutMs: 10_000, ...config }), {
    pythonHistory: async () => [...history],
  });
  const run = async (code: string, extra: Record<string, unknown> = {}): Promise<PythonExecuteReport> => {
    const outcome = await runTool('python_execute', { code, ...extra }, ctx);
    expect(outcome.ok, outcome.error).toBe(true);
    const report = outcome.result as PythonExecuteReport;
    if (report.success)
      history.push({
        code,
        turnId: `t${history.length + 1}`,
        callId: `call-${history.length + 1}`,
        ...(extra.workingDir ? { workingDir: String(extra.workingDir) } : {}),
      });
    return report;
  };
  return { ctx, run, history };
}

describe('restoring a lost Python kernel', () => {
  const env = makeWorkspace();
  const ids: string[] = [];
  afterAll(async () => {
    await Promise.all(ids.map((id) => disposeConversationTools(id)));
    env.cleanup();
  });
  writeFileSync(join(env.workspaceDir, 'sales.csv'), 'region,amount\nnorth,10\nsouth,32\nnorth,5\n');

  it('re-runs the earlier cells in order (each in its folder) and reports what it restored, not stateReset', async () => {
    const c = conversation(env.workspaceDir);
    ids.push(c.ctx.conversationId);
    await c.run('import pandas as pd\ndf = pd.read_csv("sales.csv")');
    await c.run('total = int(df["amount"].sum())\nprint(total)');
    await c.run('import os\nos.makedirs("sub", exist_ok=True)\nopen("sub/here.txt", "w").write("x")');
    await c.run('where = open("here.txt").read()', { workingDir: 'sub' });
    await disposeConversationTools(c.ctx.conversationId); // the kernel is gone, as after a worker restart
    const r = await c.run('print(total * 2, len(df), where)');
    expect(r).toMatchObject({
      success: true,
      stdout: '94 3 x\n',
      stateReset: false,
      restored: { cells: 4, turns: ['t1', 't2', 't3', 't4'] },
    });
    expect(r.notice).toMatch(/restored by re-running 4 earlier cell/);
    // The call ran in the workspace root again, not in the last restored cell's folder.
    expect((await c.run('import os\nprint(os.path.basename(os.getcwd()))')).stdout).not.toBe('sub\n');
  });

  it('brings the earlier state back at once when the code itself killed the kernel', async () => {
    const c = conversation(env.workspaceDir);
    ids.push(c.ctx.conversationId);
    await c.run('keep = 41');
    const killed = await c.run(
      'import signal, time\nsignal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\ntime.sleep(60)',
      { timeout: 1 },
    );
    expect(killed).toMatchObject({ success: false, timedOut: true, stateReset: false, restored: { cells: 1 } });
    expect((await c.run('print(keep + 1)')).stdout).toBe('42\n');
  });

  it('a restore over its budget reports stateReset with the names that are gone', async () => {
    const c = conversation(env.workspaceDir, { restoreBudgetMs: 1500 });
    ids.push(c.ctx.conversationId);
    await c.run('import time\nfirst = 1\ntime.sleep(2)\nslow = 2');
    await c.run('def helper():\n    inner = 3\n    return inner\nlast = [i for i in range(3)]');
    await disposeConversationTools(c.ctx.conversationId);
    const r = await c.run('print("first" in globals(), "slow" in globals())');
    expect(r).toMatchObject({ stateReset: true, stdout: 'True False\n' });
    expect(r.lostVariables).toEqual(['helper', 'last', 'slow']);
    expect(r.notice).toMatch(
      /restore budget of 1\.5 s ran out during cell 1 of 2 \(turn t1, call call-1\).*Gone: helper, last, slow\./s,
    );
  });

  it('a restore whose earlier cells now fail reports stateReset, the failing cell and its error; the conversation goes on', async () => {
    const c = conversation(env.workspaceDir);
    ids.push(c.ctx.conversationId);
    writeFileSync(join(env.workspaceDir, 'raw.csv'), 'a\n1\n');
    await c.run('import pandas as pd\nraw = pd.read_csv("raw.csv")');
    rmSync(join(env.workspaceDir, 'raw.csv'));
    await disposeConversationTools(c.ctx.conversationId);
    const r = await c.run('x = 1\nprint("ok")');
    expect(r).toMatchObject({ success: true, stdout: 'ok\n', stateReset: true, lostVariables: ['raw'] }); // pd was imported before the read failed
    expect(r.notice).toMatch(/cell 1 of 1 \(turn t1, call call-1\) now fails: FileNotFoundError/);
    expect((await c.run('print(x + 1)')).stdout).toBe('2\n');
  });

  it('without a history to restore from (no conversation), a lost kernel is reported as before', async () => {
    const ctx = toolContext(env.workspaceDir, testAnalysisConfig());
    ids.push(ctx.conversationId);
    expect((await runTool('python_execute', { code: 'y = 1' }, ctx)).ok).toBe(true);
    await disposeConversationTools(ctx.conversationId);
    const r = (await runTool('python_execute', { code: 'print("y" in globals())' }, ctx)).result as PythonExecuteReport;
    expect(r).toMatchObject({ stdout: 'False\n', stateReset: true });
    expect(r.restored).toBeUndefined();
  });
});
