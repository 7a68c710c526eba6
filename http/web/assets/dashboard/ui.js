// Building blocks of the dashboard's views: messages, busy buttons, an
// inline confirmation, the once-shown secret with its copy button, tables
// that fold into cards on a narrow screen, and date formatting.

import { h, replace } from '../lib/dom.js';
import { errorText } from './api.js';

/** announce says text in the page's polite status region. */
export function announce(text) {
  const el = document.getElementById('flash');
  el.textContent = '';
  // A new text node after a tick, so screen readers announce a repeat too.
  setTimeout(() => { el.textContent = text; }, 30);
}

/** showError puts err's message in box as an alert; showOk a success. */
export function showError(box, err) {
  replace(box, h('p', { class: 'notice error', role: 'alert' }, errorText(err)));
}
export function showOk(box, text) {
  replace(box, h('p', { class: 'notice ok', role: 'status' }, text));
}
export function clear(box) { replace(box); }

/** messageBox is an empty container for a section's messages. */
export function messageBox() { return h('div', { class: 'messages' }); }

/**
 * busy disables button while fn runs (its label says what happens), shows
 * fn's error in box, and returns fn's result (undefined after an error).
 */
export async function busy(button, working, box, fn) {
  const label = button.textContent;
  button.disabled = true;
  button.textContent = working;
  if (box) clear(box);
  try {
    return await fn();
  } catch (err) {
    if (box) showError(box, err);
    else announce(errorText(err));
    return undefined;
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}

/**
 * confirmInline replaces row's actions by a question with a confirm and a
 * cancel button; it resolves true or false.
 */
export function confirmInline(holder, question, confirmLabel) {
  return new Promise((resolve) => {
    const before = [...holder.childNodes];
    const done = (ok) => { replace(holder, before); resolve(ok); };
    const yes = h('button', { type: 'button', class: 'danger', on: { click: () => done(true) } }, confirmLabel);
    const no = h('button', { type: 'button', class: 'secondary', on: { click: () => done(false) } }, 'Cancel');
    replace(holder, h('span', { class: 'confirm', role: 'group', 'aria-label': question }, h('span', {}, question), ' ', yes, ' ', no));
    yes.focus();
  });
}

/**
 * secretPanel shows a secret once: read-only, selectable, with a copy
 * button and a button that dismisses it for good.
 */
export function secretPanel(title, secret, note, onDone) {
  const id = 'secret-' + Math.random().toString(36).slice(2, 8);
  const input = h('input', { id, type: 'text', readonly: true, value: secret, class: 'secret', spellcheck: 'false', autocomplete: 'off' });
  const status = h('span', { class: 'copy-status', role: 'status' });
  const panel = h('section', { class: 'secret-panel', 'aria-labelledby': id + '-title' },
    h('h2', { id: id + '-title' }, title),
    h('p', {}, h('strong', {}, 'Copy it now: it is shown only this once. '), note),
    h('label', { for: id }, 'Secret'),
    h('div', { class: 'secret-row' }, input,
      h('button', { type: 'button', on: { click: () => copy(input, status) } }, 'Copy'), status),
    h('p', {}, h('button', { type: 'button', class: 'secondary', on: { click: () => { panel.remove(); onDone && onDone(); } } }, 'I have stored it')));
  return panel;
}

async function copy(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    // Without the asynchronous clipboard (a page not served over https
    // nor from localhost), the selected text is copied the older way.
    input.select();
    if (!document.execCommand('copy')) { status.textContent = 'Copy failed: select the text and copy it.'; return; }
  }
  status.textContent = 'Copied to the clipboard.';
}

/**
 * table renders rows (objects) with columns [{label, cell(row) → node or
 * text}]; on a narrow screen each row becomes a card labelled by column.
 */
export function table(caption, columns, rows, empty) {
  if (!rows.length) return h('p', { class: 'muted empty' }, empty);
  return h('table', { class: 'stack' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c.label)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, columns.map((c) => h('td', { 'data-label': c.label }, c.cell(r)))))));
}

/** when renders an RFC 3339 time (or unix seconds) as a <time> element in
 * the person's locale; null as a dash. */
export function when(value, missing = '—') {
  if (value === null || value === undefined || value === '') return missing;
  const d = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return h('time', { datetime: d.toISOString(), title: d.toISOString() },
    d.toLocaleString('en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }));
}

/** mono renders an identifier (address, hash, id) that may break anywhere. */
export function mono(text) {
  return h('code', { class: 'id', text: String(text) });
}

/** section renders a view's section with a heading. */
export function section(id, title, ...children) {
  return h('section', { id, class: 'card', 'aria-labelledby': id + '-title' }, h('h2', { id: id + '-title' }, title), children);
}
