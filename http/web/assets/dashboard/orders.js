// The orders view: look an order up by its hash and read why it waits (its
// diagnostics), and the account's order events as they happen, from the
// order stream (GET /v1/orders/stream, an EventSource on the session).

import { h, replace } from '../lib/dom.js';
import { api } from './api.js';
import { busy, messageBox, mono, section, table, when } from './ui.js';

const triggers = ['order.filled', 'order.cancelled', 'order.expired', 'order.failed', 'stop.triggered', 'dca.completed', 'dca.stalled'];

// waiting says each waitingFor value in words.
const waiting = {
  deadline_passed: 'Its deadline has passed: the engine expires it at the next block.',
  oracle_price: 'A fresh oracle price: the oracle has no current answer for the pair.',
  trigger: 'The market: the price condition does not hold yet.',
  dca_leg: 'The next DCA leg\'s time.',
  balance: 'The maker\'s balance: it is below what the next fill needs.',
  allowance: 'The maker\'s allowance to the router: it is below what the next fill needs.',
  designated_keeper: 'Its designated keeper: only that keeper may send the fill.',
  keeper: 'A keeper\'s transaction: everything else is in place.',
};

const conditions = {
  price_at_or_above: 'oracle price at or above the trigger price',
  price_at_or_below: 'oracle price at or below the trigger price',
  trailing: 'price at or below the fire price, trailPpm under the peak',
  dca_schedule: 'the next leg due (and, price-gated, the price at or above the trigger)',
};

// source is the open order stream (one per page), closed when the view is
// left (stopOrdersView).
let source = null;

/** stopOrdersView closes the view's order stream. */
export function stopOrdersView() {
  if (source) source.close();
  source = null;
}

/** ordersView renders the view. */
export function ordersView() {
  const detail = h('div', { id: 'order-detail' });
  const lookup = lookupForm(detail);
  return [
    h('h1', {}, 'Orders'),
    h('p', {}, 'The orders of your account are those submitted with its API keys and those of its linked wallets.'),
    section('order-lookup', 'Look up an order', lookup.form, detail),
    section('order-events', 'Live events', eventsPanel((hash) => lookup.show(hash))),
  ];
}

function lookupForm(detail) {
  const box = messageBox();
  const input = h('input', { id: 'order-hash', type: 'text', required: true, autocomplete: 'off', spellcheck: 'false',
    pattern: '0x[0-9a-fA-F]{64}', placeholder: '0x… (64 hex digits)' });
  const submit = h('button', { type: 'submit' }, 'Show order');
  const show = (hash) => busy(submit, 'Loading…', box, async () => {
    input.value = hash;
    const order = await api('GET', `/v1/orders/${encodeURIComponent(hash.trim())}`);
    replace(detail, orderDetail(order, () => show(order.orderHash)));
  });
  const form = h('form', { class: 'inline-form' },
    h('label', { for: 'order-hash' }, 'Order hash'),
    h('div', { class: 'row' }, input, submit), box);
  form.addEventListener('submit', (e) => { e.preventDefault(); show(input.value); });
  return { form, show };
}

function orderDetail(o, refresh) {
  const again = h('button', { type: 'button', class: 'secondary' }, 'Refresh');
  again.addEventListener('click', refresh);
  return h('div', { class: 'order' },
    h('dl', { class: 'facts', id: 'order-summary' },
      fact('Order', mono(o.orderHash)),
      fact('Type', o.orderType),
      fact('Status', h('span', { class: 'badge ' + (o.status === 'filled' ? 'ok' : ['pending', 'active'].includes(o.status) ? 'warn' : 'bad') }, o.status)),
      fact('Pair', mono(o.pair)),
      fact('Filled', `${o.filledAmountIn} of ${o.order.amountIn} (tokenIn units), ${o.executions} execution(s)`),
      o.reason ? fact('Reason', o.revertName ? `${o.reason} (${o.revertName})` : o.reason) : null),
    o.diagnostics ? diagnostics(o.diagnostics)
      : h('p', { class: 'muted', id: 'order-diagnostics' }, ['pending', 'active'].includes(o.status)
        ? 'No diagnostics yet: the engine has not evaluated a block since it started.'
        : 'The order is closed: there is nothing it waits for.'),
    h('p', {}, again));
}

function fact(label, value) {
  return [h('dt', {}, label), h('dd', {}, value)];
}

// diagnostics renders why an open order waits.
function diagnostics(d) {
  const c = d.condition;
  const facts = [
    fact('As of block', [String(d.block.number), ' (', when(d.block.time), ')']),
    fact('Executable now', d.executable ? 'yes: keepers are shown it' : 'no'),
    fact('Condition', `${conditions[c.kind] || c.kind}: ${c.met ? 'met' : 'not met'}`),
    c.oraclePrice !== undefined ? fact('Oracle price', c.oraclePrice === null ? 'no fresh answer' : mono(c.oraclePrice)) : null,
    c.triggerPrice ? fact('Trigger price', mono(c.triggerPrice)) : null,
    c.distancePpm !== null && c.distancePpm !== undefined ? fact('Distance', `${(c.distancePpm / 10000).toFixed(2)} % (${c.distancePpm} ppm)`) : null,
    c.peak ? fact('Trailing peak', mono(c.peak)) : null,
    c.firePrice ? fact('Fire price', mono(c.firePrice)) : null,
    c.nextLegDueAt ? fact('Next leg due', when(c.nextLegDueAt)) : null,
    c.legsExecuted !== undefined ? fact('Legs', `${c.legsExecuted} of ${c.totalLegs} executed; next ${c.nextLegAmountIn}`) : null,
    d.funding ? fact('Funding', `balance ${d.funding.balance}, allowance ${d.funding.allowance}, next fill needs ${d.funding.needed}: ${d.funding.covered ? 'covered' : 'short'}`)
      : fact('Funding', 'not readable now'),
    fact('Deadline', d.deadline ? [when(d.deadline.at), d.deadline.secondsLeft >= 0 ? ` (${d.deadline.secondsLeft} s left)` : ' (passed)'] : 'none'),
    fact('Designated keeper', d.designatedKeeper ? mono(d.designatedKeeper.address || d.designatedKeeper.allowedSender) : 'any keeper'),
    fact('Last failed fill', d.lastFailedFill
      ? [mono(d.lastFailedFill.txHash), ` in block ${d.lastFailedFill.blockNumber}: `, d.lastFailedFill.revertName || 'reverted']
      : 'none'),
  ];
  return h('div', { id: 'order-diagnostics' },
    h('h3', {}, 'Why it waits'),
    h('ul', { id: 'order-waiting' }, d.waitingFor.map((w) => h('li', { dataset: { reason: w } }, waiting[w] || w))),
    h('dl', { class: 'facts' }, facts));
}

// eventsPanel follows the order stream and lists its events, newest first;
// "Show" looks an event's order up.
function eventsPanel(show) {
  stopOrdersView();
  const events = [];
  const list = h('div', { id: 'order-event-list' });
  const status = h('p', { class: 'muted', id: 'order-stream-status', role: 'status' }, 'Connecting to the order stream…');
  const draw = () => replace(list, table('Order events, newest first', [
    { label: 'Time', cell: (e) => when(e.createdAt) },
    { label: 'Event', cell: (e) => h('code', { class: 'nowrap', text: e.trigger }) },
    { label: 'Order', cell: (e) => mono(e.data.orderHash || '') },
    { label: 'Amounts', cell: (e) => `in ${e.data.amountIn || '0'}, out ${e.data.amountOut || '0'}` },
    { label: 'Actions', cell: (e) => h('button', { type: 'button', class: 'secondary', 'aria-label': `Show order ${e.data.orderHash}`,
      on: { click: () => show(e.data.orderHash) } }, 'Show') },
  ], events, 'No events since this page opened. Events appear here as they happen.'));
  draw();
  source = new EventSource('/v1/orders/stream');
  source.onopen = () => { status.textContent = 'Following the account\'s order events.'; };
  source.onerror = () => { status.textContent = 'The order stream is reconnecting…'; };
  for (const t of triggers) {
    source.addEventListener(t, (msg) => {
      const ev = JSON.parse(msg.data);
      if (events.some((e) => e.id === ev.id)) return; // a resumption may repeat one
      events.unshift(ev);
      if (events.length > 50) events.pop();
      draw();
    });
  }
  return [status, list];
}
