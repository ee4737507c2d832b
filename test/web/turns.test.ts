import { describe, expect, it } from 'vitest';
import { applyEvent, emptyTurns, runningTurn } from '../../web/lib/turns.js';
import { lineDiff } from '../../web/lib/lineDiff.js';
import type { ConversationEvent, ConversationEventType, EventData } from '../../analysis/conversation/events';
import type { LogEvent } from '../../web/lib/events.js';

let seq = 0;
/** An event of the log, its data checked against the server's type for `type`. */
const ev = <T extends ConversationEventType>(type: T, data: EventData[T], turnId = 't1') =>
  ({
    seq: ++seq,
    at: `2026-01-01T00:00:${String(seq).padStart(2, '0')}Z`,
    turnId,
    type,
    data,
  }) as ConversationEvent<T> as LogEvent;

describe('turns from the event log', () => {
  it('folds a turn: steps and code in order, a tool result joins its call, visualizations and files replace by id/path', () => {
    seq = 0;
    const events = [
      ev('turn_started', { pattern: 'react', text: 'total by region' }),
      ev('step', { stepId: 's1', kind: 'think', text: 'load it' }),
      ev('code', { stepId: 's1', callId: '', language: 'python', code: 'print(1)' }),
      ev('tool_call', { stepId: 's1', callId: 'c1', tool: 'python_execute', args: { code: 'print(1)' } }),
      ev('tool_result', { stepId: 's1', callId: 'c1', tool: 'python_execute', ok: true, stdout: '1\n', durationMs: 5 }),
      ev('visualization', { output: { id: 'v', type: 'table', dataFile: 'a.csv' } }),
      ev('visualization', { output: { id: 'v', type: 'table', dataFile: 'b.csv' } }),
      ev('file', { file: { filename: 'b.csv', path: 'out/b.csv', type: 'text/csv', size: 3 } }),
      ev('answer', { text: 'done' }),
      ev('usage', { inputTokens: 10, outputTokens: 5, costUsd: 0.01 }),
    ];
    const s = events.reduce(applyEvent, emptyTurns());
    const [t] = s.turns;
    expect(t).toMatchObject({
      turnId: 't1',
      pattern: 'react',
      text: 'total by region',
      status: 'running',
      answer: 'done',
      usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.01 },
    });
    expect(t.items.map((i) => i.type)).toEqual(['step', 'code', 'tool']);
    expect(t.items[2]).toMatchObject({ callId: 'c1', args: { code: 'print(1)' }, result: { stdout: '1\n' } });
    expect(t.visualizations).toEqual([{ id: 'v', type: 'table', dataFile: 'b.csv' }]);
    expect(runningTurn(s)?.turnId).toBe('t1');
    const ended = applyEvent(s, ev('turn_ended', { status: 'cancelled' }));
    expect(ended.turns[0].status).toBe('cancelled');
    expect(runningTurn(ended)).toBeUndefined();
  });

  it('code with a callId joins its tool call, whichever comes first', () => {
    seq = 0;
    const s = [
      ev('tool_call', { stepId: 's', callId: 'a', tool: 'python_execute', args: {} }),
      ev('code', { stepId: 's', callId: 'a', language: 'python', code: 'x = 1' }),
      ev('code', { stepId: 's', callId: 'b', language: 'python', code: 'y = 2' }),
      ev('tool_call', { stepId: 's', callId: 'b', tool: 'python_execute', args: {} }),
    ].reduce(applyEvent, emptyTurns());
    expect(s.turns[0].items.map((i) => (i.type === 'tool' ? [i.type, i.callId, i.code?.code] : [i.type]))).toEqual([
      ['tool', 'a', 'x = 1'],
      ['tool', 'b', 'y = 2'],
    ]);
  });

  it('ignores events it has already seen (replay after reload or reconnect) and keeps turns apart', () => {
    seq = 0;
    const a = ev('turn_started', { pattern: 'auto', text: 'q1' });
    const b = ev('step', { stepId: 's', kind: 'think', text: 'x' });
    let s = [a, b].reduce(applyEvent, emptyTurns());
    const again = applyEvent(s, b);
    expect(again).toBe(s);
    s = applyEvent(s, ev('turn_started', { pattern: 'auto', text: 'q2' }, 't2'));
    expect(s.turns.map((t) => [t.turnId, t.items.length])).toEqual([
      ['t1', 1],
      ['t2', 0],
    ]);
  });
});

describe('lineDiff', () => {
  it('keeps common lines and marks removed and added ones', () => {
    expect(lineDiff('a\nb\nc', 'a\nc\nd')).toEqual([
      { op: ' ', line: 'a' },
      { op: '-', line: 'b' },
      { op: ' ', line: 'c' },
      { op: '+', line: 'd' },
    ]);
    expect(lineDiff('x', 'x')).toEqual([{ op: ' ', line: 'x' }]);
  });
});
