// DOM building without HTML strings: every text from the server becomes a
// text node, so nothing it says can turn into markup or script.

/**
 * h creates an element. attrs: "class", "text" (text content), "on" (an
 * object of event listeners), "dataset", and any other attribute (false,
 * null and undefined leave it out, true sets it empty). Children are nodes,
 * strings (text), or arrays of them; null and false are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'class') el.className = value;
    else if (name === 'text') el.textContent = value;
    else if (name === 'on') for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** append adds children (nodes, strings, nested arrays) to parent. */
export function append(parent, children) {
  for (const c of [children].flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    parent.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return parent;
}

/** replace empties parent and fills it with children. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** slug turns a name into a fragment-safe id part. */
export function slug(s) {
  return String(s).replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '');
}

/** pre renders preformatted code; it is focusable so a keyboard user can scroll it. */
export function pre(text, label) {
  return h('pre', { tabindex: 0, 'aria-label': label || null }, h('code', { text }));
}

/** json pretty-prints a value for a code block. */
export function json(value) {
  return JSON.stringify(value, null, 2);
}
