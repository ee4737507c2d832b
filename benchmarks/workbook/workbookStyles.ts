/**
 * What the cell reader needs from styles.xml: which cell styles (cellXfs indices) make a number a date or a duration
 * (openpyxl's inference), and each style's display format.
 */
import { displayFormatFor, formatCodeFor, isDateFormat, isTimedeltaFormat } from './excelDates';
import { attributesOf, elements } from './xmlScan';

export interface Styles {
  dateStyles: Set<number>;
  timedeltaStyles: Set<number>;
  displayFormats: string[];
}

/** The body of the first `<name>` element (namespace prefix allowed), '' when absent or empty. */
function firstBody(xml: string, name: string): string {
  for (const el of elements(xml, name)) return el.body ?? '';
  return '';
}

export function parseStyles(xml: string | undefined): Styles {
  const styles: Styles = { dateStyles: new Set(), timedeltaStyles: new Set(), displayFormats: [] };
  if (xml === undefined) return styles;
  const custom = new Map<number, string>();
  for (const f of elements(firstBody(xml, 'numFmts'), 'numFmt')) {
    const a = attributesOf(f.attrs);
    custom.set(Number(a.numFmtId), a.formatCode ?? '');
  }
  // Workbooks often hold thousands of cell styles over a handful of number formats: classify each format once.
  const formats = new Map<number, NumberFormatKind>();
  let index = 0;
  for (const xf of elements(firstBody(xml, 'cellXfs'), 'xf')) {
    const numFmtId = Number(attributesOf(xf.attrs).numFmtId ?? 0);
    let kind = formats.get(numFmtId);
    if (!kind) formats.set(numFmtId, (kind = classifyFormat(numFmtId, custom)));
    if (kind.date) styles.dateStyles.add(index);
    styles.displayFormats[index] = kind.display;
    if (kind.timedelta) styles.timedeltaStyles.add(index);
    index++;
  }
  return styles;
}

interface NumberFormatKind {
  date: boolean;
  timedelta: boolean;
  display: string;
}

function classifyFormat(numFmtId: number, custom: Map<number, string>): NumberFormatKind {
  const code = formatCodeFor(numFmtId, custom);
  return { date: isDateFormat(code), timedelta: isTimedeltaFormat(code), display: displayFormatFor(numFmtId, custom) };
}
