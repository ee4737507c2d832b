import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listInfos, readInfo, writeInfo } from '../../analysis/conversation/info';
import { conversationLayout } from '../../analysis/conversation/layout';
import { readShares } from '../../analysis/conversation/shares';
import { readMessage, writeMessage } from '../../analysis/conversation/transcript';
import { CorruptFileError } from '../../lib/json';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sb-convfiles-'));
const info = (id: string) => ({
  id,
  title: 'sales',
  pattern: 'react' as const,
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  deleted: false,
});
afterEach(() => vi.restoreAllMocks());

describe('conversation folder files: missing and corrupt told apart', () => {
  it('conversation.json: missing is undefined, corrupt throws naming the file; an old one without owner loads', async () => {
    const root = tmp();
    const dir = path.join(root, 'c-good');
    expect(await readInfo(dir)).toBeUndefined();
    const { deleted: _deleted, ...beforeDeletedAndOwners } = info('c-good');
    mkdirSync(dir, { recursive: true });
    writeFileSync(conversationLayout(dir).info, JSON.stringify(beforeDeletedAndOwners));
    expect(await readInfo(dir)).toEqual(info('c-good'));
    const bad = path.join(root, 'c-bad');
    mkdirSync(bad);
    writeFileSync(conversationLayout(bad).info, JSON.stringify({ ...info('c-bad'), pattern: 'telepathy' }));
    const err = await readInfo(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptFileError);
    expect((err as Error).message).toContain(`${conversationLayout(bad).info}: unexpected content: pattern: `);
  });

  it('the conversation list reports a corrupt conversation.json and lists the others', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const root = tmp();
    const ids = [0, 1].map((n) => `c${Date.now().toString(36)}${n}abcd`);
    await writeInfo(path.join(root, ids[0]), info(ids[0]));
    mkdirSync(path.join(root, ids[1]));
    writeFileSync(conversationLayout(path.join(root, ids[1])).info, '{"id":');
    const listed = await listInfos(root);
    expect(listed.map((i) => i.id)).toEqual([ids[0]]);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/conversation\.json: not valid JSON .* — the conversation is left out of the list$/),
    ]);
  });

  it('shares.json: missing is no grants; corrupt throws (dropping grants would revoke them silently)', async () => {
    const dir = tmp();
    expect(await readShares(dir)).toEqual([]);
    writeFileSync(path.join(dir, 'shares.json'), JSON.stringify({ shares: [{ id: 'short' }] }));
    await expect(readShares(dir)).rejects.toThrow(/shares\.json: unexpected content: shares\.0\.id: /);
  });

  it('a transcript message: missing is undefined, corrupt throws naming its file', async () => {
    const dir = tmp();
    await writeMessage(dir, 0, { role: 'user', content: 'hi' });
    expect(await readMessage(dir, 0)).toEqual({ role: 'user', content: 'hi' });
    expect(await readMessage(dir, 1)).toBeUndefined();
    writeFileSync(path.join(dir, '0001.json'), '{"role":"user","content":');
    await expect(readMessage(dir, 1)).rejects.toThrow(`${path.join(dir, '0001.json')}: not valid JSON`);
  });
});
