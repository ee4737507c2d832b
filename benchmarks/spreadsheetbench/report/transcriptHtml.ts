import type { LoadedTask } from './load';
import type { Transcript, TranscriptExecution, TranscriptMessage } from './schemas';
import { escapeHtml, failureText, reasonsText, score } from '../../report/format';
import { htmlPage } from '../../report/htmlPage';
import { contentText } from './content';

/** A readable page for one task's transcript: messages in order, then the code executions. */
export function renderTranscriptHtml(task: LoadedTask, transcript: Transcript, jsonHref: string): string {
  const r = task.result;
  const verdict = r
    ? `soft ${score(r.soft)}, hard ${score(r.hard)}${r.failure ? `; failure ${escapeHtml(failureText(r))}` : ''}${reasonsText(r) ? `<br>${escapeHtml(reasonsText(r))}` : ''}`
    : 'pending';
  const body = [
    `<p><a href="../../report.html">← report</a> · <a href="${escapeHtml(jsonHref)}">transcript.json</a></p>`,
    `<h1>Task ${escapeHtml(task.key)}</h1>`,
    `<p class="meta">${escapeHtml(task.task.instruction_type)} · answer position ${escapeHtml(task.task.answer_position)}<br>${verdict}</p>`,
    `<h2>Messages (${transcript.messages.length})</h2>`,
    ...transcript.messages.map(messageHtml),
    `<h2>Code executions (${transcript.executions.length})</h2>`,
    ...transcript.executions.map(executionHtml),
  ];
  return htmlPage(`transcript ${task.key}`, body.join('\n'));
}

const KNOWN_ROLES = new Set(['system', 'user', 'assistant']);

function messageHtml(m: TranscriptMessage, i: number): string {
  const cls = KNOWN_ROLES.has(m.role) ? m.role : 'other';
  return `<div class="msg ${cls}" id="m${i}"><div class="role">${escapeHtml(m.role)}</div><pre>${escapeHtml(contentText(m.content))}</pre></div>`;
}

function executionHtml(e: TranscriptExecution, i: number): string {
  const error = e.error === undefined || e.error === null || e.error === '' ? '' : contentText(e.error);
  const block = (label: string, text: string | null | undefined) =>
    text ? `<div class="role">${label}</div><pre>${escapeHtml(text)}</pre>` : '';
  return [
    `<div class="exec${error ? ' error' : ''}" id="e${i}">`,
    `<div class="role">execution ${i + 1}</div><pre>${escapeHtml(e.code)}</pre>`,
    block('stdout', e.stdout),
    block('stderr', e.stderr),
    block('error', error),
    '</div>',
  ].join('');
}
