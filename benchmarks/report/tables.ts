import { escapeHtml } from './format';
import { htmlPage, htmlTable, td } from './htmlPage';

/** A titled table of plain-text cells, rendered to markdown or to the self-contained HTML page (benchmark reports). */
export interface ReportTable {
  title: string;
  header: string[];
  rows: string[][];
}

export function tablesMarkdown(title: string, tables: ReportTable[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const parts = [`# ${title}`, ''];
  for (const t of tables) {
    parts.push(`## ${t.title}`, '', `| ${t.header.join(' | ')} |`, `|${t.header.map(() => '---').join('|')}|`);
    for (const r of t.rows) parts.push(`| ${r.map(cell).join(' | ')} |`);
    parts.push('');
  }
  return parts.join('\n');
}

export function tablesHtml(title: string, tables: ReportTable[]): string {
  const body = [`<h1>${escapeHtml(title)}</h1>`];
  for (const t of tables)
    body.push(
      `<h2>${escapeHtml(t.title)}</h2>`,
      htmlTable(
        t.header,
        t.rows.map((r) => r.map((c) => td(c))),
      ),
    );
  return htmlPage(title, body.join('\n'));
}
