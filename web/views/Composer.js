// The message box: text, files (button or drag-and-drop), pattern, send, cancel. In a conversation, files upload at
// once; on the first screen (no conversation yet) they wait, and the first message creates the conversation, uploads
// them into it, sends the message and opens it.
// A refused upload or message is shown here; what was typed or attached stays (also across a reload: a per-conversation draft).
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, conv } from '../lib/api.js';

export function Composer({ conversationId, patterns, running, dropped, onCreated }) {
  const draftKey = `draft:${conversationId ?? 'new'}`;
  const [text, setText] = useState(() => sessionStorage.getItem(draftKey) ?? '');
  const [pattern, setPattern] = useState('auto');
  const [attachments, setAttachments] = useState([]);
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef(null);
  // The conversation files go to: the one shown, or the one the first message created (kept if a later step failed).
  const target = useRef(conversationId);

  useEffect(() => sessionStorage.setItem(draftKey, text), [text]);
  useEffect(() => {
    if (dropped?.files.length) addFiles(dropped.files);
  }, [dropped]);

  const update = (key, patch) => setAttachments((list) => list.map((a) => (a.key === key ? { ...a, ...patch } : a)));
  const upload = async (a, id = target.current) => {
    update(a.key, { state: 'uploading', error: undefined });
    const form = new FormData();
    form.append('file', a.file, a.file.name);
    try {
      const { files } = await api('POST', `${conv(id)}/files`, form);
      update(a.key, { state: 'uploaded', info: files[0] });
      return { ...a, state: 'uploaded', info: files[0] };
    } catch (err) {
      update(a.key, { state: 'failed', error: err.message });
      return { ...a, state: 'failed', error: err.message };
    }
  };
  const addFiles = (fileList) => {
    const added = [...fileList].map((file) => ({
      key: `${file.name}-${file.size}-${Math.random()}`,
      file,
      state: target.current ? 'uploading' : 'attached',
    }));
    setAttachments((list) => [...list, ...added]);
    if (target.current) added.forEach((a) => upload(a));
  };
  /** The first message of the first screen: a new conversation, then the files waiting for it. */
  const prepare = async () => {
    if (!target.current) target.current = (await api('POST', '/api/conversations', {})).id;
    const waiting = attachments.filter((a) => a.state === 'attached' || a.state === 'failed');
    const done = await Promise.all(waiting.map((a) => upload(a, target.current)));
    const kept = attachments.map((a) => done.find((d) => d.key === a.key) ?? a);
    if (kept.some((a) => a.state === 'failed'))
      throw new Error('an upload was refused: remove or retry it, then send again');
    return kept;
  };
  const send = async (e) => {
    e?.preventDefault();
    if (!text.trim() || busy) return;
    if (attachments.some((a) => a.state === 'uploading')) return setError('wait for the uploads to finish');
    setBusy(true);
    setError(undefined);
    try {
      const ready = conversationId ? attachments : await prepare();
      const files = ready.filter((a) => a.state === 'uploaded').map((a) => a.info.path);
      await api('POST', `${conv(target.current)}/messages`, { text, pattern, ...(files.length ? { files } : {}) });
      setText('');
      setAttachments((list) => list.filter((a) => a.state !== 'uploaded'));
      if (!conversationId) {
        sessionStorage.removeItem(draftKey);
        onCreated?.(target.current);
      }
    } catch (err) {
      setError(err.status === 409 ? `${err.message} — your message is kept; send it when the turn ends` : err.message);
    } finally {
      setBusy(false);
    }
  };
  const cancel = async () => {
    try {
      await api('POST', `${conv(conversationId)}/cancel`);
    } catch (err) {
      setError(err.message);
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
      onInput=${(e) => setText(e.currentTarget.value)}
      onKeyDown=${(e) => e.key === 'Enter' && !e.shiftKey && (e.preventDefault(), send())}></textarea>
    <div class="composer-row">
      <input type="file" multiple ref=${fileInput} id="file-input" class="sr-only" onChange=${(e) => (addFiles(e.currentTarget.files), (e.currentTarget.value = ''))} />
      <button type="button" onClick=${() => fileInput.current.click()}>Attach files…</button>
      <label for="pattern">Pattern</label>
      <select id="pattern" value=${pattern} onChange=${(e) => setPattern(e.currentTarget.value)}>
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
