// The analysis web app: conversations (chat and debug views) and benchmark runs, routed by the URL hash.
import { html, render } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, ApiError, SIGNED_OUT } from './lib/api.js';
import { Chat } from './views/Chat.js';
import { Composer } from './views/Composer.js';
import { Debug } from './views/Debug.js';
import { Runs } from './views/Runs.js';
import { SharedChat } from './views/SharedChat.js';
import { RunPage } from './views/RunPage.js';
import { TaskPage } from './views/TaskPage.js';
import { Compare, SideBySide } from './views/Compare.js';
import { Sidebar } from './views/Sidebar.js';
import { SignIn } from './views/SignIn.js';

/** @import { PatternsReply, ConversationListReply } from '../server/routes/conversations' */
/** @import { SharedListReply } from '../server/routes/shared' */
/** @import { PublicUser, SessionReply } from '../server/auth/sessionRoutes' */
/** @import { ConversationInfo } from '../analysis/conversation/view' */
/** @import { Dropped } from './views/Composer.js' */
/** @import { SignInReason } from './views/SignIn.js' */

const LIST_REFRESH_MS = 5000;

/**
 * What the address names.
 * @typedef {{ view: 'home' } | { view: 'runs' }
 *   | { view: 'chat' | 'debug'; id: string }
 *   | { view: 'shared'; token: string; tab: 'chat' | 'debug' }
 *   | { view: 'run'; runId: string }
 *   | { view: 'task'; runId: string; taskId: string; epoch: number | undefined }
 *   | { view: 'compare'; ids: string[] }
 *   | { view: 'side-by-side'; ids: string[]; taskId: string }} Route
 */

/**
 * @param {string} hash
 * @returns {Route}
 */
function parseRoute(hash) {
  const m = /^#\/c\/([^/]+)(\/debug)?$/.exec(hash);
  if (m) return { view: m[2] ? 'debug' : 'chat', id: decodeURIComponent(m[1]) };
  const s = /^#\/s\/([^/]+)(\/debug)?$/.exec(hash);
  if (s) return { view: 'shared', token: decodeURIComponent(s[1]), tab: s[2] ? 'debug' : 'chat' };
  if (hash === '#/runs') return { view: 'runs' };
  try {
    return runRoute(hash) ?? { view: 'home' };
  } catch {
    return { view: 'home' }; // a malformed escape in a hand-edited address
  }
}

/**
 * #/runs/<id>, #/runs/<id>/t/<task>[/<epoch>], #/compare/<a>,<b>[/t/<task>].
 * @param {string} hash
 * @returns {Route | undefined}
 */
function runRoute(hash) {
  const d = decodeURIComponent;
  const task = /^#\/runs\/([^/]+)\/t\/([^/]+)(?:\/(\d+))?$/.exec(hash);
  if (task)
    return { view: 'task', runId: d(task[1]), taskId: d(task[2]), epoch: task[3] ? Number(task[3]) : undefined };
  const run = /^#\/runs\/([^/]+)$/.exec(hash);
  if (run) return { view: 'run', runId: d(run[1]) };
  const compare = /^#\/compare\/([^/]+)(?:\/t\/([^/]+))?$/.exec(hash);
  if (compare) {
    const ids = compare[1].split(',').map((id) => d(id));
    return compare[2] ? { view: 'side-by-side', ids, taskId: d(compare[2]) } : { view: 'compare', ids };
  }
  return undefined;
}

/**
 * @typedef {{ state: 'checking' }
 *   | { state: 'in'; user: PublicUser; authRequired: boolean }
 *   | { state: 'out'; reason: SignInReason; detail?: string }} Session
 */

/**
 * Sign-in first: a login URL's `?token=` leaves the address bar at once (before any request), is exchanged for the
 * session cookie, and the app starts only for a signed-in user.
 */
function Root() {
  const [session, setSession] = useState(/** @type {Session} */ ({ state: 'checking' }));
  const exchange = (/** @type {string} */ token) =>
    /** @type {Promise<SessionReply>} */ (api('POST', '/api/session', { token })).then(
      (d) => setSession({ state: 'in', user: d.user, authRequired: d.authRequired }),
      (err) => {
        const wrong = err instanceof ApiError && err.status === 401;
        setSession({ state: 'out', reason: wrong ? 'wrong' : 'missing', detail: wrong ? undefined : errorText(err) });
      },
    );
  useEffect(() => {
    const token = new URLSearchParams(location.search).get('token');
    if (token !== null) history.replaceState(null, '', location.pathname + location.hash);
    if (token) void exchange(token);
    else
      void (
        /** @type {Promise<SessionReply>} */ (api('GET', '/api/session')).then(
          (d) => setSession({ state: 'in', user: d.user, authRequired: d.authRequired }),
          (err) =>
            setSession({
              state: 'out',
              reason: /expired|signed out/.test(errorText(err)) ? 'expired' : 'missing',
              detail: err instanceof ApiError && err.status === 401 ? undefined : errorText(err),
            }),
        )
      );
    /** @param {Event} e the SIGNED_OUT event: its `detail` is the server's reason */
    const onSignedOut = (e) =>
      setSession({ state: 'out', reason: 'expired', detail: e instanceof CustomEvent ? e.detail : undefined });
    addEventListener(SIGNED_OUT, onSignedOut);
    return () => removeEventListener(SIGNED_OUT, onSignedOut);
  }, []);
  // Signed out on this page either way; when the server did not confirm, the page says so (its session may still be valid).
  const signOut = () =>
    void api('DELETE', '/api/session').then(
      () => setSession({ state: 'out', reason: 'signedOut' }),
      (err) =>
        setSession({ state: 'out', reason: 'signedOut', detail: `the server did not confirm: ${errorText(err)}` }),
    );
  if (session.state === 'checking')
    return html`<main id="main" class="sign-in"><p class="muted">Checking sign-in…</p></main>`;
  if (session.state === 'out')
    return html`<${SignIn} reason=${session.reason} detail=${session.detail} onSignIn=${exchange} />`;
  return html`<${App} user=${session.user} authRequired=${session.authRequired} onSignOut=${signOut} />`;
}

/**
 * @param {object} props
 * @param {PublicUser} props.user
 * @param {boolean} props.authRequired
 * @param {() => void} props.onSignOut
 */
function App({ user, authRequired, onSignOut }) {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  const [conversations, setConversations] = useState(/** @type {ConversationInfo[]} */ ([]));
  const [sharedWithMe, setSharedWithMe] = useState(/** @type {SharedListReply['shared']} */ ([]));
  const [listError, setListError] = useState(/** @type {string | undefined} */ (undefined));
  const [patterns, setPatterns] = useState(/** @type {PatternsReply['patterns']} */ ([]));

  const loadList = () =>
    Promise.all([
      /** @type {Promise<ConversationListReply>} */ (api('GET', '/api/conversations')).then(
        (d) => (setConversations(d.conversations), setListError(undefined)),
        (err) => setListError(errorText(err)),
      ),
      // What others shared with me: a list beside mine, never in its way.
      /** @type {Promise<SharedListReply>} */ (api('GET', '/api/shared')).then(
        (s) => setSharedWithMe(s.shared),
        () => undefined,
      ),
    ]);
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onHash);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    // loadList shows its own errors: it never rejects.
    const poll = () => void loadList().finally(() => (timer = setTimeout(poll, LIST_REFRESH_MS)));
    poll();
    const loadPatterns = () =>
      void (
        /** @type {Promise<PatternsReply>} */ (api('GET', '/api/patterns')).then(
          (d) => setPatterns(d.patterns),
          () => setTimeout(loadPatterns, LIST_REFRESH_MS),
        )
      );
    loadPatterns();
    return () => (removeEventListener('hashchange', onHash), clearTimeout(timer));
  }, []);

  let main;
  const forked = (/** @type {string} */ id) => loadList().finally(() => (location.hash = `#/c/${id}`));
  if (route.view === 'chat')
    main = html`<${Chat} key=${route.id} id=${route.id} patterns=${patterns} onChanged=${loadList} user=${user} />`;
  else if (route.view === 'shared')
    main = html`<${SharedChat} key=${`${route.token}/${route.tab}`} token=${route.token} tab=${route.tab} onForked=${forked} />`;
  else if (route.view === 'debug') main = html`<${Debug} key=${route.id} id=${route.id} />`;
  else if (route.view === 'runs') main = html`<${Runs} user=${user} />`;
  else if (route.view === 'run') main = html`<${RunPage} key=${route.runId} id=${route.runId} />`;
  else if (route.view === 'task')
    main = html`<${TaskPage} key=${`${route.runId}/${route.taskId}/${route.epoch}`} runId=${route.runId} taskId=${route.taskId} epoch=${route.epoch} />`;
  else if (route.view === 'compare') main = html`<${Compare} key=${route.ids.join()} ids=${route.ids} />`;
  else if (route.view === 'side-by-side')
    main = html`<${SideBySide} key=${`${route.ids.join()}/${route.taskId}`} ids=${route.ids} taskId=${route.taskId} />`;
  else
    main = html`<${Home} patterns=${patterns} onCreated=${(/** @type {string} */ id) => (loadList(), (location.hash = `#/c/${id}`))} />`;
  const currentId = route.view === 'chat' || route.view === 'debug' ? route.id : undefined;
  return html`<a class="skip" href="#main">Skip to content</a>
    <${Sidebar} conversations=${conversations} shared=${sharedWithMe} currentId=${currentId} listError=${listError} onChanged=${loadList} user=${user} authRequired=${authRequired} onSignOut=${onSignOut} />
    <main id="main" tabindex="-1">${main}</main>`;
}

/**
 * The first screen: the message box and file upload; the first message creates the conversation and opens it.
 * @param {object} props
 * @param {PatternsReply['patterns']} props.patterns
 * @param {(id: string) => void} props.onCreated
 */
function Home({ patterns, onCreated }) {
  const [dropped, setDropped] = useState(/** @type {Dropped | undefined} */ (undefined));
  const onDrop = (/** @type {DragEvent} */ e) => {
    e.preventDefault();
    if (e.dataTransfer) setDropped({ files: e.dataTransfer.files });
  };
  return html`<section class="chat home" aria-label="New conversation" onDragOver=${(/** @type {DragEvent} */ e) => e.preventDefault()} onDrop=${onDrop}>
    <h2>Ask a question about your data</h2>
    <p class="muted">Attach a CSV or Excel file and ask — the agent writes and runs code, then answers with tables and charts. Your first message starts a conversation.</p>
    <div class="turns"></div>
    <${Composer} patterns=${patterns} dropped=${dropped} onCreated=${onCreated} />
  </section>`;
}

const root = document.getElementById('app');
if (!root) throw new Error('the page has no #app element');
render(html`<${Root} />`, root);
