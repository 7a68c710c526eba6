// The Markdown the OpenAPI descriptions use, rendered to DOM nodes (never
// through HTML strings): paragraphs, headings, bullet and numbered lists
// (with continuation lines), fenced code blocks, and inline code, bold,
// italics and links. Anything else stays as text.

import { h } from './dom.js';

const listItem = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

/** markdown renders a Markdown text as a document fragment of blocks. */
export function markdown(text) {
  const frag = document.createDocumentFragment();
  const lines = String(text || '').replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') { i++; continue; }
    const fence = line.match(/^\s*(```|~~~)\s*(\S*)/);
    if (fence) {
      const body = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) body.push(lines[i]);
      i++;
      frag.append(h('pre', { tabindex: 0 }, h('code', { text: body.join('\n') })));
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      // Headings inside a description sit below the operation's own h3.
      const level = Math.min(6, heading[1].length + 3);
      frag.append(h('h' + level, {}, inline(heading[2])));
      i++;
      continue;
    }
    if (listItem.test(line)) {
      i = list(lines, i, frag);
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() !== '' && !listItem.test(lines[i]) && !/^\s*(```|~~~)/.test(lines[i])) {
      para.push(lines[i].trim());
      i++;
    }
    frag.append(h('p', {}, inline(para.join(' '))));
  }
  return frag;
}

// list renders the list starting at lines[i] into parent and returns the
// index of the first line after it.
function list(lines, i, parent) {
  const first = lines[i].match(listItem);
  const ordered = /\d/.test(first[2]);
  const indent = first[1].length;
  const el = h(ordered ? 'ol' : 'ul');
  if (ordered && parseInt(first[2], 10) !== 1) el.setAttribute('start', parseInt(first[2], 10));
  while (i < lines.length) {
    const m = lines[i].match(listItem);
    if (!m || m[1].length !== indent || /\d/.test(m[2]) !== ordered) break;
    const text = [m[3]];
    const li = h('li');
    i++;
    while (i < lines.length && lines[i].trim() !== '') {
      const sub = lines[i].match(listItem);
      if (sub && sub[1].length > indent) { li.append(inline(text.join(' '))); text.length = 0; i = list(lines, i, li); continue; }
      if (sub) break;
      text.push(lines[i].trim());
      i++;
    }
    if (text.length) li.prepend(inline(text.join(' ')));
    el.append(li);
    // A blank line between items keeps the list going.
    if (i < lines.length && lines[i].trim() === '' && i + 1 < lines.length) {
      const next = lines[i + 1].match(listItem);
      if (next && next[1].length === indent) i++;
    }
  }
  parent.append(el);
  return i;
}

const inlineToken = /(`+)([\s\S]*?)\1|\*\*([^*]+)\*\*|(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** inline renders the inline Markdown of one line as a fragment. */
export function inline(value) {
  const text = String(value);
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(inlineToken)) {
    if (m.index > last) frag.append(text.slice(last, m.index));
    if (m[1]) frag.append(h('code', { text: m[2].trim() }));
    else if (m[3]) frag.append(h('strong', {}, inline(m[3])));
    else if (m[4]) frag.append(h('em', {}, inline(m[4])));
    else if (m[5]) frag.append(h('em', {}, inline(m[5])));
    else frag.append(link(m[6], m[7]));
    last = m.index + m[0].length;
  }
  if (last < text.length) frag.append(text.slice(last));
  return frag;
}

// link renders [label](href) for http(s) URLs and fragments; any other
// scheme (javascript: and the like) is shown as text.
function link(label, href) {
  if (/^(https?:\/\/|#|\/)/i.test(href)) {
    const external = /^https?:/i.test(href);
    return h('a', { href, rel: external ? 'noopener noreferrer' : null }, inline(label));
  }
  return document.createTextNode(label);
}
