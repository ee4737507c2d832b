import { mkdtempSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type ConversationError } from '../../analysis/conversation/errors';
import { appendEvents, readEvents } from '../../analysis/conversation/eventLog';
import { conversationLayout } from '../../analysis/conversation/layout';
import { critiquePasses, parseBest, parseClassification } from '../../analysis/conversation/prompts';
import { checkUpload } from '../../analysis/conversation/uploads';

describe('event log', () => {
  it('numbers events 1, 2, 3… and appends an event key only once (retried activities)', async () => {
    const layout = conversationLayout(mkdtempSync(path.join(os.tmpdir(), 'sb-log-')));
    const started = {
      type: 'turn_started' as const,
      turnId: 't1',
      key: 't1:started',
      data: { pattern: 'react' as const, text: 'hi' },
    };
    const answer = { type: 'answer' as const, turnId: 't1', key: 't1:answer', data: { text: 'done' } };
    await appendEvents(layout, [started]);
    await Promise.all([appendEvents(layout, [started, answer]), appendEvents(layout, [answer])]);
    const events = await readEvents(layout);
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'turn_started'],
      [2, 'answer'],
    ]);
    expect((await readEvents(layout, 1)).map((e) => e.seq)).toEqual([2]);
  });

  it('a corrupt complete line is reported with its line number and left out; a torn tail is quiet and appended past', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const layout = conversationLayout(mkdtempSync(path.join(os.tmpdir(), 'sb-log-')));
    const answer = (n: number) => ({ type: 'answer' as const, turnId: 't1', key: `a${n}`, data: { text: `${n}` } });
    await appendEvents(layout, [answer(1)]);
    await appendFile(layout.events, '{"seq":2,"at":"x","type":"answer","data":{"te\n'); // a complete, broken line
    await appendEvents(layout, [answer(3)]);
    await appendFile(layout.events, '{"seq":9,"at":"x","type":"nonsense","data":{}}\n{"seq":4,"at'); // wrong type; torn tail
    expect((await readEvents(layout)).map((e) => e.data)).toEqual([{ text: '1' }, { text: '3' }]);
    const warned = warn.mock.calls.map((c) => String(c[0]));
    expect(warned).toHaveLength(2);
    expect(warned[0]).toContain(`corrupt file ${layout.events}:2: not valid JSON`);
    expect(warned[1]).toContain(`corrupt file ${layout.events}:4: unexpected content: type: `);
    expect(warned[1]).toContain('this event is left out of the conversation');
    const [added] = await appendEvents(layout, [answer(5)]); // after the torn tail: on a line of its own
    expect(added.seq).toBe(3);
    expect((await readEvents(layout)).map((e) => e.data)).toEqual([{ text: '1' }, { text: '3' }, { text: '5' }]);
    expect(warn.mock.calls.map((c) => String(c[0])).slice(2)).toEqual([
      expect.stringContaining(`corrupt file ${layout.events}:5: not valid JSON`),
    ]);
    warn.mockRestore();
  });
});

describe('uploads', () => {
  const refused = (name: string, data: Buffer) => {
    try {
      checkUpload(name, data, 1000);
    } catch (err) {
      return err as ConversationError;
    }
    throw new Error('accepted');
  };

  it('refuses content that is not what the name says, unknown types, paths and size', () => {
    expect(refused('a.xlsx', Buffer.from('a,b\n'))).toMatchObject({
      kind: 'refused_type',
      message: 'a.xlsx is not an XLSX workbook (a ZIP file): its content does not match its name',
    });
    expect(refused('a.json', Buffer.from('{nope'))).toMatchObject({ kind: 'refused_type' });
    expect(refused('a.csv', Buffer.from([0x61, 0x00, 0x62]))).toMatchObject({ kind: 'refused_type' });
    expect(refused('a.exe', Buffer.from('MZ'))).toMatchObject({ kind: 'refused_type' });
    expect(refused('../a.csv', Buffer.from('a'))).toMatchObject({ kind: 'bad_input' });
    expect(refused('big.csv', Buffer.alloc(2000, 0x61))).toMatchObject({ kind: 'too_large' });
  });

  it('re-encodes UTF-16 and Windows-1252 text to UTF-8 and says so', () => {
    const utf16 = checkUpload(
      'a.csv',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('né,1\n', 'utf16le')]),
      1000,
    );
    expect(utf16).toMatchObject({ note: 'converted from UTF-16 LE to UTF-8' });
    expect(utf16.data.toString('utf8')).toBe('né,1\n');
    const latin1 = checkUpload('a.csv', Buffer.from([0x6e, 0xe9, 0x2c, 0x31]), 1000);
    expect(latin1.data.toString('utf8')).toBe('né,1');
    expect(latin1.note).toContain('Windows-1252');
    expect(checkUpload('a.csv', Buffer.from('plain'), 1000).note).toBeUndefined();
  });
});

describe('pattern reply parsing', () => {
  it('reads the JIT choice, the best candidate and the critique verdict; falls back clearly', () => {
    expect(parseClassification('because\nPATTERN: plan_execute')).toEqual({
      pattern: 'plan_execute',
      recognised: true,
    });
    expect(parseClassification('PATTERN: magic')).toEqual({ pattern: 'react', recognised: false });
    expect(parseBest('x\nBEST: 3', 3)).toBe(2);
    expect(parseBest('BEST: 9', 3)).toBe(0);
    expect(critiquePasses('1. ok\nVERDICT: OK')).toBe(true);
    expect(critiquePasses('VERDICT: REVISE')).toBe(false);
  });
});
