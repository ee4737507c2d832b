/** Python round()/float() semantics checked value by value against the real interpreter. */
import { describe, expect, it } from 'vitest';
import { pyFloat, pyRound } from '../../benchmarks/workbook/pyNumber';
import { compareCellValue, transformValue } from '../../benchmarks/workbook/cellValue';
import { hasSandboxPython, runPython } from './oracle';

function randomDoubles(n: number): number[] {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const xs = [
    0.125,
    0.135,
    2.675,
    1.005,
    -0.125,
    -2.675,
    0.5,
    1.5,
    2.5,
    -0.5,
    1e16 + 0.5,
    5e-324,
    1.7976931348623157e308,
    123456.785,
    0.285,
    1.115,
  ];
  for (let i = 0; i < n; i++) {
    const k = Math.floor(rnd() * 4);
    const base = Math.floor(rnd() * 100000) / [1, 8, 1000, 200][k];
    xs.push(rnd() < 0.5 ? base : -base, base + 0.005, Math.floor(rnd() * 1e6) / 1000 + 0.0005);
  }
  return xs;
}

describe.skipIf(!hasSandboxPython)('Python numeric semantics', () => {
  it('pyRound(x, 2) and pyRound(x, 0) equal Python round on thousands of doubles incl. ties', () => {
    const xs = randomDoubles(2000);
    const py = JSON.parse(
      runPython(
        [
          '-c',
          'import json,sys; xs=json.load(sys.stdin); print(json.dumps([[repr(round(x,2)), repr(round(x,0))] for x in xs]))',
        ],
        JSON.stringify(xs),
      ),
    ) as [string, string][];
    const bad = xs.filter((x, i) => pyRound(x, 2) !== Number(py[i][0]) || pyRound(x, 0) !== Number(py[i][1]));
    expect(bad).toEqual([]);
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(2.675, 2)).toBe(2.67);
    expect(pyRound(0.135, 2)).toBe(0.14);
  });

  it('pyFloat accepts and rejects exactly what Python float() does', () => {
    const samples = [
      '',
      ' ',
      '1',
      ' 1 ',
      '\t2\n',
      '1e3',
      '1E-2',
      '1_000',
      '1__000',
      '_1',
      '1_',
      '1_.5',
      '1._5',
      'inf',
      '-Infinity',
      '+nan',
      'NaN',
      'infinit',
      '0x10',
      '5%',
      '1,000',
      '.5',
      '5.',
      '.',
      'e5',
      '1e',
      '1e+',
      '+-1',
      '١٢',
      '١٢.٥',
      '²',
      '\u00a012\u3000',
      '12\u200b',
      'TRUE',
      '0871686100',
      '1e400',
      '-0',
      '00012',
      '1\u20001',
      '３',
      '1 2',
      '\u180e1',
      '\x1c7\x1f',
      '\x857',
    ];
    const py = JSON.parse(
      runPython(
        [
          '-c',
          `import json,sys
out=[]
for s in json.load(sys.stdin):
    try: out.append(repr(float(s)))
    except ValueError: out.append(None)
print(json.dumps(out))`,
        ],
        JSON.stringify(samples),
      ),
    ) as (string | null)[];
    const toPy = (x: number | undefined) =>
      x === undefined ? null : Number.isNaN(x) ? 'nan' : x === Infinity ? 'inf' : x === -Infinity ? '-inf' : x;
    const norm = (s: string | null) => (s === null ? null : ['nan', 'inf', '-inf'].includes(s) ? s : Number(s));
    samples.forEach((s, i) => expect(toPy(pyFloat(s)), JSON.stringify(s)).toEqual(norm(py[i])));
  });

  it('every Unicode decimal digit Python knows converts like Python', () => {
    const py = JSON.parse(
      runPython(
        [
          '-c',
          'import json,unicodedata; print(json.dumps([[c, int(chr(c))] for c in range(0x110000) if unicodedata.category(chr(c))=="Nd"]))',
        ],
        '',
      ),
    ) as [number, number][];
    const bad = py.filter(([cp, v]) => pyFloat(String.fromCodePoint(cp)) !== v).map(([cp]) => cp.toString(16));
    expect(bad).toEqual([]);
    expect(py.length).toBeGreaterThan(600);
  });
});

describe('transform and compare rules (§2.2)', () => {
  it('None ≡ "" but not 0 or " "; numeric strings equal numbers; bool ≡ 1/0; strings exact', () => {
    expect(compareCellValue(null, '')).toBe(true);
    expect(compareCellValue('', null)).toBe(true);
    expect(compareCellValue(null, 0)).toBe(false);
    expect(compareCellValue(null, ' ')).toBe(false);
    expect(compareCellValue('0871686100', 871686100)).toBe(true);
    expect(compareCellValue(true, 1)).toBe(true);
    expect(compareCellValue(false, '0')).toBe(true);
    expect(compareCellValue('TRUE', true)).toBe(false);
    expect(compareCellValue('abc', 'abc ')).toBe(false);
    expect(compareCellValue('abc', 'ABC')).toBe(false);
    expect(compareCellValue(NaN, NaN)).toBe(false);
    expect(compareCellValue('#N/A', '#N/A')).toBe(true);
    expect(compareCellValue(1.004, 1.0)).toBe(true);
    expect(compareCellValue(1.006, 1.0)).toBe(false);
  });

  it('datetimes become serials rounded half-even to days; times become HH:MM', () => {
    const noon = (day: number) => ({
      kind: 'datetime' as const,
      year: 2020,
      month: 1,
      day,
      hour: 12,
      minute: 0,
      second: 0,
      microsecond: 0,
    });
    expect(transformValue(noon(1))).toEqual({ type: 'float', value: 43832 });
    expect(transformValue(noon(2))).toEqual({ type: 'float', value: 43832 });
    expect(compareCellValue(noon(1), 43832)).toBe(true);
    expect(compareCellValue(noon(1), '2020-01-01')).toBe(false);
    expect(transformValue({ kind: 'time', hour: 9, minute: 30, second: 15, microsecond: 0 })).toEqual({
      type: 'str',
      value: '09:30',
    });
    expect(transformValue({ kind: 'time', hour: 9, minute: 30, second: 0, microsecond: 500000 })).toEqual({
      type: 'str',
      value: '09:30:00.500',
    });
    expect(compareCellValue({ kind: 'time', hour: 9, minute: 30, second: 59, microsecond: 0 }, '09:30')).toBe(true);
  });
});
