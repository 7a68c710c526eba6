// The API reference at /docs, rendered from the engine's own
// /v1/openapi.json and /v1/errors: an introduction with the servers and
// the authentication schemes, the operations grouped by tag, the webhooks
// the engine sends, the component schemas and the error catalogue.

import { h, replace, slug } from '../lib/dom.js';
import { inline, markdown } from '../lib/markdown.js';
import { Document, lazyDetails, schemaAnchor, schemaView } from './schema.js';
import { methodBadge, opAnchor, operationView } from './operation.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options', 'head', 'trace'];

async function fetchJSON(url) {
  const resp = await fetch(url, { headers: { Accept: 'application/json' } });
  const body = await resp.json().catch(() => null);
  if (!resp.ok) {
    const why = body && body.error ? `${body.code}: ${body.error}` : `HTTP ${resp.status}`;
    throw new Error(`GET ${url} failed (${why})`);
  }
  return body;
}

/** operationsByTag groups the document's operations by their first tag,
 * in the order of the document's tag list. */
function operationsByTag(doc) {
  const groups = new Map((doc.tags || []).map((t) => [t.name, { tag: t, ops: [] }]));
  for (const path of Object.keys(doc.paths || {}).sort()) {
    const item = doc.paths[path];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const name = (op.tags && op.tags[0]) || 'other';
      if (!groups.has(name)) groups.set(name, { tag: { name }, ops: [] });
      groups.get(name).ops.push({ method, path, op });
    }
  }
  return [...groups.values()].filter((g) => g.ops.length);
}

function intro(d) {
  const { info = {}, servers = [] } = d.doc;
  const comps = (d.doc.components && d.doc.components.securitySchemes) || {};
  const auth = h('section', { id: 'authentication', 'aria-labelledby': 'authentication-title' },
    h('h2', { id: 'authentication-title' }, 'Authentication'));
  for (const [name, s] of Object.entries(comps)) {
    const wire = s.type === 'apiKey' ? `${s.name} (${s.in})` : s.type === 'http' ? `Authorization: ${s.scheme}` : s.type;
    auth.append(h('div', { class: 'scheme', id: 'auth-' + slug(name) },
      h('h3', {}, name, ' ', h('code', { text: wire })),
      s.description ? h('div', { class: 'desc' }, markdown(s.description)) : null));
  }
  return [
    h('section', { id: 'introduction', 'aria-labelledby': 'doc-title' },
      h('h1', { id: 'doc-title' }, info.title || 'API reference'),
      h('p', { class: 'muted' }, `Version ${info.version || '?'} · OpenAPI ${d.doc.openapi || '?'} · `,
        h('a', { href: '/v1/openapi.json' }, 'the document as JSON')),
      info.description ? h('div', { class: 'desc' }, markdown(info.description)) : null,
      servers.length ? [h('h2', {}, 'Servers'), h('ul', {}, servers.map((s) =>
        h('li', {}, h('code', { text: s.url }), s.description ? [' — ', inline(s.description)] : null)))] : null),
    auth,
  ];
}

function tagSection(d, group) {
  const id = 'tag-' + slug(group.tag.name);
  return h('section', { id, class: 'tag', 'aria-labelledby': id + '-title' },
    h('h2', { id: id + '-title' }, group.tag.name),
    group.tag.description ? h('div', { class: 'desc' }, markdown(group.tag.description)) : null,
    group.ops.map(({ method, path, op }) => operationView(d, method, path, op)));
}

function webhooksSection(d) {
  const hooks = d.doc.webhooks || {};
  const names = Object.keys(hooks).sort();
  if (!names.length) return null;
  return h('section', { id: 'webhooks', class: 'tag', 'aria-labelledby': 'webhooks-title' },
    h('h2', { id: 'webhooks-title' }, 'Webhook deliveries'),
    h('p', {}, 'What the engine sends to a registered endpoint, one event type each.'),
    names.flatMap((name) => METHODS.filter((m) => hooks[name][m]).map((m) => operationView(d, m, name, hooks[name][m], 'webhook'))));
}

function schemasSection(d) {
  const schemas = (d.doc.components && d.doc.components.schemas) || {};
  return h('section', { id: 'schemas', 'aria-labelledby': 'schemas-title' },
    h('h2', { id: 'schemas-title' }, 'Schemas'),
    Object.keys(schemas).sort().map((name) => {
      const s = schemas[name];
      return h('section', { id: schemaAnchor(name), class: 'schema-entry', 'aria-label': name + ' schema' },
        h('h3', {}, h('code', { text: name })),
        s.description ? h('div', { class: 'desc' }, markdown(s.description)) : null,
        lazyDetails('Definition', () => schemaView(d, { $ref: '#/components/schemas/' + name })));
    }));
}

function errorsSection(d, catalog) {
  const section = h('section', { id: 'errors', 'aria-labelledby': 'errors-title' },
    h('h2', { id: 'errors-title' }, 'Errors'),
    h('p', {}, 'Every error answer is a JSON object with ', h('code', { text: 'error' }), ' (a message), ',
      h('code', { text: 'code' }), ' and ', h('code', { text: 'requestId' }), '. The codes, from ',
      h('a', { href: '/v1/errors' }, 'GET /v1/errors'), ':'));
  let rows = catalog && catalog.errors;
  if (!rows) {
    // Without the catalogue, the document's ErrorCode enum still names them.
    const codes = d.deref({ $ref: '#/components/schemas/ErrorCode' }).enum || [];
    rows = codes.map((code) => ({ code }));
    section.append(h('p', { class: 'notice warn' }, 'GET /v1/errors could not be read: the codes below come from the document alone.'));
  }
  const body = h('tbody');
  for (const e of rows) {
    body.append(h('tr', { id: 'error-' + e.code },
      h('td', { 'data-label': 'Code' }, h('code', { text: e.code })),
      h('td', { 'data-label': 'Status' }, e.status === undefined ? '' : String(e.status)),
      h('td', { 'data-label': 'Retryable' }, e.retryable === undefined ? '' : e.retryable ? 'yes' : 'no'),
      h('td', { 'data-label': 'Meaning' }, e.description || ''),
      h('td', { 'data-label': 'What to do' }, e.retry || '')));
  }
  section.append(h('table', { class: 'stack errors' },
    h('caption', { class: 'visually-hidden' }, 'Error codes'),
    h('thead', {}, h('tr', {}, ['Code', 'Status', 'Retryable', 'Meaning', 'What to do'].map((c) => h('th', { scope: 'col' }, c)))),
    body));
  return section;
}

function toc(groups, d) {
  const list = h('ul', { class: 'toc-list' },
    h('li', {}, h('a', { href: '#introduction' }, 'Introduction')),
    h('li', {}, h('a', { href: '#authentication' }, 'Authentication')),
    groups.map((g) => h('li', { class: 'toc-tag' },
      h('a', { href: '#tag-' + slug(g.tag.name) }, g.tag.name),
      h('ul', {}, g.ops.map(({ method, path, op }) => h('li', { dataset: { filter: filterText(method, path, op) } },
        h('a', { href: '#' + opAnchor(op, method, path) }, methodBadge(method), ' ', h('span', { class: 'toc-path' }, path))))))),
    d.doc.webhooks ? h('li', {}, h('a', { href: '#webhooks' }, 'Webhook deliveries')) : null,
    h('li', {}, h('a', { href: '#schemas' }, 'Schemas')),
    h('li', {}, h('a', { href: '#errors' }, 'Errors')));
  return list;
}

function filterText(method, path, op) {
  return [method, path, op.summary, op.operationId, ...(op.tags || [])].join(' ').toLowerCase();
}

// applyFilter shows the operations (and their contents entries) whose
// method, path, summary, id or tag contain every word typed.
function applyFilter(query, status) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const li of document.querySelectorAll('#toc li[data-filter]')) {
    const hit = words.every((w) => li.dataset.filter.includes(w));
    li.hidden = !hit;
    const target = document.getElementById(li.querySelector('a').hash.slice(1));
    if (target) target.hidden = !hit;
    if (hit) shown++;
  }
  for (const sec of document.querySelectorAll('#main section.tag')) {
    sec.hidden = ![...sec.querySelectorAll('article.op')].some((a) => !a.hidden) && sec.id !== 'webhooks';
  }
  for (const li of document.querySelectorAll('#toc li.toc-tag')) {
    li.hidden = ![...li.querySelectorAll('li[data-filter]')].some((x) => !x.hidden);
  }
  status.textContent = words.length ? `${shown} operations match “${query.trim()}”.` : '';
}

// reveal opens the closed <details> around or inside the fragment's target
// (a schema's definition) and moves focus there.
function reveal() {
  const id = decodeURIComponent(location.hash.slice(1));
  const el = id && document.getElementById(id);
  if (!el) return;
  for (let p = el.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
  const inner = el.querySelector(':scope > details');
  if (inner) inner.open = true;
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.scrollIntoView();
  el.focus({ preventScroll: true });
}

async function main() {
  const content = document.getElementById('content');
  const nav = document.getElementById('toc-body');
  const status = document.getElementById('load-status');
  let doc;
  let catalog = null;
  try {
    [doc, catalog] = await Promise.all([fetchJSON('/v1/openapi.json'), fetchJSON('/v1/errors').catch(() => null)]);
  } catch (err) {
    replace(status, h('span', { class: 'notice error' }, `The API document could not be loaded: ${err.message}`));
    return;
  }
  const d = new Document(doc);
  const groups = operationsByTag(doc);
  replace(content, intro(d), groups.map((g) => tagSection(d, g)), webhooksSection(d), schemasSection(d), errorsSection(d, catalog));
  replace(nav, toc(groups, d));
  const count = groups.reduce((n, g) => n + g.ops.length, 0);
  status.textContent = `${count} operations loaded.`;
  const filter = document.getElementById('filter');
  const filterStatus = document.getElementById('filter-status');
  filter.disabled = false;
  filter.addEventListener('input', () => applyFilter(filter.value, filterStatus));
  document.title = `${doc.info && doc.info.title ? doc.info.title : 'API'} reference`;
  window.addEventListener('hashchange', reveal);
  reveal();
  // The contents start folded on a narrow screen, where they would push the
  // reference far down.
  if (window.matchMedia('(max-width: 900px)').matches) document.getElementById('toc').open = false;
  document.body.dataset.ready = 'true';
}

main();
