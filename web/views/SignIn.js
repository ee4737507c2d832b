// The sign-in page: shown when the server asks for a token (no session, a wrong token, an expired or revoked session).
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

/** @typedef {'missing' | 'wrong' | 'expired' | 'signedOut'} SignInReason */

/** @type {Record<SignInReason, string>} */
const REASONS = {
  missing: 'This server needs its token. Open the login URL that `sheetbench serve` printed, or paste the token below.',
  wrong: 'That token is not right (or it was rotated). Check the login URL that `sheetbench serve` printed.',
  expired: 'Your session has ended. Sign in again.',
  signedOut: 'You are signed out.',
};

/**
 * @param {object} props
 * @param {SignInReason} props.reason
 * @param {string} [props.detail]
 * @param {(token: string) => Promise<void>} props.onSignIn
 */
export function SignIn({ reason, detail, onSignIn }) {
  const [busy, setBusy] = useState(false);
  const submit = async (/** @type {SubmitEvent & { currentTarget: HTMLFormElement }} */ e) => {
    e.preventDefault();
    setBusy(true);
    const token = e.currentTarget.elements.namedItem('token');
    await onSignIn(token instanceof HTMLInputElement ? token.value.trim() : '');
    setBusy(false);
  };
  return html`<main id="main" class="sign-in">
    <h1>Sign in to sheetbench</h1>
    <p class=${reason === 'wrong' ? 'error' : 'muted'} role=${reason === 'wrong' ? 'alert' : undefined}>${REASONS[reason] ?? REASONS.missing}</p>
    ${detail ? html`<p class="muted">${detail}</p>` : null}
    <form onSubmit=${submit}>
      <label for="token">Token</label>
      <input id="token" name="token" type="password" autocomplete="current-password" required />
      <button class="primary" type="submit" disabled=${busy}>Sign in</button>
    </form>
    <p class="muted">Scripts send <code>Authorization: Bearer &lt;token&gt;</code>; <code>sheetbench auth token</code> prints it.</p>
  </main>`;
}
