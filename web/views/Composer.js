// The message box: text, files (button or drag-and-drop), pattern, send, cancel. In a conversation, files upload at
// once; on the first screen (no conversation yet) they wait, and the first message creates the conversation, uploads
// them into it, sends the message and opens it.
// A refused upload or message is shown here; what was typed or attached stays (also across a reload: a per-conversation draft).
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, conv, errorText } from '../lib/api.js';
/** @import { ConversationInfo } from '../../analysis/conversation/view' */
/** @import { Pattern } from '../../contracts/conversation' */
/** @import { TargetedEvent } from 'preact' */
/** @import { PatternsReply, UploadReply } from '../../server/routes/conversations' */

/**
 * Files dropped on the page around the box (a new object per drop).
 * @typedef {{ files: FileList }} Dropped
 */

/**
 * A file in the box: waiting for the first message, uploading, uploaded (with what the server stored) or refused.
 * @typedef {{
 *   key: string;
 *   file: File;
 *   state: 'attached' | 'uploading' | 'uploaded' | 'failed';
 *   info?: UploadReply['files'][number];
 *   error?: string;
 * }} Attachment
 */

/**
 * @param {object} props
 * @param {string} [props.conversationId] none on the first screen
 * @param {PatternsReply['patterns']} props.patterns
 * @param {boolean} [props.running]
 * @param {Dropped} [props.dropped]
 * @param {(id: string) => void} [props.onCreated]
 */
export function Composer({ conversationId, patterns, running, dropped, onCreated }) {
  const draftKey = `draft:${conversationId ?? 'new'}`;
  const [text, setText] = useState(() => sessionStorage.getItem(draftKey) ?? '');
  const [pattern, setPattern] = useState(/** @type {Pattern} */ ('auto'));
  const [attachments, setAttachments] = useState(/** @type {Attachment[]} */ ([]));
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  const [busy, setBusy] = useState(false);
  const fileInput = useRef(/** @type {HTMLInputElement | null} */ (null));
  // The conversation files go to: the one shown, or the one the first message created (kept if a later step failed).
  const target = useRef(conversationId);

  useEffect(() => sessionStorage.setItem(draftKey, text), [text]);
  useEffect(() => {
    if (dropped?.files.length) addFiles(dropped.files);
  }, [dropped]);

  const update = (/** @type {string} */ key, /** @type {Partial<Attachment>} */ patch) =>
    setAttachments((list) => list.map((a) => (a.key === key ? { ...a, ...patch } : a)));
  /**
   * @param {Attachment} a
   * @returns {Promise<Attachment>}
   */
  const upload = async (a, id = target.current) => {
    if (!id) throw new Error('upload before the conversation exists');
    update(a.key, { state: 'uploading', error: undefined });
    const form = new FormData();
    form.append('file', a.file, a.file.name);
    try {
      const { files } = /** @type {UploadReply} */ (await api('POST', `${conv(id)}/files`, form));
      update(a.key, { state: 'uploaded', info: files[0] });
      return { ...a, state: 'uploaded', info: files[0] };
    } catch (err) {
      update(a.key, { state: 'failed', error: errorText(err) });
      return { ...a, state: 'failed', error: errorText(err) };
    }
  };
  const addFiles = (/** @type {FileList} */ fileList) => {
    /** @type {Attachment[]} */
    const added = [...fileList].map((file) => ({
      key: `${file.name}-${file.size}-${Math.random()}`,
      file,
      state: target.current ? 'uploading' : 'attached',
    }));
    setAttachments((list) => [...list, ...added]);
    // upload() shows its own failure on the attachment: nothing to await.
    if (target.current) added.forEach((a) => void upload(a));
  };
  /** The first message of the first screen: a new conversation, then the files waiting for it. */
  const prepare = async () => {
    if (!target.current)
      target.current = /** @type {ConversationInfo} */ (await api('POST', '/api/conversations', {})).id;
    const waiting = attachments.filter((a) => a.state === 'attached' || a.state === 'failed');
    const done = await Promise.all(waiting.map((a) => upload(a, target.current)));
    const kept = attachments.map((a) => done.find((d) => d.key === a.key) ?? a);
    if (kept.some((a) => a.state === 'failed'))
      throw new Error('an upload was refused: remove or retry it, then send again');
    return kept;
  };
  /** @param {Event} [e] */
  const send = async (e) => {
    e?.preventDefault();
    if (!text.trim() || busy) return;
    if (attachments.some((a) => a.state === 'uploading')) return setError('wait for the uploads to finish');
    setBusy(true);
    setError(undefined);
    try {
      const ready = conversationId ? attachments : await prepare();
      const files = ready.flatMap((a) => (a.state === 'uploaded' && a.info ? [a.info.path] : []));
      const id = /** @type {string} set by prepare() when there was none */ (target.current);
      await api('POST', `${conv(id)}/messages`, { text, pattern, ...(files.length ? { files } : {}) });
      setText('');
      setAttachments((list) => list.filter((a) => a.state !== 'uploaded'));
      if (!conversationId) {
        sessionStorage.removeItem(draftKey);
        onCreated?.(id);
      }
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 409
          ? `${err.message} — your message is kept; send it when the turn ends`
          : errorText(err),
      );
    } finally {
      setBusy(false);
    }
  };
  const cancel = async () => {
    if (!conversationId) return;
    try {
      await api('POST', `${conv(conversationId)}/cancel`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return html`<form class="composer" onSubmit=${send} aria-label="Ask a question">
    ${
      attachments.length
        ? html`<ul class="attachments" aria-label="Attached files">${attachments.map(
            (a) => html`<li class="chip chip-${a.state}">
            <span>${a.file.name}</span>
            ${a.state === 'uploading' ? html`<span class="muted">uploading…</span>` : null}
            ${a.state === 'attached' ? html`<span class="muted">uploads with your message</span>` : null}
            ${a.state === 'failed' ? html`<span class="error" role="alert">${a.error}</span> <button type="button" onClick=${() => (target.current ? upload(a) : update(a.key, { state: 'attached', error: undefined }))}>retry</button>` : null}
            <button type="button" class="icon" aria-label="Remove ${a.file.name}" onClick=${() => setAttachments((l) => l.filter((x) => x.key !== a.key))}>×</button>
          </li>`,
          )}</ul>`
        : null
    }
    ${error ? html`<p class="error composer-error" role="alert">${error}</p>` : null}
    <label class="sr-only" for="message">Message</label>
    <textarea id="message" rows="3" placeholder="Ask about your data — e.g. “total sales by region as a bar chart”" value=${text}
      onInput=${(/** @type {TargetedEvent<HTMLTextAreaElement>} */ e) => setText(e.currentTarget.value)}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => e.key === 'Enter' && !e.shiftKey && (e.preventDefault(), send())}></textarea>
    <div class="composer-row">
      <input type="file" multiple ref=${fileInput} id="file-input" class="sr-only" onChange=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => (e.currentTarget.files && addFiles(e.currentTarget.files), (e.currentTarget.value = ''))} />
      <button type="button" onClick=${() => fileInput.current?.click()}>Attach files…</button>
      <label for="pattern">Pattern</label>
      <select id="pattern" value=${pattern} onChange=${(/** @type {TargetedEvent<HTMLSelectElement>} */ e) => setPattern(/** @type {Pattern} an option's value, from the server's patterns */ (e.currentTarget.value))}>
        ${(patterns.length ? patterns : [{ name: 'auto', description: 'picks a pattern for the request' }]).map(
          (p) =>
            html`<option value=${p.name} title=${p.description}>${p.name === 'auto' ? 'auto (JIT)' : p.name}</option>`,
        )}
      </select>
      <span class="spacer"></span>
      ${running ? html`<button type="button" class="danger" onClick=${cancel}>■ Cancel turn</button>` : null}
      <button type="submit" class="primary" disabled=${busy || !text.trim()}>${busy && !conversationId ? 'Starting…' : 'Send'}</button>
    </div>
  </form>`;
}
