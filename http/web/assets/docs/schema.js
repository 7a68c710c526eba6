// JSON Schema rendering for the reference: $ref resolution against the
// document, a one-line type label, and a property list whose nested
// objects open on demand (rendered when first opened, so the page stays
// fast however deep the schemas go).

import { h } from '../lib/dom.js';
import { inline, markdown } from '../lib/markdown.js';

/** Document resolves JSON pointers ($ref) of one OpenAPI document. */
export class Document {
  constructor(doc) { this.doc = doc; }

  /** resolve follows $ref chains; it returns {value, name}, name being the
   * last component schema's name on the way (or ''). */
  resolve(node) {
    let name = '';
    const seen = new Set();
    while (node && typeof node === 'object' && typeof node.$ref === 'string') {
      if (seen.has(node.$ref)) break;
      seen.add(node.$ref);
      const m = node.$ref.match(/^#\/components\/schemas\/(.+)$/);
      if (m) name = decodePointer(m[1]);
      node = this.pointer(node.$ref);
    }
    return { value: node || {}, name };
  }

  /** pointer reads a local JSON pointer (#/a/b). */
  pointer(ref) {
    if (!ref.startsWith('#/')) return undefined;
    let cur = this.doc;
    for (const part of ref.slice(2).split('/')) {
      if (cur === null || typeof cur !== 'object') return undefined;
      cur = cur[decodePointer(part)];
    }
    return cur;
  }

  /** deref returns node with its $ref followed (any component kind). */
  deref(node) { return this.resolve(node).value; }
}

function decodePointer(s) {
  return decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** schemaAnchor is the fragment of a component schema in the page. */
export function schemaAnchor(name) { return 'schema-' + name; }

/** merged returns a schema's own and allOf parts' properties and required
 * names (one level of allOf composition, as the document uses). */
export function merged(d, schema) {
  const props = {};
  const required = new Set();
  const visit = (s, depth) => {
    const v = d.deref(s);
    if (!v || depth > 8) return;
    for (const part of v.allOf || []) visit(part, depth + 1);
    Object.assign(props, v.properties || {});
    for (const r of v.required || []) required.add(r);
  };
  visit(schema, 0);
  return { props, required };
}

/** typeLabel renders a short description of a schema's type: a link to a
 * named component, "array of …", "one of …", the JSON types, format and
 * constant. */
export function typeLabel(d, schema) {
  const { value, name } = d.resolve(schema);
  if (name && schema.$ref) {
    return h('a', { href: '#' + schemaAnchor(name), class: 'type' }, name);
  }
  return h('span', { class: 'type' }, plainType(d, value));
}

function plainType(d, s) {
  if (s.const !== undefined) return ['const ', h('code', { text: JSON.stringify(s.const) })];
  for (const key of ['oneOf', 'anyOf']) {
    if (Array.isArray(s[key])) {
      const parts = [key === 'oneOf' ? 'one of ' : 'any of '];
      s[key].forEach((alt, i) => { if (i) parts.push(' | '); parts.push(typeLabel(d, alt)); });
      return parts;
    }
  }
  if (Array.isArray(s.allOf) && !s.properties && s.allOf.length === 1) return typeLabel(d, s.allOf[0]);
  const types = [].concat(s.type || (s.properties || s.allOf ? 'object' : s.enum ? 'string' : 'any'));
  const out = [];
  types.forEach((t, i) => {
    if (i) out.push(' | ');
    if (t === 'array') out.push('array of ', s.items ? typeLabel(d, s.items) : 'any');
    else out.push(t);
  });
  if (s.format) out.push(' (' + s.format + ')');
  return out;
}

/** constraints lists a schema's value rules (enum, pattern, bounds, default). */
export function constraints(d, schema) {
  const s = d.deref(schema);
  const out = [];
  if (Array.isArray(s.enum)) {
    out.push(h('span', {}, 'One of: ', ...s.enum.flatMap((v, i) => [i ? ', ' : '', h('code', { text: String(v) })])));
  }
  if (s.pattern) out.push(h('span', {}, 'Pattern: ', h('code', { text: s.pattern })));
  for (const [k, label] of [['minimum', 'Minimum'], ['maximum', 'Maximum'], ['minLength', 'Min length'],
    ['maxLength', 'Max length'], ['minItems', 'Min items'], ['maxItems', 'Max items'], ['default', 'Default']]) {
    if (s[k] !== undefined) out.push(h('span', {}, label + ': ', h('code', { text: JSON.stringify(s[k]) })));
  }
  return out.length ? h('p', { class: 'constraints' }, out.flatMap((c, i) => (i ? ['; ', c] : [c]))) : null;
}

/** nestedTarget returns the object schema a property opens into (itself,
 * or its array's items), or null for a scalar. */
function nestedTarget(d, schema) {
  let s = d.deref(schema);
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) s = d.deref(s.items || {});
  const { props } = merged(d, s);
  return Object.keys(props).length ? s : null;
}

/**
 * schemaView renders a schema: its description, then its properties (for
 * an object, or an array of objects), or its alternatives (oneOf/anyOf).
 * path holds the component names already open above, so a recursive
 * schema stops with a link instead of looping.
 */
export function schemaView(d, schema, path = []) {
  const { value, name } = d.resolve(schema);
  const box = h('div', { class: 'schema' });
  if (name && path.includes(name)) {
    box.append(h('p', {}, 'Recursive: see ', h('a', { href: '#' + schemaAnchor(name) }, name), '.'));
    return box;
  }
  const here = name ? [...path, name] : path;
  let target = value;
  if (value.type === 'array' && value.items) {
    box.append(h('p', { class: 'muted' }, 'Array of ', typeLabel(d, value.items), '.'));
    target = d.deref(value.items);
  }
  for (const key of ['oneOf', 'anyOf']) {
    if (Array.isArray(target[key])) {
      const list = h('ul', { class: 'alts' });
      for (const alt of target[key]) {
        const altDesc = d.deref(alt).description;
        list.append(h('li', {}, typeLabel(d, alt), altDesc ? [' — ', inline(firstSentence(altDesc))] : null));
      }
      box.append(h('p', {}, key === 'oneOf' ? 'Exactly one of:' : 'Any of:'), list);
    }
  }
  const { props, required } = merged(d, target);
  const names = Object.keys(props);
  if (names.length) box.append(propertyList(d, props, required, here));
  else if (!target.oneOf && !target.anyOf) {
    box.append(h('p', {}, 'Type: ', typeLabel(d, schema)));
    const c = constraints(d, schema);
    if (c) box.append(c);
  }
  return box;
}

// propertyList renders an object's properties, required ones first in the
// document's order.
function propertyList(d, props, required, path) {
  const list = h('ul', { class: 'props' });
  const names = Object.keys(props).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  for (const prop of names) {
    const schema = props[prop];
    const desc = schema.description || d.deref(schema).description;
    const item = h('li', {},
      h('div', { class: 'prop-head' },
        h('code', { class: 'prop-name', text: prop }), ' ', typeLabel(d, schema),
        required.has(prop) ? h('span', { class: 'req' }, 'required') : h('span', { class: 'opt' }, 'optional')),
      desc ? h('div', { class: 'prop-desc' }, markdown(desc)) : null,
      constraints(d, schema));
    const nested = nestedTarget(d, schema);
    if (nested) item.append(lazyDetails('Fields of ' + prop, () => schemaView(d, schema, path)));
    list.append(item);
  }
  return list;
}

/** lazyDetails is a closed <details> whose body is built when first opened. */
export function lazyDetails(summary, build) {
  const det = h('details', { class: 'nested' }, h('summary', {}, summary));
  let built = false;
  det.addEventListener('toggle', () => {
    if (det.open && !built) { built = true; det.append(build()); }
  });
  return det;
}

/** firstSentence shortens a description for a one-line mention. */
export function firstSentence(text) {
  const m = String(text).match(/^[\s\S]*?[.:](\s|$)/);
  return (m ? m[0] : String(text)).trim();
}
