// One operation (or webhook) of the reference: method and path, summary,
// description, authentication, rate-limit bucket, parameters, request
// body, responses and their examples.

import { h, json, pre, slug } from '../lib/dom.js';
import { inline, markdown } from '../lib/markdown.js';
import { constraints, lazyDetails, schemaView, typeLabel } from './schema.js';

/** opAnchor is the fragment of an operation in the page. */
export function opAnchor(op, method, path) {
  return 'op-' + slug(op.operationId || method + '-' + path);
}

/** methodBadge renders an HTTP method as a coloured label. */
export function methodBadge(method) {
  return h('span', { class: 'method method-' + method.toLowerCase() }, method.toUpperCase());
}

/**
 * operationView renders one operation as an <article>. kind is "operation"
 * or "webhook" (a webhook's "path" is its event name, and its request is
 * what the engine sends).
 */
export function operationView(d, method, path, op, kind = 'operation') {
  const id = opAnchor(op, method, path);
  const headingId = id + '-title';
  const art = h('article', { class: 'op', id, 'aria-labelledby': headingId },
    h('h3', { id: headingId }, methodBadge(method), ' ', h('code', { class: 'path', text: path })),
    op.summary ? h('p', { class: 'summary' }, inline(op.summary)) : null);
  art.append(facts(d, op, kind));
  if (op.description) art.append(h('div', { class: 'desc' }, markdown(op.description)));
  const params = (op.parameters || []).map((p) => d.deref(p));
  if (params.length) art.append(h('h4', {}, kind === 'webhook' ? 'Headers' : 'Parameters'), paramsView(d, params));
  if (op.requestBody) art.append(...requestView(d, d.deref(op.requestBody), kind));
  if (op.responses) art.append(h('h4', {}, kind === 'webhook' ? 'Your answer' : 'Responses'), responsesView(d, op.responses));
  return art;
}

// facts lists authentication and the rate-limit bucket.
function facts(d, op, kind) {
  const dl = h('dl', { class: 'facts' });
  if (kind === 'webhook') {
    dl.append(h('dt', {}, 'Signed with'), h('dd', {}, schemeLabel(d, 'WebhookSignature')));
    return dl;
  }
  const sec = op.security || d.doc.security || [];
  const alternatives = sec.filter((req) => Object.keys(req).length);
  const auth = alternatives.length === 0 || sec.some((req) => Object.keys(req).length === 0)
    ? (alternatives.length ? ['optional: ', authList(d, alternatives)] : 'None (keyless)')
    : authList(d, alternatives);
  dl.append(h('dt', {}, 'Authentication'), h('dd', {}, auth));
  if (op['x-rate-limit-bucket']) {
    dl.append(h('dt', {}, 'Rate-limit bucket'), h('dd', {}, h('code', { text: op['x-rate-limit-bucket'] })));
  }
  return dl;
}

// authList renders security requirement alternatives: "A or B", with
// schemes required together joined by "and".
function authList(d, reqs) {
  const out = [];
  reqs.forEach((req, i) => {
    if (i) out.push(' or ');
    Object.keys(req).forEach((name, j) => {
      if (j) out.push(' and ');
      out.push(schemeLabel(d, name));
    });
  });
  return out;
}

/** schemeLabel links a security scheme by name with its wire form. */
export function schemeLabel(d, name) {
  const s = (d.doc.components && d.doc.components.securitySchemes || {})[name] || {};
  let wire = name;
  if (s.type === 'apiKey') wire = `${s.name} ${s.in}`;
  else if (s.type === 'http') wire = `Authorization: ${s.scheme === 'bearer' ? 'Bearer' : s.scheme}`;
  return h('a', { href: '#auth-' + slug(name) }, wire);
}

function paramsView(d, params) {
  const list = h('ul', { class: 'props' });
  for (const p of params) {
    list.append(h('li', {},
      h('div', { class: 'prop-head' },
        h('code', { class: 'prop-name', text: p.name }), ' ',
        h('span', { class: 'where' }, p.in), ' ',
        p.schema ? typeLabel(d, p.schema) : null,
        p.required ? h('span', { class: 'req' }, 'required') : h('span', { class: 'opt' }, 'optional')),
      p.description ? h('div', { class: 'prop-desc' }, markdown(p.description)) : null,
      p.schema ? constraints(d, p.schema) : null,
      p.example !== undefined ? h('p', { class: 'example-inline' }, 'Example: ', h('code', { text: String(p.example) })) : null));
  }
  return list;
}

function requestView(d, body, kind) {
  const out = [h('h4', {}, kind === 'webhook' ? 'Body sent' : 'Request body')];
  if (body.description) out.push(h('div', { class: 'desc' }, markdown(body.description)));
  for (const [type, media] of Object.entries(body.content || {})) {
    out.push(h('p', { class: 'muted' }, 'Media type ', h('code', { text: type }), body.required ? ', required.' : '.'));
    if (media.schema) out.push(h('p', {}, 'Schema: ', typeLabel(d, media.schema)), schemaView(d, media.schema));
    out.push(...examplesView(d, media, 'Request example'));
  }
  return out;
}

function responsesView(d, responses) {
  const list = h('div', { class: 'responses' });
  for (const status of Object.keys(responses).sort()) {
    const r = d.deref(responses[status]);
    const success = /^[23]/.test(status);
    const codes = errorCodes(r.description);
    const head = h('div', { class: 'resp-head' },
      h('span', { class: 'status status-' + status[0] }, status === 'default' ? 'default' : status), ' ',
      codes ? ['Error object with code ', codes.flatMap((c, i) => [i ? ', ' : '', h('a', { href: '#error-' + c }, c)])]
        : inline(r.description || ''));
    const box = h('div', { class: 'resp' + (success ? ' success' : '') }, head);
    const body = () => {
      const parts = [];
      for (const [type, media] of Object.entries(r.content || {})) {
        parts.push(h('p', { class: 'muted' }, 'Media type ', h('code', { text: type })));
        if (media.schema) parts.push(h('p', {}, 'Schema: ', typeLabel(d, media.schema)));
        if (media.schema && success) parts.push(schemaView(d, media.schema));
        parts.push(...examplesView(d, media, 'Response example'));
      }
      if (r.headers && success) parts.push(headersView(d, r.headers));
      return h('div', {}, parts);
    };
    // The success answer is shown open; the error answers (shared by many
    // operations) open on demand.
    if (success) box.append(body());
    else if (r.content) box.append(lazyDetails('Body and examples', body));
    list.append(box);
  }
  return list;
}

// errorCodes reads the codes an error response names ("Error object with
// code A, B."), or null.
function errorCodes(desc) {
  const m = /^Error object with code (.+)\.$/.exec(desc || '');
  return m ? m[1].split(', ') : null;
}

function headersView(d, headers) {
  const list = h('ul', { class: 'headers' });
  for (const [name, hdr] of Object.entries(headers)) {
    const v = d.deref(hdr);
    list.append(h('li', {}, h('code', { text: name }), v.description ? [' — ', inline(v.description)] : null));
  }
  return lazyDetails('Response headers', () => list);
}

/** examplesView renders a media type's examples (named, or the single one). */
export function examplesView(d, media, label) {
  const out = [];
  const named = Object.entries(media.examples || {});
  if (!named.length && media.example !== undefined) named.push(['example', { value: media.example }]);
  for (const [name, ex] of named) {
    const v = d.deref(ex);
    const text = typeof v.value === 'string' ? v.value : json(v.value);
    out.push(h('figure', { class: 'example' },
      h('figcaption', {}, h('span', { class: 'ex-name' }, label + ': ' + name), v.summary ? [' — ', inline(v.summary)] : null),
      pre(text, label + ' ' + name)));
  }
  return out;
}
