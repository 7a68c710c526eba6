// The platform view: fee accruals of the account's wallets used as
// referrers (totals per token, then one row per fill leg paid) and the
// wallets bound to them (referees). Both lists are keyset-paginated:
// "Load more" follows nextCursor.

import { h, replace } from '../lib/dom.js';
import { api } from './api.js';
import { busy, messageBox, mono, section, showError, table, when } from './ui.js';

/** platformView renders the view for the account's wallets. */
export function platformView(state) {
  const wallets = state.account.wallets || [];
  return [
    h('h1', {}, 'Platform'),
    h('p', {}, 'Orders that name one of your linked wallets as ', h('code', { text: 'referrer' }),
      ' pay it the referral fee leg when they fill. Amounts are in the token\'s smallest unit (wei for an 18-decimal token).'),
    accrualsSection(wallets),
    refereesSection(wallets),
  ];
}

// amount renders a raw integer amount on one line.
function amount(v) {
  return h('code', { class: 'nowrap', text: String(v) });
}

function referrerSelect(id, wallets) {
  return h('select', { id },
    h('option', { value: '' }, 'All linked wallets'),
    wallets.map((w) => h('option', { value: w }, w)));
}

// pager loads pages of path's list into a table holder with a "Load more"
// button; render(rows) gives the table.
function pager(holder, render, key) {
  let rows = [];
  let cursor = null;
  let query = '';
  const more = h('button', { type: 'button', class: 'secondary' }, 'Load more');
  const box = messageBox();
  const draw = () => replace(holder, render(rows), cursor ? h('p', {}, more) : null, box);
  const fetchPage = async () => {
    const q = new URLSearchParams(query);
    if (cursor) q.set('cursor', cursor);
    const page = await api('GET', `${key.path}?${q}`);
    rows = rows.concat(page[key.rows] || []);
    cursor = page.nextCursor || null;
    return page;
  };
  more.addEventListener('click', () => busy(more, 'Loading…', box, async () => { await fetchPage(); draw(); }));
  return {
    async reset(params) {
      rows = [];
      cursor = null;
      query = params.toString();
      const page = await fetchPage();
      draw();
      return page;
    },
  };
}

function accrualsSection(wallets) {
  const box = messageBox();
  const totals = h('div', { id: 'accrual-totals' });
  const list = h('div', { id: 'accrual-list' }, h('p', { class: 'muted' }, 'Loading fee accruals…'));
  const referrer = referrerSelect('accrual-referrer', wallets);
  const from = h('input', { id: 'accrual-from', type: 'date' });
  const to = h('input', { id: 'accrual-to', type: 'date' });
  const apply = h('button', { type: 'submit' }, 'Show');
  const pages = pager(list, (rows) => table('Fee accruals, newest first', [
    { label: 'Time', cell: (r) => when(r.timestamp) },
    { label: 'Referrer', cell: (r) => mono(r.referrer) },
    { label: 'Token', cell: (r) => mono(r.token) },
    { label: 'Amount', cell: (r) => amount(r.amount) },
    { label: 'Order', cell: (r) => (r.orderHash ? mono(r.orderHash) : '—') },
    { label: 'Transaction', cell: (r) => [mono(r.txHash), h('br'), h('span', { class: 'muted small' }, `block ${r.blockNumber}, log ${r.logIndex}`)] },
  ], rows, 'No fee accruals in this range yet.'), { path: '/v1/platform/fee-accruals', rows: 'accruals' });
  const load = async () => {
    const q = new URLSearchParams();
    if (referrer.value) q.set('referrer', referrer.value);
    if (from.value) q.set('from', String(Date.parse(from.value + 'T00:00:00Z') / 1000));
    if (to.value) q.set('to', String(Date.parse(to.value + 'T00:00:00Z') / 1000 + 86400));
    try {
      const page = await pages.reset(q);
      replace(totals, table('Totals per token over the range', [
        { label: 'Token', cell: (t) => mono(t.token) },
        { label: 'Total', cell: (t) => amount(t.amount) },
      ], page.totals || [], 'Nothing accrued in this range.'));
    } catch (err) {
      replace(totals);
      showError(list, err);
    }
  };
  const form = h('form', { class: 'filters', 'aria-label': 'Fee accrual filters' },
    h('div', {}, h('label', { for: 'accrual-referrer' }, 'Referrer'), referrer),
    h('div', {}, h('label', { for: 'accrual-from' }, 'From (UTC)'), from),
    h('div', {}, h('label', { for: 'accrual-to' }, 'To (UTC, inclusive)'), to),
    h('div', { class: 'submit' }, apply));
  form.addEventListener('submit', (ev) => { ev.preventDefault(); busy(apply, 'Loading…', box, load); });
  load();
  return section('fee-accruals', 'Fee accruals', form, box, totals, list);
}

function refereesSection(wallets) {
  const box = messageBox();
  const list = h('div', { id: 'referee-list' }, h('p', { class: 'muted' }, 'Loading referees…'));
  const referrer = referrerSelect('referee-referrer', wallets);
  const apply = h('button', { type: 'submit' }, 'Show');
  const pages = pager(list, (rows) => table('Wallets bound to your referrers', [
    { label: 'Wallet', cell: (r) => mono(r.wallet) },
    { label: 'Referrer', cell: (r) => mono(r.referrer) },
    { label: 'Bound', cell: (r) => when(r.boundAt) },
    { label: 'First order', cell: (r) => (r.firstOrderHash ? mono(r.firstOrderHash) : '—') },
    { label: 'Orders', cell: (r) => String(r.orders) },
    { label: 'Volume in', cell: (r) => ((r.volumeIn || []).length ? (r.volumeIn || []).map((v) => h('div', {}, amount(v.amount), ' of ', mono(v.token))) : '—') },
  ], rows, 'No wallet is bound to your referrers yet.'), { path: '/v1/platform/referees', rows: 'referees' });
  const load = async () => {
    const q = new URLSearchParams();
    if (referrer.value) q.set('referrer', referrer.value);
    try { await pages.reset(q); } catch (err) { showError(list, err); }
  };
  const form = h('form', { class: 'filters', 'aria-label': 'Referee filters' },
    h('div', {}, h('label', { for: 'referee-referrer' }, 'Referrer'), referrer),
    h('div', { class: 'submit' }, apply));
  form.addEventListener('submit', (ev) => { ev.preventDefault(); busy(apply, 'Loading…', box, load); });
  load();
  return section('referees', 'Referees', form, box, list);
}
