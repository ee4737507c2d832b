import { describe, expect, it } from 'vitest';
import type { DebugToolCall } from '../../analysis/conversation/debug';
import { missingFileHint, undefinedNameHint } from '../../analysis/conversation/turnErrorHints';

/** The 1.5B's a09 calls (run at c7450a7), as the debug records hold them. */
const URL = 'http://127.0.0.1:45479/items.json';
const inlineFetch: DebugToolCall = {
  callId: 'action_0',
  tool: 'web_fetch',
  args: { url: URL, type: 'json' },
  result: { url: URL, status: 200, content: [{ name: 'item-a', score: 118 }], truncated: false },
  ok: true,
  durationMs: 5,
};
const savedFetch: DebugToolCall = {
  ...inlineFetch,
  args: { url: URL, type: 'file', filename: 'downloads/items.json' },
  result: { url: URL, status: 200, file: { path: 'downloads/items.json' } },
};
const failedOpen: DebugToolCall = {
  callId: 'action_1',
  tool: 'python_execute',
  args: { code: "import json\n\nwith open('items.json', 'r') as file:\n    data = json.load(file)" },
  result: { success: false, error: "FileNotFoundError: [Errno 2] No such file or directory: 'items.json'" },
  ok: false,
  durationMs: 1,
};
const ranOpen: DebugToolCall = { ...failedOpen, result: { success: true, stdout: '' }, ok: true };

describe('what a failed call means given the turn so far', () => {
  it('a09: the file the code opens was never saved, the body came back inline: load the URL in the code', () => {
    const hint = missingFileHint('items.json', { earlier: [inlineFetch], questionUrls: [URL], files: [] });
    expect(hint).toBe(
      `there is no file items.json in the workspace (it is empty): the web_fetch tool returned the content of ${URL} in its result and saved no file. In one code run, load it from the URL written in quotes (it is downloaded for your code): data = requests.get('${URL}').json() (import requests), then compute and print the result from data.`,
    );
  });

  it('never fetched: the URL of the question was not downloaded', () => {
    const hint = missingFileHint('items.json', { earlier: [], questionUrls: [URL], files: ['sales.csv'] });
    expect(hint).toContain(`(its files: sales.csv): ${URL} was not downloaded.`);
  });

  it('saved elsewhere: the path web_fetch saved it under', () => {
    expect(missingFileHint('items.json', { earlier: [savedFetch], questionUrls: [URL], files: [] })).toBe(
      'there is no file items.json: web_fetch saved what it downloaded as downloads/items.json. Open that path.',
    );
  });

  it('no URL anywhere: the workspace files, cut at ten', () => {
    const files = Array.from({ length: 12 }, (_, i) => `f${i}.csv`);
    const hint = missingFileHint('sales.xlsx', { earlier: [], questionUrls: [], files });
    expect(hint).toBe(
      'there is no file sales.xlsx in the workspace (its files: f0.csv, f1.csv, f2.csv, f3.csv, f4.csv, f5.csv, f6.csv, f7.csv, f8.csv, f9.csv, …): use one of its files, or download the data first.',
    );
  });

  it('a name an earlier failed call was to define (assigned, with … as, for … in): that call never ran', () => {
    expect(undefinedNameHint('data', [failedOpen])).toContain('data is not defined because the earlier code');
    expect(undefinedNameHint('file', [failedOpen])).toContain('file is not defined because');
    const loop = { ...failedOpen, args: { code: 'for row in rows:\n    print(row)' } };
    expect(undefinedNameHint('row', [loop])).toBeDefined();
  });

  it('no hint when the defining call ran, when no call defines it, or for a comparison', () => {
    expect(undefinedNameHint('data', [ranOpen])).toBeUndefined();
    expect(undefinedNameHint('total', [failedOpen])).toBeUndefined();
    const compared = { ...failedOpen, args: { code: 'if data == 1:\n    pass' } };
    expect(undefinedNameHint('data', [compared])).toBeUndefined();
  });
});
