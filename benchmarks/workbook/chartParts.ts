/**
 * The charts of an xlsx file, each by what it shows: its plot types (and bar direction), its title and the cell
 * ranges its series read. Used to tell whether a workbook's charts differ from another's (a chart added, removed or
 * changed) without rendering them: the summary ignores how a writer serialises a chart (openpyxl, LibreOffice and
 * Excel write the same chart differently; `$` and quotes in references are dropped), so a workbook only loaded and
 * saved again keeps its summary. Charts are those the sheets' drawings refer to.
 */
import { openPackage, type OoxmlPackage } from './ooxmlPackage';
import { attributesOf, decodeXmlText, elements } from './xmlScan';

const DRAWING_PART = /^xl\/drawings\/[^/]+\.xml$/;

/** One summary per chart (sorted, so the order of parts does not matter); throws WorkbookReadError for a non-xlsx. */
export function chartSummaries(file: string): string[] {
  const pkg = openPackage(file);
  return chartParts(pkg)
    .map((part) => summaryOf(pkg.text(part) ?? ''))
    .sort();
}

function chartParts(pkg: OoxmlPackage): string[] {
  const drawings = pkg.partNames().filter((n) => DRAWING_PART.test(n));
  const charts = drawings.flatMap((d) =>
    pkg
      .rels(d)
      .filter((r) => r.type.endsWith('/chart') && r.target)
      .map((r) => r.target),
  );
  return [...new Set(charts)].filter((part) => pkg.has(part));
}

function summaryOf(xml: string): string {
  const plotArea = [...elements(xml, 'plotArea')][0]?.body ?? '';
  const outside = xml.replace(/<(?:[\w.-]+:)?plotArea[\s>][\s\S]*?<\/(?:[\w.-]+:)?plotArea>/, '');
  const types = [...plotArea.matchAll(/<(?:[\w.-]+:)?(\w+Chart)[\s/>]/g)].map((m) => m[1]);
  const barDir = [...elements(plotArea, 'barDir')].map((e) => attributesOf(e.attrs).val ?? '');
  const title = [...elements(outside, 'title')][0]?.body;
  const titleText = title ? [...elements(title, 't')].map((t) => decodeXmlText(t.body ?? '')).join('') : '';
  const series = [...elements(plotArea, 'f')].map((f) => decodeXmlText(f.body ?? '').replace(/[$']/g, ''));
  return JSON.stringify({ types, barDir, title: titleText, series });
}
