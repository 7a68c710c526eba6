// The linked wallets view: the account's wallets, unlink, and link another
// by having that wallet sign an EIP-4361 message naming the account.

import { h } from '../lib/dom.js';
import { api } from './api.js';
import { freshMessage, linkStatement } from './siwe.js';
import { personalSign, selectedAccount } from './wallet.js';
import { announce, busy, confirmInline, messageBox, mono, section, table } from './ui.js';

/** walletsView renders the view; reload refreshes the account. */
export function walletsView(state, reload) {
  const a = state.account;
  const box = messageBox();
  const link = h('button', { type: 'button', id: 'link-wallet' }, 'Link the selected wallet');
  link.addEventListener('click', () => busy(link, 'Waiting for your wallet…', box, async () => {
    const address = await selectedAccount();
    if ((a.wallets || []).some((w) => w.toLowerCase() === address.toLowerCase())) {
      throw new Error(`${address} is already linked to this account. Select the wallet to link in your wallet app, then press the button again.`);
    }
    const message = await freshMessage(address, state.chainId, linkStatement(a.id));
    const signature = await personalSign(message, address);
    await api('POST', '/v1/account/wallets', { address, message, signature });
    await reload();
    announce(`${address} is linked to the account.`);
  }));
  return [
    h('h1', {}, 'Wallets'),
    h('p', {}, 'Webhooks deliver the events of orders whose maker is one of these wallets, whichever key submitted them. ',
      'Used as a referrer, a linked wallet is a payout address of the platform view. A wallet belongs to one account at most.'),
    section('wallets-list', 'Linked wallets', table('Wallets linked to the account', [
      { label: 'Address', cell: (w) => [mono(w), w.toLowerCase() === state.wallet.toLowerCase() ? h('span', { class: 'muted' }, ' (signed in)') : null] },
      { label: 'Actions', cell: (w) => unlinkButton(w, reload) },
    ], a.wallets || [], 'No wallets linked.')),
    section('wallets-link', 'Link a wallet',
      h('ol', {},
        h('li', {}, 'In your wallet app, select the account to link.'),
        h('li', {}, 'Press the button: that account signs a message naming this account (no transaction, no gas).')),
      h('p', {}, link),
      box),
  ];
}

function unlinkButton(address, reload) {
  const holder = h('span', { class: 'actions' });
  const button = h('button', { type: 'button', class: 'danger', 'aria-label': `Unlink ${address}` }, 'Unlink');
  button.addEventListener('click', async () => {
    if (!(await confirmInline(holder, `Unlink ${address}?`, 'Unlink'))) return;
    await busy(button, 'Unlinking…', null, async () => {
      await api('DELETE', `/v1/account/wallets/${encodeURIComponent(address)}`);
      await reload();
      announce(`${address} is no longer linked.`);
    });
  });
  holder.append(button);
  return holder;
}
