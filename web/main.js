// The analysis web app: conversations (chat and debug views) and benchmark runs, routed by the URL hash.
import { html, render } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './lib/api.js';
import { Chat } from './views/Chat.js';
import { Debug } from './views/Debug.js';
import { Runs } from './views/Runs.js';
import { Sidebar } from './views/Sidebar.js';

const LIST_REFRESH_MS = 5000;

function parseRoute(hash) {
  const m = /^#\/c\/([^/]+)(\/debug)?$/.exec(hash);
  if (m) return { view: m[2] ? 'debug' : 'chat', id: decodeURIComponent(m[1]) };
  if (hash === '#/runs') return { view: 'runs' };
  return { view: 'home' };
}

function App() {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  const [conversations, setConversations] = useState([]);
  const [listError, setListError] = useState(undefined);
  const [patterns, setPatterns] = useState([]);

  const loadList = () =>
    api('GET', '/api/conversations').then(
      (d) => (setConversations(d.conversations), setListError(undefined)),
      (err) => setListError(err.message),
    );
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onHash);
    let timer;
    const poll = () => loadList().finally(() => (timer = setTimeout(poll, LIST_REFRESH_MS)));
    poll();
    const loadPatterns = () => api('GET', '/api/patterns').then((d) => setPatterns(d.patterns), () => setTimeout(loadPatterns, LIST_REFRESH_MS));
    loadPatterns();
    return () => (removeEventListener('hashchange', onHash), clearTimeout(timer));
  }, []);

  let main;
  if (route.view === 'chat') main = html`<${Chat} key=${route.id} id=${route.id} patterns=${patterns} onChanged=${loadList} />`;
  else if (route.view === 'debug') main = html`<${Debug} key=${route.id} id=${route.id} />`;
  else if (route.view === 'runs') main = html`<${Runs} />`;
  else main = html`<section class="chat empty"><h2>Ask a question about your data</h2><p class="muted">Start a new conversation, attach a CSV or Excel file and ask — the agent writes and runs code, then answers with tables and charts.</p></section>`;
  return html`<a class="skip" href="#main">Skip to content</a>
    <${Sidebar} conversations=${conversations} currentId=${route.id} listError=${listError} onChanged=${loadList} />
    <main id="main" tabindex="-1">${main}</main>`;
}

render(html`<${App} />`, document.getElementById('app'));
