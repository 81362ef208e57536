// Small DOM helpers: elements from data (never innerHTML), images with a soft placeholder, toasts.
import { t } from './i18n.js';

const PROPERTY_KEYS = new Set(['value', 'checked', 'disabled', 'selected', 'hidden', 'type', 'min', 'max', 'name']);

/** `h('button', {class: 'btn', onClick: fn}, 'text', child)`: an element, children as text or nodes. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (PROPERTY_KEYS.has(key)) el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

// ---- images -------------------------------------------------------------------------------

const images = new Map();

/**
 * Loads an image once; resolves true when it loaded, false when it failed or is neither a web URL
 * nor one of the shop's own files (`/media/…`, `/assets/…`).
 */
function loadImage(url) {
  if (typeof url !== 'string' || !/^(https?:\/\/|\/assets\/|\/media\/)/i.test(url)) return Promise.resolve(false);
  if (!images.has(url)) {
    images.set(url, new Promise((resolve) => {
      const img = new Image();
      img.addEventListener('load', () => resolve(true));
      img.addEventListener('error', () => resolve(false));
      img.decoding = 'async';
      img.referrerPolicy = 'no-referrer';
      img.src = url;
    }));
  }
  return images.get(url);
}

function seedOf(value) {
  const text = String(value ?? '');
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum = (sum * 31 + text.charCodeAt(i)) >>> 0;
  return sum % 6;
}

/**
 * A picture as a CSS background: a soft flower placeholder at once, the real image when (and
 * only if) it loads. A failed load leaves the placeholder: no broken-image icon.
 */
export function picture(url, { seed, cls = 'pic', label = '', initial } = {}) {
  const el = h('div', { class: `${cls} ph ph-${seedOf(seed ?? url)}`, role: 'img', 'aria-label': label || null });
  if (initial) el.appendChild(h('span', { class: 'ph-initial' }, initial));
  loadImage(url).then((ok) => {
    if (!ok) { el.classList.add('ph-failed'); return; }
    const safe = url.replace(/["\\\n\r]/g, (c) => encodeURIComponent(c));
    el.style.backgroundImage = `url("${safe}")`;
    el.classList.add('loaded');
  });
  return el;
}

// ---- feedback ------------------------------------------------------------------------------

let toastTimer = null;

/** A short message low on the screen, clear of headings and bars; `kind` is 'ok' or 'error'. */
export function toast(message, kind = 'ok') {
  const box = document.getElementById('toast');
  if (!box) return;
  box.textContent = message;
  box.className = `toast show ${kind}`;
  box.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = 'toast'; }, kind === 'error' ? 4200 : 2400);
}

/** Shows an API (or any) error to the person, with the server's own message. */
export function showError(error) {
  toast((error && error.message) || t('network_error'), 'error');
}

/** Runs `work` with `button` disabled meanwhile; errors go to the toast (or `onError`). */
export async function busy(button, work, onError = showError) {
  if (button) button.disabled = true;
  try {
    return await work();
  } catch (error) {
    onError(error);
    return undefined;
  } finally {
    if (button && button.isConnected) button.disabled = false;
  }
}

export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

export function loadingBlock() {
  return h('div', { class: 'loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('loading'));
}

export function emptyBlock(text, ...actions) {
  return h('div', { class: 'empty' }, h('div', { class: 'empty-art', 'aria-hidden': 'true' }), h('p', null, text), actions);
}

export function errorBlock(error, retry) {
  return h('div', { class: 'empty error-block', role: 'alert' },
    h('p', null, (error && error.message) || t('network_error')),
    retry ? h('button', { class: 'btn ghost', type: 'button', onClick: retry }, t('retry')) : null);
}

// ---- article text --------------------------------------------------------------------------

/**
 * Article content ("HTML or Markdown, stored as given") as safe elements: headings, lists and
 * paragraphs from Markdown; HTML is reduced to its text, never inserted as markup.
 */
export function articleBody(content) {
  let text = String(content || '');
  if (/^\s*</.test(text)) {
    const doc = new DOMParser().parseFromString(text, 'text/html');
    doc.querySelectorAll('script,style').forEach((node) => node.remove());
    doc.querySelectorAll('p,h1,h2,h3,h4,li,br,div').forEach((node) => node.after(doc.createTextNode('\n\n')));
    text = doc.body.textContent || '';
  }
  const root = h('div', { class: 'prose' });
  let list = null;
  const blocks = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) root.appendChild(h('p', null, inline(paragraph.join(' '))));
    paragraph = [];
  };
  for (const raw of blocks) {
    const line = raw.trim();
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const bullet = /^[-*•]\s+(.*)$/.exec(line);
    const numbered = /^\d+[.)、]\s*(.*)$/.exec(line);
    if (!line) { flush(); list = null; continue; }
    if (heading) {
      flush(); list = null;
      root.appendChild(h(heading[1].length <= 2 ? 'h3' : 'h4', null, inline(heading[2])));
    } else if (bullet || numbered) {
      flush();
      const tag = bullet ? 'ul' : 'ol';
      if (!list || list.tagName.toLowerCase() !== tag) { list = h(tag); root.appendChild(list); }
      list.appendChild(h('li', null, inline((bullet || numbered)[1])));
    } else {
      list = null;
      paragraph.push(line);
    }
  }
  flush();
  return root;
}

/** **bold** inside a line; everything else stays text. */
function inline(text) {
  const parts = String(text).split(/\*\*(.+?)\*\*/g);
  return parts.map((part, i) => (i % 2 ? h('strong', null, part) : part));
}
