// The admin API (/api/v1/admin) with the staff bearer token. The token lives in sessionStorage:
// it dies with the tab, and no other tab or site reads it.
import { lang, t } from './i18n.js';

const BASE = '/api/v1';
const TOKEN_KEY = 'floral.admin.token';

/** An error answer: `message` is the server's own words; `unavailable` when the route is not there. */
export class ApiError extends Error {
  constructor(status, body, { feature = false } = {}) {
    const error = (body && body.error) || {};
    const unavailable = feature && (status === 404 || status === 405 || status === 501);
    super(unavailable ? t('not_available') : error.message || (status ? `HTTP ${status}` : t('network_error')));
    this.name = 'ApiError';
    this.status = status;
    this.code = error.code || (status ? 'http_' + status : 'network');
    this.field = error.field;
    this.unavailable = unavailable;
  }
}

function storage() {
  try { return window.sessionStorage; } catch { return null; }
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

let onSignedOut = () => {};
/** Called when the server refuses the token on an admin route (expired, revoked, disabled). */
export function whenSignedOut(listener) { onSignedOut = listener; }

/**
 * One call. `query` values that are null/undefined/'' are left out; `raw` sends bytes with their
 * own type (a picture). `feature: true` marks a list whose 404/405 means "this shop has no such
 * route yet" rather than "no such thing". Resolves with the JSON (null for 204).
 */
export async function api(method, path, { query, body, raw, feature = false } = {}) {
  let url = BASE + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
    }
    const text = params.toString();
    if (text) url += '?' + text;
  }
  const token = getToken();
  const init = { method, headers: { Accept: 'application/json', 'Accept-Language': lang }, credentials: 'omit' };
  if (token) init.headers.Authorization = 'Bearer ' + token;
  if (raw) {
    init.headers['Content-Type'] = raw.type;
    init.body = raw;
  } else if (body !== undefined) {
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
    // Only an admin route speaks for the staff session; another route refusing a staff token
    // (a picture upload the server does not open to staff yet) is that route's error.
    if (response.status === 401 && token && path.startsWith('/admin/') && path !== '/admin/auth/login') {
      setToken(null);
      onSignedOut();
    }
    throw new ApiError(response.status, data, { feature });
  }
  return data;
}

export const get = (path, query, options = {}) => api('GET', path, { ...options, query });
export const post = (path, body = {}, options = {}) => api('POST', path, { ...options, body });
export const patch = (path, body, options = {}) => api('PATCH', path, { ...options, body });
export const del = (path, options = {}) => api('DELETE', path, options);

/**
 * Uploads one picture (JPEG, PNG or WebP) to /media: answers `{url, thumbnail_url}`. A server
 * whose /media does not take staff tokens (yet) says so in words, not as a sign-in problem.
 */
export async function uploadPicture(file) {
  try {
    return await api('POST', '/media', { raw: file });
  } catch (error) {
    if (![401, 403, 404, 405].includes(error.status)) throw error;
    throw new ApiError(error.status, { error: { code: error.code, message: t('upload_unavailable') } });
  }
}

/** A list answer as `{items, page, per_page, total}`, whether the server paged it or not. */
export function pageOf(data) {
  if (Array.isArray(data)) return { items: data, page: 1, per_page: data.length, total: data.length };
  const items = (data && Array.isArray(data.items)) ? data.items : [];
  return {
    items,
    page: Number(data && data.page) || 1,
    per_page: Number(data && data.per_page) || items.length || 20,
    total: Number.isFinite(Number(data && data.total)) ? Number(data.total) : items.length,
  };
}

/** A path segment from a value typed or read by the page (an order number, a username). */
export const seg = (value) => encodeURIComponent(String(value));
