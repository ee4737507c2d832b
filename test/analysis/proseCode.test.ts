/**
 * Abuse cases for code the text protocol takes from a model's prose (a ```python block, code in a triple-quoted JSON
 * string, the retry of a required call): it becomes a python_execute call and runs in the bwrap sandbox like any other,
 * never on the host. The hostile blocks try to read a file outside the workspace, write outside it and reach the host.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { disposeConversationTools, runTool, toolSpecs } from '../../analysis/tools/index';
import type { PythonExecuteReport } from '../../analysis/tools/pythonExecute';
import { parseToolCalls } from '../../lib/llm/textActions';
import { makeWorkspace, testAnalysisConfig, toolContext } from './helpers';

describe('code taken from prose runs only in the sandbox', () => {
  const env = makeWorkspace();
  const ctx = toolContext(env.workspaceDir, testAnalysisConfig({ executionTimeoutMs: 8000 }));
  const offered = toolSpecs();
  afterAll(async () => {
    await disposeConversationTools(ctx.conversationId);
    env.cleanup();
  });

  /** The one call the reply's text becomes, run as the workflow would run it. */
  async function runProse(text: string): Promise<PythonExecuteReport> {
    const { calls } = parseToolCalls(text, offered);
    expect(calls.map((c) => c.name)).toEqual(['python_execute']);
    const outcome = await runTool(calls[0].name, JSON.parse(calls[0].arguments) as Record<string, unknown>, ctx);
    expect(outcome.ok, outcome.error).toBe(true);
    return outcome.result as PythonExecuteReport;
  }

  it('a ```python block reading a file outside the workspace cannot see it', async () => {
    const r = await runProse(
      `Let me check:\n\`\`\`python\ntry:\n    print(open(${JSON.stringify(env.secretPath)}).read())\nexcept Exception as e:\n    print('refused', type(e).__name__)\n\`\`\``,
    );
    expect(r.stdout).not.toContain('SECRET-ANSWER-CONTENT');
    expect(r.stdout).toMatch(/refused/);
  });

  it('code in a triple-quoted JSON string writing outside the workspace and to the host leaves no file there', async () => {
    const outside = join(env.root, 'planted.txt');
    const text = `\`\`\`json\n{"tool": "python_execute", "args": {"code": """\n    import os\n    for p in [${JSON.stringify(outside)}, '/tmp/sb-prose-planted']:\n        try:\n            open(p, 'w').write('x')\n            print('wrote', p)\n        except Exception as e:\n            print('refused', type(e).__name__)\n    """}}\n\`\`\``;
    const r = await runProse(text);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync('/tmp/sb-prose-planted')).toBe(false);
    expect(r.stdout).toMatch(/refused/);
  });
});
