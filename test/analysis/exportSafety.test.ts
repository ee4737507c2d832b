/**
 * What leaves a conversation folder (an export's inputs, a fork's copy, the sources grounding quotes) never follows a
 * link the sandboxed code planted in the workspace to a file outside it.
 */
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyForFork } from '../../analysis/conversation/fork';
import { conversationLayout } from '../../analysis/conversation/layout';
import { collectInputs } from '../../analysis/export/inputs';
import { turnSources } from '../../analysis/grounding/sources';

function folders() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sb-safety-'));
  const secret = path.join(root, 'secret.txt');
  writeFileSync(secret, 'SECRET 424242\n');
  const from = conversationLayout(path.join(root, 'from'));
  mkdirSync(path.join(from.workspace, 'downloads'), { recursive: true });
  mkdirSync(from.inputs, { recursive: true });
  writeFileSync(path.join(from.inputs, 'sales.csv'), 'region,amount\nnorth,10\n');
  writeFileSync(path.join(from.workspace, 'sales.csv'), 'region,amount\nnorth,10\n');
  symlinkSync(secret, path.join(from.workspace, 'downloads', 'items.json'));
  symlinkSync(secret, path.join(from.workspace, 'table.csv'));
  symlinkSync(path.dirname(secret), path.join(from.workspace, 'up'));
  return { root, from, to: conversationLayout(path.join(root, 'to')) };
}

describe('links planted in a workspace', () => {
  it('an export ships the uploads, and no download that is a link out of the workspace', async () => {
    const { from } = folders();
    const inputs = await collectInputs(from, [], ['downloads/items.json']);
    expect([...inputs.keys()]).toEqual(['sales.csv']);
  });

  it('a fork copies regular files only, never through a link', async () => {
    const { from, to } = folders();
    await copyForFork(from, to, { debug: false, maxBytes: 1_000_000 });
    // Neither the linked file, nor the linked folder, nor the folder that held only a link.
    expect(readdirSync(to.workspace).sort()).toEqual(['sales.csv']);
    expect(existsSync(path.join(to.inputs, 'sales.csv'))).toBe(true);
  });

  it('a fork over the workspace limit is refused, naming the limit', async () => {
    const { from, to } = folders();
    await expect(copyForFork(from, to, { debug: false, maxBytes: 10 })).rejects.toThrow(
      /more than the workspace limit/,
    );
  });

  it('grounding reads no table or download that leads out of the workspace', async () => {
    const { from } = folders();
    const call = {
      stepId: 't1-s0',
      callId: 'c1',
      tool: 'python_execute',
      args: {},
      ok: true,
      durationMs: 1,
      result: { stdout: '', files: [{ path: 'table.csv' }], visualizations: [{ dataFile: 'table.csv' }] },
    };
    const fetch = {
      stepId: 't1-s0',
      callId: 'c2',
      tool: 'web_fetch',
      args: {},
      ok: true,
      durationMs: 1,
      result: { file: { path: 'downloads/items.json' } },
    };
    const sources = await turnSources([call, fetch], from.workspace, '');
    expect(sources.map((s) => s.text).join('')).not.toContain('424242');
  });
});
