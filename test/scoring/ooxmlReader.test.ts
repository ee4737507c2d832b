/**
 * The OOXML reader against openpyxl (data_only=True) on workbooks made here: drawings, tables, charts, a chartsheet,
 * merged cells, array/dynamic/shared formulas, inline and rich strings, dates incl. 1904, plus bad input.
 */
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkbookValues } from '../../benchmarks/workbook/ooxmlReader';
import { transformValue } from '../../benchmarks/workbook/cellValue';
import { evaluateTestCase } from '../../benchmarks/spreadsheetbench/scoring';
import { hasSandboxPython, oracleScore, runPython } from './oracle';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'scoring-reader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let files: Record<string, string> = {};

const CT = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A hand-written package: shared formulas, t="str"/"e"/"d", cells and rows without r, empty <v/>, x005F_ escapes. */
async function rawWorkbook(file: string): Promise<void> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CT);
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets><sheet name="Raw &amp; Co" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="/xl/sharedStrings.xml"/><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  );
  zip.file(
    'xl/sharedStrings.xml',
    `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t xml:space="preserve"> lead</t></si><si><r><t>ab</t></r><r><rPr><b/></rPr><t xml:space="preserve"> cd </t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></si><si><t>_x005F_x000D_ kept</t></si><si><t>&lt;tag&gt; &amp;#65;</t></si></sst>`,
  );
  zip.file(
    'xl/styles.xml',
    `<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="2"><numFmt numFmtId="164" formatCode="&quot;h&quot;0"/><numFmt numFmtId="14" formatCode="0.00"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>`,
  );
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>
<row r="2"><c r="A2"><f>B2*2</f><v>4</v></c><c r="B2"><f t="shared" ref="B2:B4" si="0">C2+1</f><v>2</v></c><c r="C2"><f t="shared" si="0"/><v>1.5</v></c><c r="D2"><f>NOW()</f></c><c r="E2"><f>X</f><v></v></c><c r="F2" t="str"><f>IFERROR(1/0,"")</f><v></v></c></row>
<row><c t="str"><f>"x"</f><v>text result</v></c><c t="e"><v>#N/A</v></c><c t="b"><v>1</v></c><c t="d"><v>2021-02-03T04:05:06</v></c><c t="d"><v>2021-02-03</v></c></row>
<row r="5"><c r="A5" s="1"><v>44000</v></c><c r="B5" s="2"><v>44000</v></c><c r="C5" s="3"><v>44000.75</v></c><c r="D5" s="3"><v>30</v></c><c r="E5" s="3"><v>-1</v></c><c r="F5" t="inlineStr"><is><t>inline</t></is></c><c r="G5" t="inlineStr"/></row>
</sheetData><mergeCells count="1"><mergeCell ref="A2:A3"/></mergeCells></worksheet>`,
  );
  writeFileSync(file, await zip.generateAsync({ type: 'nodebuffer' }));
}

beforeAll(async () => {
  if (!hasSandboxPython) return;
  files = JSON.parse(
    runPython([path.resolve('test/scoring/fixtures/make_synthetic.py')], JSON.stringify({ dir: tmp })),
  );
  files.raw = path.join(tmp, 'raw.xlsx');
  await rawWorkbook(files.raw);
}, 60_000);

interface Job {
  path: string;
  sheet: string | null;
  min_row: number;
  max_row: number;
  min_col: number;
  max_col: number;
}

function encode(v: ReturnType<typeof transformValue>): [string, string | null] {
  if (v.type === 'none') return ['none', null];
  if (v.type === 'float') return ['float', Number.isNaN(v.value) ? 'nan' : String(v.value)];
  if (v.type === 'str') return ['str', v.value];
  if (v.type === 'date')
    return [
      'date',
      `${v.value.year}-${String(v.value.month).padStart(2, '0')}-${String(v.value.day).padStart(2, '0')}`,
    ];
  return [v.type, JSON.stringify(v.value)];
}

const pyEncodeFloat = (s: string) =>
  s === 'nan' ? 'nan' : s === 'inf' ? 'Infinity' : s === '-inf' ? '-Infinity' : String(Number(s));

describe.skipIf(!hasSandboxPython)('OOXML reader vs openpyxl data_only', () => {
  it('reads every cell of the synthetic workbooks exactly as openpyxl + transform_value', async () => {
    const jobs: Job[] = [
      { path: files.rich, sheet: 'Data', min_row: 1, max_row: 26, min_col: 1, max_col: 12 },
      { path: files.rich, sheet: 'Second', min_row: 1, max_row: 2, min_col: 1, max_col: 2 },
      { path: files.inline, sheet: null, min_row: 1, max_row: 50, min_col: 1, max_col: 2 },
      { path: files.date1904, sheet: null, min_row: 1, max_row: 2, min_col: 1, max_col: 1 },
      { path: files.openpyxl_written, sheet: null, min_row: 1, max_row: 6, min_col: 1, max_col: 3 },
      { path: files.raw, sheet: null, min_row: 1, max_row: 5, min_col: 1, max_col: 7 },
    ];
    const expected = JSON.parse(
      runPython([path.resolve('test/scoring/fixtures/dump_values.py')], JSON.stringify(jobs)),
    ) as { sheetnames: string[]; cells: [string, string | null][]; error?: string }[];
    for (const [i, job] of jobs.entries()) {
      expect(expected[i].error, job.path).toBeUndefined();
      const book = await openWorkbookValues(job.path);
      expect(book.sheetnames).toEqual(expected[i].sheetnames);
      const sheet = await book.sheet(job.sheet ?? book.sheetnames[0]);
      const got: [string, string | null][] = [];
      for (let c = job.min_col; c <= job.max_col; c++)
        for (let r = job.min_row; r <= job.max_row; r++) got.push(encode(transformValue(sheet.get(r, c))));
      const want = expected[i].cells.map(
        ([t, v]) => [t, t === 'float' ? pyEncodeFloat(v!) : t === 'timedelta' ? v : v] as [string, string | null],
      );
      const gotComparable = got.map(
        ([t, v]) => [t, t === 'timedelta' ? timedeltaStr(v!) : v] as [string, string | null],
      );
      expect(gotComparable, path.basename(job.path)).toEqual(want);
    }
  });

  it.skipIf(!hasSandboxPython)(
    'a formula without a cached value is told apart from one whose result is empty text',
    async () => {
      const sheet = await (await openWorkbookValues(files.raw)).sheet('Raw & Co');
      // D2 has no <v>, E2 an empty <v> and no type (as openpyxl writes a formula): neither was calculated.
      expect([sheet.isUncachedFormula(2, 4), sheet.isUncachedFormula(2, 5)]).toEqual([true, true]);
      // F2: t="str" with an empty <v> is a calculated "" (LibreOffice and Excel write IFERROR(…,"") so), read as None.
      expect([sheet.get(2, 6), sheet.isUncachedFormula(2, 6)]).toEqual([null, false]);
    },
  );

  it('a chartsheet is listed in sheet order and reading its cells fails like openpyxl', async () => {
    const book = await openWorkbookValues(files.rich);
    expect(book.sheetnames).toEqual(['Data', 'ChartOnly', 'Second']);
    const verdict = await evaluateTestCase({
      answerPath: files.rich,
      outputPath: files.rich,
      answerPosition: "'ChartOnly'!A1:A2",
    });
    expect(verdict.pass).toBe(false);
    expect(
      oracleScore([{ answer: files.rich, output: files.rich, answer_position: "'ChartOnly'!A1:A2" }])[0].pass,
    ).toBe(false);
  });

  it('reads workbooks with drawings and tables that exceljs may reject', async () => {
    const exceljsError = await new ExcelJS.Workbook().xlsx.readFile(files.rich).then(
      () => undefined,
      (e: Error) => e.message,
    );
    const verdict = await evaluateTestCase({
      answerPath: files.rich,
      outputPath: files.rich,
      answerPosition: "'Data'!A1:K26",
    });
    expect(verdict).toEqual({ index: 1, pass: true });
    // informative only: whether exceljs 4.4.0 copes with this file is not what is tested
    expect(typeof exceljsError === 'string' || exceljsError === undefined).toBe(true);
  });
});

describe('bad input gives verdict 0 with a reason, never a crash', () => {
  const answer = () => files.openpyxl_written;
  it.skipIf(!hasSandboxPython)('corrupt, encrypted (CFB), truncated, non-xlsx and missing files', async () => {
    const corrupt = path.join(tmp, 'corrupt.xlsx');
    writeFileSync(corrupt, 'this is not a zip');
    const cfb = path.join(tmp, 'encrypted.xlsx');
    writeFileSync(
      cfb,
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]),
    );
    const emptyZip = path.join(tmp, 'empty.xlsx');
    writeFileSync(emptyZip, await new JSZip().file('hello.txt', 'x').generateAsync({ type: 'nodebuffer' }));
    const cases: [string, RegExp][] = [
      [corrupt, /zip/],
      [cfb, /CFB|password/],
      [emptyZip, /workbook/],
      [path.join(tmp, 'nope.xlsx'), /File not exist/],
    ];
    for (const [output, reason] of cases) {
      const v = await evaluateTestCase({ answerPath: answer(), outputPath: output, answerPosition: 'A1' });
      expect(v.pass, output).toBe(false);
      expect(v.reason, output).toMatch(reason);
      const asAnswer = await evaluateTestCase({ answerPath: output, outputPath: answer(), answerPosition: 'A1' });
      expect(asAnswer.pass).toBe(false);
    }
    const oracle = oracleScore(cases.map(([output]) => ({ answer: answer(), output, answer_position: 'A1' })));
    expect(oracle.map((o) => o.pass)).toEqual([false, false, false, false]);
  });

  it.skipIf(!hasSandboxPython)(
    'missing sheets, malformed positions and a huge sheet agree with the oracle',
    async () => {
      const copy = path.join(tmp, 'copy.xlsx');
      copyFileSync(answer(), copy);
      const positions = [
        "'Nope'!A1",
        'A1:B2:C3',
        "'Sheet1'!'Sheet1'!A1",
        'A:',
        'a1:b2',
        'A0',
        ' A1',
        'A1,',
        'B2:A1',
        'XFD1:XFE1',
        'AAAA1:AAAA2',
        'A1:A',
        '１:２',
        'A1;B2',
      ];
      const expected = oracleScore(positions.map((p) => ({ answer: answer(), output: copy, answer_position: p })));
      for (const [i, p] of positions.entries()) {
        const v = await evaluateTestCase({ answerPath: answer(), outputPath: copy, answerPosition: p });
        expect(v.pass, `${p}: ${v.reason} / oracle ${expected[i].msg}`).toBe(expected[i].pass);
        if (!v.pass) expect(v.reason).toBeTruthy();
      }
      const huge = await evaluateTestCase({
        answerPath: files.huge,
        outputPath: files.huge,
        answerPosition: "'Big'!A1:B200000",
      });
      expect(huge).toEqual({ index: 1, pass: true });
      const hugeVsOther = await evaluateTestCase({
        answerPath: files.huge,
        outputPath: files.inline,
        answerPosition: "'Big'!A1:B200000",
      });
      expect(hugeVsOther.reason).toMatch(/not found in output/);
    },
  );
});

/** Python str(timedelta) for the JSON the TS side encodes. */
function timedeltaStr(json: string): string {
  const td = JSON.parse(json) as { days: number; seconds: number; microseconds: number };
  const h = Math.floor(td.seconds / 3600);
  const m = String(Math.floor((td.seconds % 3600) / 60)).padStart(2, '0');
  const s = String(td.seconds % 60).padStart(2, '0');
  const us = td.microseconds ? `.${String(td.microseconds).padStart(6, '0')}` : '';
  const days = td.days ? `${td.days} day${Math.abs(td.days) === 1 ? '' : 's'}, ` : '';
  return `${days}${h}:${m}:${s}${us}`;
}
