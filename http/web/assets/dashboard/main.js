// The developer dashboard at /: sign-in with the wallet when there is no
// session, else the account's views, one per fragment (#account, #keys,
// #wallets, #webhooks, #orders, #platform).

import { h, replace } from '../lib/dom.js';
import { api, errorText, onUnauthorized, setCsrfToken } from './api.js';
import { accountView } from './account.js';
import { keysView } from './keys.js';
import { ordersView, stopOrdersView } from './orders.js';
import { platformView } from './platform.js';
import { signInView } from './signin.js';
import { walletsView } from './wallets.js';
import { webhooksView } from './webhooks.js';
import { announce } from './ui.js';
import { onAccountsChanged } from './wallet.js';

const views = [
  { id: 'account', label: 'Account', render: (s) => accountView(s, refresh) },
  { id: 'keys', label: 'API keys', render: () => keysView() },
  { id: 'wallets', label: 'Wallets', render: (s) => walletsView(s, refresh) },
  { id: 'webhooks', label: 'Webhooks', render: () => webhooksView(webhookEvents()) },
  { id: 'orders', label: 'Orders', render: () => ordersView() },
  { id: 'platform', label: 'Platform', render: (s) => platformView(s) },
];

// state is what the views share: the service's chain id, the account, the
// wallet the session was signed in with, and the webhook event types (a
// promise: they come from the API document, the one list of them, read
// once when first needed).
const state = { chainId: 0, account: null, wallet: '', eventsPromise: null };

function webhookEvents() {
  if (!state.eventsPromise) {
    state.eventsPromise = api('GET', '/v1/openapi.json')
      .then((doc) => (((doc.components || {}).schemas || {}).WebhookEvent || {}).enum || [])
      .catch(() => { state.eventsPromise = null; return []; });
  }
  return state.eventsPromise;
}

const el = (id) => document.getElementById(id);

function currentView() {
  const id = location.hash.slice(1);
  return views.find((v) => v.id === id) || views[0];
}

// render draws the signed-in view named by the fragment.
function render() {
  const view = currentView();
  for (const a of el('sections').querySelectorAll('a')) {
    if (a.hash === '#' + view.id) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  replace(el('flash'));
  stopOrdersView(); // the order stream lives as long as its view
  replace(el('view'), view.render(state));
  document.title = `${view.label} · orderengine dashboard`;
}

function showSignIn(notice) {
  stopOrdersView();
  state.account = null;
  setCsrfToken('');
  el('sections').hidden = true;
  replace(el('session'));
  replace(el('view'), signInView({ chainId: state.chainId, notice, onSignedIn }));
  document.title = 'Sign in · orderengine dashboard';
  document.body.dataset.view = 'signin';
}

function onSignedIn(result, address, walletChain) {
  setCsrfToken(result.csrfToken);
  state.account = result.account;
  state.wallet = address;
  sessionStorage.setItem('orderengine.wallet', address);
  showApp();
  if (walletChain && walletChain !== state.chainId) {
    announce(`Signed in. Your wallet is on chain ${walletChain}; this service runs on chain ${state.chainId}, where your orders must be signed.`);
  } else {
    announce('Signed in.');
  }
  el('main').focus();
}

function showApp() {
  el('sections').hidden = false;
  const wallets = state.account.wallets || [];
  if (!wallets.some((w) => w.toLowerCase() === state.wallet.toLowerCase())) state.wallet = wallets[0] || '';
  const out = h('button', { type: 'button', class: 'secondary', id: 'signout' }, 'Sign out');
  out.addEventListener('click', signOut);
  replace(el('session'), h('span', { class: 'who' }, h('span', { class: 'visually-hidden' }, 'Signed in as '), h('code', { class: 'id', text: short(state.wallet) })), ' ', out);
  document.body.dataset.view = 'app';
  render();
}

function short(a) { return a ? `${a.slice(0, 6)}…${a.slice(-4)}` : ''; }

async function signOut() {
  try { await api('POST', '/v1/auth/signout'); } catch (err) { announce(errorText(err)); }
  sessionStorage.removeItem('orderengine.wallet');
  showSignIn('You are signed out.');
}

// refresh reloads the account (after a change) and redraws the view.
async function refresh() {
  const account = await api('GET', '/v1/account');
  if (account.csrfToken) setCsrfToken(account.csrfToken);
  state.account = account;
  render();
}

async function boot() {
  try {
    const cfg = await api('GET', '/v1/config');
    state.chainId = cfg.chainId;
  } catch (err) {
    replace(el('view'), h('p', { class: 'notice error', role: 'alert' }, `The service's configuration could not be read: ${errorText(err)}`));
    return;
  }
  onUnauthorized(() => showSignIn('Your session has ended. Sign in again.'));
  onAccountsChanged(() => { if (document.body.dataset.view === 'app') announce('Your wallet now offers another account.'); });
  window.addEventListener('hashchange', () => { if (state.account) { render(); el('main').focus(); } });
  try {
    const account = await api('GET', '/v1/account', undefined, { quiet401: true });
    setCsrfToken(account.csrfToken);
    state.account = account;
    state.wallet = sessionStorage.getItem('orderengine.wallet') || '';
    showApp();
  } catch (err) {
    // No session (401) is the usual case; anything else is said.
    showSignIn(err.status === 401 ? '' : `The account could not be read: ${errorText(err)}`);
  }
  document.body.dataset.ready = 'true';
}

boot();
