// Small DOM helpers: elements from data (never HTML strings), toasts, dialogs, pagers, tables.
import { t } from './i18n.js';

const PROPERTY_KEYS = new Set(['value', 'checked', 'disabled', 'selected', 'hidden', 'type', 'min', 'max', 'name',
  'multiple', 'required', 'accept', 'step']);

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

/** A picture of the shop's own (`/media/…`, `/assets/…`); anything else is left out (the CSP allows only this origin). */
export function thumb(url, alt = '') {
  if (typeof url !== 'string' || !/^\/(media|assets)\//.test(url)) return h('span', { class: 'thumb empty', 'aria-hidden': 'true' });
  return h('img', { class: 'thumb', src: url, alt, loading: 'lazy', referrerpolicy: 'no-referrer' });
}

// ---- feedback ------------------------------------------------------------------------------

let toastTimer = null;

/** A short message at the bottom of the screen; `kind` is 'ok' or 'error'. */
export function toast(message, kind = 'ok') {
  const box = document.getElementById('toast');
  if (!box) return;
  box.textContent = message;
  box.className = `toast show ${kind}`;
  box.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = 'toast'; }, kind === 'error' ? 5000 : 2400);
}

export function showError(error) {
  toast((error && error.message) || t('network_error'), 'error');
}

/** Runs `work` with `button` disabled meanwhile; errors go to the toast. Answers work's result or undefined. */
export async function busy(button, work) {
  if (button) button.disabled = true;
  try {
    return await work();
  } catch (error) {
    showError(error);
    return undefined;
  } finally {
    if (button && button.isConnected) button.disabled = false;
  }
}

/** A block that says what went wrong in place of a screen or a part of one. */
export function errorBlock(error, retry) {
  return h('div', { class: error && error.unavailable ? 'notice unavailable' : 'notice error' },
    h('p', null, (error && error.message) || t('network_error')),
    retry && !(error && error.unavailable) ? h('button', { class: 'btn small', type: 'button', onClick: retry }, t('retry')) : null);
}

export function loading() {
  return h('div', { class: 'loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('loading'));
}

// ---- dialogs -------------------------------------------------------------------------------

/**
 * A modal form: `body` is a node (or list) of fields; `onSubmit()` may throw (the error shows in
 * the dialog, which stays open) or resolve (the dialog closes). Resolves true when submitted.
 */
export function dialog({ title, body, submit = t('ok'), danger = false, onSubmit = async () => {} }) {
  return new Promise((resolve) => {
    const error = h('p', { class: 'form-error', role: 'alert' });
    const ok = h('button', { class: danger ? 'btn danger' : 'btn primary', type: 'submit', id: 'dialog-ok' }, submit);
    const close = (result) => {
      document.removeEventListener('keydown', onKey);
      overlay.remove();
      resolve(result);
    };
    const onKey = (event) => { if (event.key === 'Escape') close(false); };
    const form = h('form', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-label': title, novalidate: true,
      onSubmit: async (event) => {
        event.preventDefault();
        error.textContent = '';
        ok.disabled = true;
        try {
          await onSubmit();
          close(true);
        } catch (failure) {
          error.textContent = (failure && failure.message) || t('network_error');
          ok.disabled = false;
        }
      } },
      h('h2', { class: 'dialog-title' }, title),
      h('div', { class: 'dialog-body' }, body),
      error,
      h('div', { class: 'dialog-actions' },
        h('button', { class: 'btn', type: 'button', id: 'dialog-cancel', onClick: () => close(false) }, t('cancel')),
        ok));
    const overlay = h('div', { class: 'overlay', onClick: (event) => { if (event.target === overlay) close(false); } }, form);
    document.body.appendChild(overlay);
    document.addEventListener('keydown', onKey);
    const first = form.querySelector('input, textarea, select');
    (first || ok).focus();
  });
}

/** Asks before a destructive action; runs `action` on yes. Resolves true when it was done. */
export function confirmAction(message, action, { submit = t('confirm'), danger = true } = {}) {
  return dialog({ title: t('are_you_sure'), body: h('p', { class: 'confirm-text' }, message), submit, danger, onSubmit: action });
}

/** A labelled field. */
export function field(labelText, input, hint) {
  return h('label', { class: 'field' }, h('span', { class: 'field-label' }, labelText), input,
    hint ? h('span', { class: 'field-hint' }, hint) : null);
}

/** Fails a dialog's submit with `message` (shown in the dialog). */
export function invalid(message) {
  const error = new Error(message);
  error.name = 'InvalidInput';
  return error;
}

// ---- lists ---------------------------------------------------------------------------------

/** A table: `columns` are [{title, cell(row) → node|text, cls}], one row per item. */
export function table(columns, rows, { rowClass, empty = t('nothing_here') } = {}) {
  if (!rows.length) return h('p', { class: 'empty' }, empty);
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'table' },
      h('thead', null, h('tr', null, columns.map((c) => h('th', { class: c.cls }, c.title)))),
      h('tbody', null, rows.map((row) => h('tr', { class: rowClass ? rowClass(row) : null },
        columns.map((c) => h('td', { class: c.cls, 'data-label': c.title }, c.cell(row))))))));
}

/** "Page 2 of 7" with previous/next; `go(page)` loads another page. */
export function pager({ page, per_page: perPage, total }, go) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, perPage)));
  if (pages <= 1) return h('p', { class: 'pager muted' }, t('total_n', { n: total }));
  return h('div', { class: 'pager' },
    h('button', { class: 'btn small', type: 'button', disabled: page <= 1, onClick: () => go(page - 1) }, t('prev_page')),
    h('span', { class: 'muted' }, t('page_of', { page, pages, n: total })),
    h('button', { class: 'btn small', type: 'button', disabled: page >= pages, onClick: () => go(page + 1) }, t('next_page')));
}

/** A coloured chip for a status code. */
export function badge(text, kind = '') {
  return h('span', { class: `badge ${kind}` }, text);
}

/** A select of `options` ([value, label]) with `value` chosen. */
export function select(props, options, value) {
  return h('select', props, options.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value ?? '') }, text)));
}
