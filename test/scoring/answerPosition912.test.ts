import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { categorize, parseAnswerPosition, cellCount } from '../../benchmarks/spreadsheetbench/scoring/answerPosition';
import { hasSandboxPython, oracleClassify } from './oracle';
import { sharedData } from '../helpers/sharedData';

const records = JSON.parse(readFileSync(sharedData('spreadsheetbench-912-instructions.json'), 'utf8')) as {
  id: number | string;
  answer_position: string;
}[];
const byId = (id: string) => records.find((r) => String(r.id) === id)!;

describe('all 912 real answer_position strings', () => {
  it.skipIf(!hasSandboxPython)(
    'are categorised exactly as the official parser on openpyxl does, record by record',
    () => {
      const expected = oracleClassify(records.map((r) => r.answer_position));
      const actual = records.map((r) => categorize(parseAnswerPosition(r.answer_position, 'official')));
      const mismatches = records.filter((_, i) => expected[i] !== actual[i]).map((r) => r.id);
      expect(mismatches).toEqual([]);
      const counts = (xs: string[]) =>
        xs.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x]: (acc[x] ?? 0) + 1 }), {});
      expect(counts(actual)).toEqual(counts(expected));
      expect(records.length).toBe(912);
    },
  );

  it('official mode: known failing records fail for the documented reason', () => {
    const errors = records
      .filter((r) => categorize(parseAnswerPosition(r.answer_position)) === 'error')
      .map((r) => String(r.id))
      .sort();
    expect(errors).toEqual(['283-32', '37456', '45944', '532-3', '56637']);
    const vacuous = records
      .filter((r) => categorize(parseAnswerPosition(r.answer_position)) === 'vacuous')
      .map((r) => String(r.id));
    expect(vacuous).toEqual(['73-45']);
  });

  it('official mode keeps the quirks: lowercase letters, NBSP, typographic quote, missing leading quote, comma lists', () => {
    const cf = parseAnswerPosition(byId('CF_15439').answer_position).pieces[0].target;
    expect(cf).toMatchObject({ kind: 'cells', colStart: 5, colEnd: 42 });
    expect(parseAnswerPosition(byId('49300').answer_position).pieces[0].sheet).toBe("\u00a0'Sheet1");
    expect(parseAnswerPosition(byId('118-8').answer_position).pieces[0].sheet).toBe('Invoice List‘');
    expect(parseAnswerPosition(byId('50066').answer_position).pieces[0].sheet).toBe('Updated Data');
    const multi = parseAnswerPosition(byId('184-45').answer_position).pieces;
    expect(multi.map((p) => [p.sheet, p.range])).toEqual([
      ['Sheet1', 'A2:B19'],
      ['Sheet2', 'A2:B19'],
      ['Sheet3', 'A2:D11'],
    ]);
    expect(parseAnswerPosition(byId('516-46').answer_position).pieces[0].sheet).toBe('ورقة1');
    expect(parseAnswerPosition(byId('30468').answer_position).pieces[0].sheet).toBe('51998');
  });

  it('strict mode repairs every official parse error and the vacuous range', () => {
    for (const id of ['283-32', '37456', '45944', '532-3', '56637', '73-45']) {
      expect(categorize(parseAnswerPosition(byId(id).answer_position, 'strict')), id).toBe('ok');
    }
    expect(parseAnswerPosition(byId('CF_15439').answer_position, 'strict').pieces[0].target).toMatchObject({
      colStart: 5,
      colEnd: 10,
    });
    expect(parseAnswerPosition(byId('49300').answer_position, 'strict').pieces[0].sheet).toBe('Sheet1');
    expect(parseAnswerPosition(byId('118-8').answer_position, 'strict').pieces[0].sheet).toBe('Invoice List');
    expect(parseAnswerPosition(byId('532-3').answer_position, 'strict').pieces[0]).toMatchObject({
      sheet: 'Received',
      range: 'A1:G16',
    });
    expect(parseAnswerPosition(byId('283-32').answer_position, 'strict').pieces[0].target.kind).toBe('columns');
    const unchanged = records.filter((r) => categorize(parseAnswerPosition(r.answer_position, 'strict')) !== 'ok');
    expect(unchanged.map((r) => r.id)).toEqual([]);
  });

  it('malformed strings give an error piece, never a throw', () => {
    for (const s of ['', ',', 'A1:B2:C3', "'S'!'T'!A1", 'A:', ':', 'A0', 'XFDA1:XFDA2', '!!!', 'A1048577', ' A1']) {
      const parsed = parseAnswerPosition(s);
      expect(
        parsed.pieces.some((p) => p.target.kind === 'error'),
        s,
      ).toBe(true);
      expect(cellCount(parsed.pieces[0].target)).toBeUndefined();
    }
  });
});
