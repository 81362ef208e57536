// The shop's public HTTP API (/api/v1). The page holds no secret: only the user's own bearer token.
import { lang, t } from './i18n.js';

const BASE = '/api/v1';
const TOKEN_KEY = 'floral.token';

/** An error answer of the API: `message` is the server's own words, shown to the person as is. */
export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || (status ? `HTTP ${status}` : t('network_error')));
    this.name = 'ApiError';
    this.status = status;
    this.code = error.code || (status ? 'http_' + status : 'network');
    this.field = error.field;
    this.retryAfter = typeof error.retry_after === 'number' ? error.retry_after : null;
  }
}

function storage() {
  try { return window.localStorage; } catch { return null; }
}

export function getToken() {
  const store = storage();
  return (store && store.getItem(TOKEN_KEY)) || null;
}

export function setToken(token) {
  const store = storage();
  if (!store) return;
  if (token) store.setItem(TOKEN_KEY, token); else store.removeItem(TOKEN_KEY);
}

/** Listeners told when the server refuses the stored token (expired or revoked). */
const unauthorizedListeners = new Set();
export function onUnauthorized(listener) { unauthorizedListeners.add(listener); }

/**
 * One API call. `query` values that are null/undefined/'' are left out. Resolves with the parsed
 * JSON (null for 204), rejects with an ApiError. Expected errors are never written to the console.
 */
export async function api(method, path, { query, body, headers = {}, auth = true } = {}) {
  let url = BASE + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
    }
    const text = params.toString();
    if (text) url += '?' + text;
  }
  const token = auth ? getToken() : null;
  // The server words its error messages in the page's language.
  const init = { method, headers: { Accept: 'application/json', 'Accept-Language': lang, ...headers } };
  if (token) init.headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json; charset=utf-8';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new ApiError(0, null);
  }
  let data = null;
  if (response.status !== 204) {
    const text = await response.text().catch(() => '');
    if (text) {
      try { data = JSON.parse(text); } catch { data = null; }
    }
  }
  if (!response.ok) {
    if (response.status === 401 && token) {
      setToken(null);
      for (const listener of unauthorizedListeners) listener();
    }
    throw new ApiError(response.status, data);
  }
  return data;
}

export const get = (path, query, options = {}) => api('GET', path, { ...options, query });
export const post = (path, body, options = {}) => api('POST', path, { ...options, body });
export const patch = (path, body, options = {}) => api('PATCH', path, { ...options, body });
export const del = (path, options = {}) => api('DELETE', path, options);
export const put = (path, body, options = {}) => api('PUT', path, { ...options, body });

/**
 * Uploads one picture (a File or Blob of image/jpeg, png or webp) as the raw body of POST /media;
 * resolves with `{url, thumbnail_url}`, rejects with an ApiError in the page's language.
 */
export async function uploadImage(file) {
  const headers = { Accept: 'application/json', 'Accept-Language': lang, 'Content-Type': file.type || 'application/octet-stream' };
  const token = getToken();
  if (token) headers.Authorization = 'Bearer ' + token;
  let response;
  try {
    response = await fetch(BASE + '/media', { method: 'POST', headers, body: file });
  } catch {
    throw new ApiError(0, null);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** A fresh Idempotency-Key for one checkout. */
export function newIdempotencyKey() {
  if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
  // randomUUID needs a secure context; on plain http from another host build a v4 UUID by hand.
  const bytes = window.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let devModePromise = null;
/**
 * Whether the development-only simulate-payment route exists. A harmless GET: the route answers
 * only POST, so in development the server says 405 (the path is known) and in production 404.
 */
export function isDevelopment() {
  if (!devModePromise) {
    devModePromise = fetch(BASE + '/dev/orders/0/simulate-payment', { method: 'GET', headers: { Accept: 'application/json' } })
      .then((response) => response.status !== 404)
      .catch(() => false);
  }
  return devModePromise;
}
