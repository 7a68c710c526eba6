// The webhooks view: register an endpoint (at most 3; every event or a
// chosen few), its secret shown once; per endpoint, "Send test event", the
// delivery log with "Resend", secret rotation with an overlap window, and
// delete.

import { h, replace } from '../lib/dom.js';
import { api, idempotencyKey } from './api.js';
import { deliveryLog } from './deliveries.js';
import { announce, busy, clear, confirmInline, messageBox, mono, secretPanel, section, showError, showOk, when } from './ui.js';

const maxEndpoints = 3;

/** webhooksView renders the view; events resolves to the event types the
 * API document names. */
export function webhooksView(events) {
  const listBox = h('div', { id: 'webhook-list' }, h('p', { class: 'muted' }, 'Loading endpoints…'));
  const secretBox = h('div', { id: 'webhook-secret' });
  const formBox = h('div');
  const load = async () => {
    try {
      const [{ webhooks }, types] = await Promise.all([api('GET', '/v1/webhooks'), events]);
      replace(listBox, webhooks.length ? webhooks.map((w) => endpointCard(w, load, secretBox)) : h('p', { class: 'muted empty' }, 'No endpoints yet.'));
      replace(formBox, webhooks.length >= maxEndpoints
        ? h('p', { class: 'notice warn' }, `The account has ${maxEndpoints} endpoints, the most it may have: delete one to register another.`)
        : createForm(types, load, secretBox, webhooks.length));
    } catch (err) {
      showError(listBox, err);
    }
  };
  load();
  return [
    h('h1', {}, 'Webhooks'),
    h('p', {}, 'Each endpoint receives signed POSTs for the events it subscribes to; verify ', h('code', { text: 'X-Service-Signature' }),
      ' with the endpoint\'s secret (', h('a', { href: '/docs#auth-WebhookSignature' }, 'how'), ').'),
    secretBox,
    section('webhooks-create', 'Register an endpoint', formBox),
    section('webhooks-list', 'Endpoints', listBox),
  ];
}

function createForm(events, reload, secretBox, count) {
  const box = messageBox();
  const url = h('input', { id: 'webhook-url', type: 'url', required: true, placeholder: 'https://example.com/hooks/orderengine', autocomplete: 'off' });
  const all = h('input', { type: 'radio', name: 'scope', id: 'scope-all', value: 'all', checked: true });
  const some = h('input', { type: 'radio', name: 'scope', id: 'scope-some', value: 'some' });
  const boxes = events.map((ev) => h('input', { type: 'checkbox', id: 'event-' + ev.replace('.', '-'), value: ev }));
  const picker = h('fieldset', { class: 'events', id: 'event-picker', disabled: true },
    h('legend', {}, 'Events'),
    boxes.map((b) => h('div', { class: 'check' }, b, h('label', { for: b.id }, b.value))));
  const toggle = () => { picker.disabled = !some.checked; };
  all.addEventListener('change', toggle);
  some.addEventListener('change', toggle);
  const submit = h('button', { type: 'submit' }, 'Register endpoint');
  // One key per form, kept across retries of the same submission: a
  // create whose answer was lost is not made twice.
  let key = idempotencyKey();
  const form = h('form', { class: 'stack-form', 'aria-describedby': 'webhook-count' },
    h('p', { id: 'webhook-count', class: 'muted' }, `${count} of ${maxEndpoints} endpoints in use.`),
    h('label', { for: 'webhook-url' }, 'Endpoint URL'), url,
    h('fieldset', { class: 'scope' }, h('legend', {}, 'Send'),
      h('div', { class: 'check' }, all, h('label', { for: 'scope-all' }, 'Every event')),
      h('div', { class: 'check' }, some, h('label', { for: 'scope-some' }, 'Only the events chosen below'))),
    picker,
    h('p', {}, submit), box);
  form.addEventListener('input', () => { key = idempotencyKey(); });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const body = { url: url.value.trim() };
    if (some.checked) {
      body.events = boxes.filter((b) => b.checked).map((b) => b.value);
      if (!body.events.length) { showError(box, new Error('Choose at least one event, or send every event.')); return; }
    }
    busy(submit, 'Registering…', box, async () => {
      const created = await api('POST', '/v1/webhooks', body, { headers: { 'Idempotency-Key': key } });
      key = idempotencyKey();
      replace(secretBox, secretPanel('Signing secret of the new endpoint', created.secret, `It signs every delivery to ${created.url}.`));
      secretBox.querySelector('input.secret').focus();
      announce('The endpoint is registered; its signing secret is shown once.');
      await reload();
    });
  });
  return form;
}

function endpointCard(w, reload, secretBox) {
  const box = messageBox();
  const logBox = h('div', { class: 'delivery-log' });
  const titleId = 'hook-' + w.id;
  const test = h('button', { type: 'button', 'aria-label': `Send test event to ${w.url}` }, 'Send test event');
  const show = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false', 'aria-controls': titleId + '-log' }, 'Show deliveries');
  const rotate = h('button', { type: 'button', class: 'secondary' }, 'Rotate secret');
  const del = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete endpoint ${w.url}` }, 'Delete');
  const actions = h('div', { class: 'actions' }, test, ' ', show, ' ', rotate, ' ', del);
  const openLog = async () => {
    show.setAttribute('aria-expanded', 'true');
    show.textContent = 'Refresh deliveries';
    await deliveryLog(logBox, w.id);
  };
  test.addEventListener('click', () => busy(test, 'Sending…', box, async () => {
    const { deliveryId } = await api('POST', `/v1/webhooks/${encodeURIComponent(w.id)}/test`);
    showOk(box, `Test event queued (delivery ${deliveryId}). The log below shows its attempts.`);
    await openLog();
  }));
  show.addEventListener('click', () => busy(show, 'Loading…', box, openLog));
  rotate.addEventListener('click', () => rotateForm(actions, w, secretBox, box));
  del.addEventListener('click', async () => {
    if (!(await confirmInline(actions, `Delete ${w.url}? Its deliveries stop.`, 'Delete'))) return;
    await busy(del, 'Deleting…', box, async () => {
      await api('DELETE', `/v1/webhooks/${encodeURIComponent(w.id)}`);
      announce(`The endpoint ${w.url} is deleted.`);
      await reload();
    });
  });
  return h('article', { class: 'endpoint', 'aria-labelledby': titleId, id: titleId + '-card' },
    h('h3', { id: titleId }, mono(w.url)),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Id'), h('dd', {}, mono(w.id)),
      h('dt', {}, 'Events'), h('dd', {}, w.allEvents ? 'every event' : (w.events || []).join(', ')),
      h('dt', {}, 'State'), h('dd', {}, w.enabled ? h('span', { class: 'badge ok' }, 'enabled')
        : [h('span', { class: 'badge bad' }, 'disabled'), w.disabledReason ? ' ' + w.disabledReason : '', ' (delete it and register it again to re-enable)']),
      w.failingSince ? [h('dt', {}, 'Failing since'), h('dd', {}, when(w.failingSince))] : null,
      h('dt', {}, 'Last success'), h('dd', {}, when(w.lastSuccessAt, 'none yet')),
      h('dt', {}, 'Created'), h('dd', {}, when(w.createdAt))),
    actions, box,
    h('div', { id: titleId + '-log' }, logBox));
}

// rotateForm asks how long the old secret keeps signing, then rotates.
function rotateForm(actions, w, secretBox, box) {
  const before = [...actions.childNodes];
  const id = 'overlap-' + w.id;
  const overlap = h('input', { id, type: 'number', min: 0, max: 604800, step: 60, value: 86400, required: true });
  const go = h('button', { type: 'submit' }, 'Rotate');
  const cancel = h('button', { type: 'button', class: 'secondary', on: { click: () => { replace(actions, before); clear(box); } } }, 'Cancel');
  const form = h('form', { class: 'inline-form' },
    h('label', { for: id }, 'Seconds both secrets sign'), h('div', { class: 'row' }, overlap, go, cancel),
    h('p', { class: 'muted hint' }, 'During the overlap each delivery carries two v1= signatures: update your receiver within it.'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(go, 'Rotating…', box, async () => {
      const res = await api('POST', `/v1/webhooks/${encodeURIComponent(w.id)}/rotate-secret`, { overlapSeconds: Number(overlap.value) });
      replace(actions, before);
      replace(secretBox, secretPanel(`New signing secret of ${w.url}`, res.secret, `The old secret keeps signing for ${overlap.value} seconds.`));
      secretBox.querySelector('input.secret').focus();
      announce('The secret is rotated; the new one is shown once.');
    });
  });
  replace(actions, form);
  overlap.focus();
}
