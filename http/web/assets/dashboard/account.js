// The account view: who is signed in, the tier, and the builder-tier
// application (a short form, then its state until an operator decides).

import { h } from '../lib/dom.js';
import { api } from './api.js';
import { announce, busy, messageBox, mono, section, when } from './ui.js';

const statusBadge = { pending: 'warn', approved: 'ok', declined: 'bad' };

/** accountView renders the account; reload refreshes the whole dashboard. */
export function accountView(state, reload) {
  const a = state.account;
  return [
    h('h1', {}, 'Account'),
    section('account-summary', 'Your account',
      h('dl', { class: 'facts' },
        h('dt', {}, 'Account'), h('dd', {}, mono(a.id)),
        a.name ? [h('dt', {}, 'Name'), h('dd', {}, a.name)] : null,
        h('dt', {}, 'Tier'), h('dd', {}, h('span', { class: 'badge ok', id: 'tier-name' }, a.tier)),
        h('dt', {}, 'Created'), h('dd', {}, when(a.createdAt)),
        h('dt', {}, 'Signed in as'), h('dd', {}, mono(state.wallet)),
        h('dt', {}, 'Linked wallets'), h('dd', {}, String((a.wallets || []).length)))),
    tierSection(a, reload),
    section('next-steps', 'Next steps',
      h('ul', {},
        h('li', {}, h('a', { href: '#keys' }, 'Create an API key'), ' to call the API.'),
        h('li', {}, h('a', { href: '#webhooks' }, 'Register a webhook'), ' to hear about your orders.'),
        h('li', {}, 'Read the ', h('a', { href: '/docs' }, 'API reference'), '.'))),
  ];
}

function tierSection(a, reload) {
  const app = a.tierApplication;
  const parts = [];
  if (a.tier !== 'free') {
    parts.push(h('p', {}, `Your account is on the ${a.tier} tier: its limits apply to every key of the account.`));
  }
  if (app) {
    parts.push(h('dl', { class: 'facts', id: 'tier-application' },
      h('dt', {}, 'Application'), h('dd', {}, `${app.tier} tier `, h('span', { class: 'badge ' + (statusBadge[app.status] || 'warn'), id: 'application-status' }, app.status)),
      h('dt', {}, 'Submitted'), h('dd', {}, when(app.submittedAt)),
      app.decidedAt ? [h('dt', {}, 'Decided'), h('dd', {}, when(app.decidedAt))] : null,
      app.reason ? [h('dt', {}, 'Reason'), h('dd', {}, app.reason)] : null,
      h('dt', {}, 'Use case'), h('dd', {}, app.useCase),
      h('dt', {}, 'Expected volume'), h('dd', {}, app.expectedVolume)));
    if (app.status === 'pending') parts.push(h('p', { class: 'muted' }, 'An operator reviews each application; this page shows the decision once it is made.'));
  }
  if (a.tier === 'free' && (!app || app.status === 'declined')) parts.push(applicationForm(reload));
  return section('tier', 'Builder tier', parts);
}

function applicationForm(reload) {
  const box = messageBox();
  const useCase = h('textarea', { id: 'use-case', name: 'useCase', required: true, maxlength: 2000, 'aria-describedby': 'use-case-help' });
  const volume = h('input', { id: 'expected-volume', name: 'expectedVolume', type: 'text', required: true, maxlength: 200, 'aria-describedby': 'volume-help' });
  const submit = h('button', { type: 'submit' }, 'Apply for the builder tier');
  const form = h('form', { class: 'stack-form', 'aria-labelledby': 'apply-title' },
    h('h3', { id: 'apply-title' }, 'Apply for the builder tier'),
    h('p', {}, 'The builder tier has five times the free limits. Tell us what you are building; an operator approves or declines the application.'),
    h('label', { for: 'use-case' }, 'What are you building?'),
    useCase,
    h('p', { id: 'use-case-help', class: 'muted hint' }, 'A few sentences: the product, who uses it, how it calls the API.'),
    h('label', { for: 'expected-volume' }, 'Expected volume'),
    volume,
    h('p', { id: 'volume-help', class: 'muted hint' }, 'For example: 2,000 orders a day, 50 requests a second at peak.'),
    h('p', {}, submit),
    box);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(submit, 'Sending…', box, async () => {
      await api('POST', '/v1/account/tier-application', { tier: 'builder', useCase: useCase.value.trim(), expectedVolume: volume.value.trim() });
      await reload();
      announce('Application sent: it is pending until an operator decides.');
    });
  });
  return form;
}
