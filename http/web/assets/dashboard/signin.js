// The sign-in view: the wallet signs an EIP-4361 message with a fresh
// server nonce; the answer sets the session cookie and carries the CSRF
// token. The first sign-in of a wallet creates its free-tier account.

import { h } from '../lib/dom.js';
import { api } from './api.js';
import { freshMessage } from './siwe.js';
import { hasWallet, personalSign, selectedAccount, walletChainId } from './wallet.js';
import { busy, messageBox } from './ui.js';

/**
 * signInView renders the view. chainId is the service's chain; notice is
 * an optional sentence shown first (a session that ended); onSignedIn
 * receives the sign-in answer.
 */
export function signInView({ chainId, notice, onSignedIn }) {
  const box = messageBox();
  const button = h('button', { type: 'button', id: 'signin' }, 'Sign in with your wallet');
  button.addEventListener('click', () => busy(button, 'Waiting for your wallet…', box, async () => {
    const address = await selectedAccount();
    const walletChain = await walletChainId();
    const message = await freshMessage(address, chainId, 'Sign in to the orderengine dashboard.');
    const signature = await personalSign(message, address);
    // A refused sign-in (an expired message, a spent nonce) is a 401 that
    // says why; it is shown here, not taken for the end of a session.
    const result = await api('POST', '/v1/auth/signin', { message, signature }, { quiet401: true });
    onSignedIn(result, address, walletChain);
  }));
  return h('section', { class: 'signin card', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in'),
    notice ? h('p', { class: 'notice warn', role: 'status' }, notice) : null,
    h('p', {}, 'Sign in with your Ethereum wallet to create API keys, register webhooks, apply for the builder tier and see what your referrals earned. ',
      'Your wallet signs a message (Sign-In with Ethereum, EIP-4361); nothing is sent to the chain and nothing costs gas. ',
      'The first sign-in creates a free-tier account that owns the wallet.'),
    hasWallet() ? null : h('p', { class: 'notice warn', id: 'no-wallet' },
      'No browser wallet was found. Install or enable a wallet extension (EIP-1193, window.ethereum) and reload this page.'),
    h('p', {}, button),
    box,
    h('p', { class: 'muted' }, 'Reading the API first? The ', h('a', { href: '/docs' }, 'API reference'), ' needs no sign-in.'));
}
