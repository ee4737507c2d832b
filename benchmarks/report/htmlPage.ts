import { escapeHtml } from './format';

/** The self-contained page shell (inline CSS only) shared by the report and the transcript pages. */
const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1d2330}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #dde;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}th,td{border:1px solid #d8dce6;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f2f4f8}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.pass td.id{border-left:4px solid #2f9e44}tr.fail td.id{border-left:4px solid #e03131}tr.pending td{color:#888}
.charts{display:flex;flex-wrap:wrap;gap:24px}.chart{background:#fafbfc;border:1px solid #e3e6ee;border-radius:6px;padding:6px}
.chart-title{font-weight:600;font-size:13px}.bar-label,.bar-value,.legend{font-size:11px;fill:#333}
.meta{color:#555}.fixed{color:#2f9e44}.broken{color:#e03131}
.msg{border:1px solid #dde;border-radius:6px;margin:10px 0;padding:8px 10px}.msg .role,.exec .role{font-weight:600;text-transform:uppercase;font-size:11px;color:#555}
.msg.system{background:#f6f6f6}.msg.user{background:#f3f8ff}.msg.assistant{background:#f4fbf4}.msg.other{background:#fff8e6}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
.exec{border-left:3px solid #999;padding-left:8px;margin:10px 0}.exec.error{border-color:#e03131}
`;

export function htmlPage(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${CSS}</style>`,
    '</head><body>',
    body,
    '</body></html>',
    '',
  ].join('\n');
}

export function htmlTable(header: string[], rows: string[][], rowClasses?: string[]): string {
  const head = `<tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r, i) => `<tr${rowClasses?.[i] ? ` class="${rowClasses[i]}"` : ''}>${r.join('')}</tr>`);
  return `<table><thead>${head}</thead><tbody>\n${body.join('\n')}\n</tbody></table>`;
}

/** A table cell from plain text (escaped); `cls` e.g. "num". */
export function td(text: string, cls?: string): string {
  return `<td${cls ? ` class="${cls}"` : ''}>${escapeHtml(text)}</td>`;
}
