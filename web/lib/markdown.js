// Model text → safe HTML: marked for Markdown, DOMPurify because model output is untrusted, highlight.js for code.
import { marked } from 'marked';
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/core';
import python from 'highlight.js/python';
import javascript from 'highlight.js/javascript';
import json from 'highlight.js/json';
import { loadScript } from './scripts.js';

hljs.registerLanguage('python', python);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
loadScript('highlight.css').catch(() => undefined);

export function markdownHtml(text) {
  return DOMPurify.sanitize(marked.parse(text ?? '', { async: false }));
}

/** Highlighted HTML of code (escaped either way). */
export function codeHtml(code, language) {
  if (hljs.getLanguage(language)) return hljs.highlight(code, { language }).value;
  return code.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]);
}
