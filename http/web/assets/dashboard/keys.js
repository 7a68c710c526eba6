// The API keys view: create (the secret shown once, with a copy button),
// the list (prefix, name, created, last used, state), disable and reissue.

import { h, replace } from '../lib/dom.js';
import { api } from './api.js';
import { announce, busy, confirmInline, messageBox, mono, secretPanel, section, table, when } from './ui.js';

/** keysView renders the view and loads the list. */
export function keysView() {
  const listBox = h('div', { id: 'key-list', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading keys…'));
  const secretBox = h('div', { id: 'key-secret' });
  const box = messageBox();
  const name = h('input', { id: 'key-name', type: 'text', maxlength: 64, required: true, autocomplete: 'off', 'aria-describedby': 'key-name-help' });
  const submit = h('button', { type: 'submit' }, 'Create key');
  const form = h('form', { class: 'inline-form', 'aria-labelledby': 'keys-create-title' },
    h('label', { for: 'key-name' }, 'Name'),
    h('div', { class: 'row' }, name, submit),
    h('p', { id: 'key-name-help', class: 'muted hint' }, 'A name to tell the key apart, such as "production" or "staging".'),
    box);
  const load = async () => {
    try {
      const { keys } = await api('GET', '/v1/account/keys');
      replace(listBox, keyTable(keys, load, secretBox));
    } catch (err) {
      replace(listBox, h('p', { class: 'notice error', role: 'alert' }, err.message));
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(submit, 'Creating…', box, async () => {
      const created = await api('POST', '/v1/account/keys', { name: name.value.trim() });
      name.value = '';
      showSecret(secretBox, 'Your new key', created);
      await load();
    });
  });
  load();
  return [
    h('h1', {}, 'API keys'),
    h('p', {}, 'Send a key as ', h('code', { text: 'X-API-Key' }), ' (or ', h('code', { text: 'Authorization: Bearer' }),
      ') with every API call. The key is shown once, when it is created or reissued; the service keeps only its hash.'),
    secretBox,
    section('keys-create', 'New key', form),
    section('keys-list', 'Your keys', listBox),
  ];
}

function showSecret(holder, title, created) {
  replace(holder, secretPanel(title, created.key, `Its prefix is ${created.prefix}; the list below shows only that.`));
  holder.querySelector('input.secret').focus();
  announce(`${title} is shown once: copy it now.`);
}

function keyTable(keys, reload, secretBox) {
  return table('API keys of the account', [
    { label: 'Name', cell: (k) => k.name || h('span', { class: 'muted' }, 'unnamed') },
    { label: 'Prefix', cell: (k) => h('code', { class: 'nowrap', text: k.prefix + '…' }) },
    { label: 'Created', cell: (k) => when(k.createdAt) },
    { label: 'Last used', cell: (k) => when(k.lastUsedAt, 'never') },
    { label: 'State', cell: (k) => state(k) },
    { label: 'Actions', cell: (k) => actions(k, reload, secretBox) },
  ], keys, 'No keys yet: create one above.');
}

function state(k) {
  if (!k.disabled) return h('span', { class: 'badge ok' }, 'active');
  return [h('span', { class: 'badge bad' }, 'disabled'), k.replacedBy ? [' ', h('span', { class: 'muted' }, 'reissued as ', mono(k.replacedBy))] : null];
}

function actions(k, reload, secretBox) {
  if (k.disabled) return '';
  const holder = h('span', { class: 'actions' });
  const label = k.name || k.prefix;
  const disable = h('button', { type: 'button', class: 'danger', 'aria-label': `Disable key ${label}` }, 'Disable');
  const reissue = h('button', { type: 'button', class: 'secondary', 'aria-label': `Reissue key ${label}` }, 'Reissue');
  disable.addEventListener('click', async () => {
    if (!(await confirmInline(holder, `Disable ${label}? Calls with it fail at once.`, 'Disable'))) return;
    await busy(disable, 'Disabling…', null, async () => {
      await api('POST', `/v1/account/keys/${encodeURIComponent(k.id)}/disable`);
      announce(`Key ${label} is disabled.`);
      await reload();
    });
  });
  reissue.addEventListener('click', async () => {
    if (!(await confirmInline(holder, `Reissue ${label}? The old key stops working.`, 'Reissue'))) return;
    await busy(reissue, 'Reissuing…', null, async () => {
      const created = await api('POST', `/v1/account/keys/${encodeURIComponent(k.id)}/reissue`);
      showSecret(secretBox, `The reissued key of ${label}`, created);
      await reload();
    });
  });
  holder.append(disable, ' ', reissue);
  return holder;
}
