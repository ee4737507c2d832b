// Model text → safe HTML: marked for Markdown, DOMPurify because model output is untrusted, highlight.js for code.
import { marked } from 'marked';
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import { loadScript } from './scripts.js';

hljs.registerLanguage('python', python);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
loadScript('highlight.css').catch(() => undefined);

/** @param {string | undefined} text */
export function markdownHtml(text) {
  return DOMPurify.sanitize(marked.parse(text ?? '', { async: false }));
}

/** @type {Record<string, string>} */
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * Highlighted HTML of code (escaped either way).
 * @param {string} code
 * @param {string} language
 */
export function codeHtml(code, language) {
  if (hljs.getLanguage(language)) return hljs.highlight(code, { language }).value;
  return code.replace(/[&<>"]/g, (ch) => ESCAPES[ch]);
}
