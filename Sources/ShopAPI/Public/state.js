// What the views share: the signed-in user, navigation, the cart badge and remembered choices.
import { t } from './i18n.js';
import { get, getToken, setToken, onUnauthorized } from './api.js';
import { toast } from './dom.js';

export const session = { user: null };

/** Choices kept while moving between tabs (not across reloads). */
export const ui = {
  shop: { q: '', categoryId: null, sort: '', min: '', max: '' },
  ordersStatus: '',
  highlightOrder: null,
  returnTo: null,
  couponCode: '',
};

const sessionListeners = new Set();
export function onSessionChange(listener) { sessionListeners.add(listener); }
function emitSession() { for (const listener of sessionListeners) listener(session.user); }

export function isSignedIn() { return Boolean(getToken()); }

/** Keeps a new token and user (register or sign-in), or forgets both (null). */
export function setSession(token, user) {
  setToken(token);
  session.user = token ? user : null;
  emitSession();
  refreshCartCount();
}

onUnauthorized(() => {
  session.user = null;
  emitSession();
  setCartCount(0);
});

/** Loads the user of a stored token; a token the server refuses is forgotten. */
export async function restoreSession() {
  if (!getToken()) return;
  try {
    session.user = await get('/me');
  } catch {
    session.user = null;
  }
  emitSession();
}

export function currentPath() {
  return (location.hash || '#/shop').slice(1) || '/shop';
}

/** Goes to an in-page route ("/cart"); the same route again renders it anew. */
export function navigate(path) {
  if (currentPath() === path) window.dispatchEvent(new Event('floral:rerender'));
  else location.hash = path;
}

/** True when signed in; otherwise remembers where the person was and opens the sign-in form. */
export function requireSignIn() {
  if (isSignedIn()) return true;
  ui.returnTo = currentPath();
  toast(t('sign_in_first'), 'error');
  navigate('/account');
  return false;
}

export function setCartCount(count) {
  const badge = document.getElementById('cart-badge');
  if (!badge) return;
  const n = Number(count) || 0;
  badge.textContent = n > 99 ? '99+' : String(n);
  badge.hidden = n === 0;
}

export async function refreshCartCount() {
  if (!isSignedIn()) { setCartCount(0); return; }
  try {
    const cart = await get('/cart');
    setCartCount(cart.total_quantity);
  } catch {
    // The badge is a nicety; the cart page shows any real error.
  }
}
