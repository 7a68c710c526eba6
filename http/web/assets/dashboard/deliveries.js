// The delivery log of one webhook endpoint: status, response code,
// latency, attempts and next retry of each delivery, with "Resend".

import { h, replace } from '../lib/dom.js';
import { api } from './api.js';
import { announce, busy, mono, showError, table, when } from './ui.js';

const statusClass = { delivered: 'ok', pending: 'warn', failed: 'bad' };

/** deliveryLog loads and renders endpoint id's deliveries into holder. */
export async function deliveryLog(holder, id) {
  try {
    const { deliveries } = await api('GET', `/v1/webhooks/${encodeURIComponent(id)}/deliveries`);
    replace(holder, h('h4', {}, 'Deliveries'), table(`Deliveries of endpoint ${id}`, [
      { label: 'Event', cell: (d) => [h('code', { class: 'nowrap', text: d.event }), h('br'), h('span', { class: 'muted small' }, d.id)] },
      { label: 'Status', cell: (d) => h('span', { class: 'badge ' + (statusClass[d.status] || 'warn') }, d.status) },
      { label: 'Response', cell: (d) => (d.responseCode === null || d.responseCode === undefined ? (d.error || '—') : String(d.responseCode)) },
      { label: 'Latency', cell: (d) => (d.latencyMs === null || d.latencyMs === undefined ? '—' : `${d.latencyMs} ms`) },
      { label: 'Attempts', cell: (d) => String(d.attempts) },
      { label: 'Next retry', cell: (d) => when(d.nextRetryAt, 'none') },
      { label: 'Created', cell: (d) => when(d.createdAt) },
      { label: 'Actions', cell: (d) => resendButton(holder, id, d) },
    ], deliveries, 'No deliveries yet: press "Send test event".'));
  } catch (err) {
    showError(holder, err);
  }
}

function resendButton(holder, id, d) {
  const b = h('button', { type: 'button', class: 'secondary', 'aria-label': `Resend delivery ${d.id}` }, 'Resend');
  b.addEventListener('click', () => busy(b, 'Resending…', null, async () => {
    await api('POST', `/v1/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(d.id)}/resend`);
    announce(`Delivery ${d.id} is sent again.`);
    await deliveryLog(holder, id);
  }));
  return b;
}
