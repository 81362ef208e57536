// The operators' desk: sign-in, the shell (top bar, side menu), and the hash routes to each screen.
// Menu entries follow the staff member's permissions from /admin/me; the server checks them again.
import { get, post, getToken, setToken, whenSignedOut } from './api.js';
import { h, replace, field, showError, toast, loading, errorBlock } from './dom.js';
import { lang, setLang, t, label } from './i18n.js';
import { dashboard } from './dashboard.js';
import { products } from './products.js';
import { orders } from './orders.js';
import { orderDetail } from './order-detail.js';
import { afterSales, coupons } from './service.js';
import { buyers, comments } from './people.js';
import { staff, audit } from './staff.js';

/** Each screen: its hash, the permission its menu entry needs (any of them), and how it draws. */
const SCREENS = [
  { id: 'dashboard', needs: [], draw: dashboard },
  { id: 'products', needs: ['catalog.read'], draw: products },
  { id: 'orders', needs: ['orders.read'], draw: orders },
  { id: 'after-sales', needs: ['after_sale'], draw: afterSales },
  { id: 'coupons', needs: ['coupons'], draw: coupons },
  { id: 'buyers', needs: ['users.read'], draw: buyers },
  { id: 'comments', needs: ['moderation'], draw: comments },
  { id: 'staff', needs: ['staff'], draw: staff },
  { id: 'audit', needs: ['audit'], draw: audit },
];

const root = document.getElementById('root');
let me = null;
let drawing = 0;

function may(permission) {
  return !!me && Array.isArray(me.permissions) && me.permissions.includes(permission);
}

function allowed(screen) {
  return screen.needs.length === 0 || screen.needs.some(may);
}

function langSwitch() {
  return h('button', { class: 'btn ghost small lang-switch', type: 'button', id: 'lang-switch',
    title: lang === 'zh' ? 'English' : '中文',
    onClick: () => { setLang(lang === 'zh' ? 'en' : 'zh'); document.title = t('page_title'); start(); } },
  lang === 'zh' ? 'EN' : '中文');
}

function brand() {
  return h('a', { class: 'brand', href: '#/dashboard' },
    h('span', { class: 'brand-mark', 'aria-hidden': 'true' }),
    h('span', { class: 'brand-text' }, h('span', { class: 'brand-name' }, t('brand')),
      h('span', { class: 'brand-tagline' }, t('desk'))));
}

// ---- sign-in -------------------------------------------------------------------------------

function showLogin(message) {
  me = null;
  document.body.classList.remove('signed-in');
  const username = h('input', { id: 'login-username', name: 'username', autocomplete: 'username', required: true, maxlength: '32' });
  const password = h('input', { id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const error = h('p', { class: 'form-error', id: 'login-error', role: 'alert' }, message || '');
  const submit = h('button', { class: 'btn primary block', type: 'submit', id: 'login-submit' }, t('sign_in'));
  const form = h('form', { class: 'login card', id: 'login-form', novalidate: true, onSubmit: async (event) => {
    event.preventDefault();
    error.textContent = '';
    if (!username.value.trim() || !password.value) { error.textContent = t('login_missing'); return; }
    submit.disabled = true;
    try {
      const session = await post('/admin/auth/login', { username: username.value.trim(), password: password.value });
      setToken(session && session.token);
      password.value = '';
      await start();
    } catch (failure) {
      error.textContent = failure.message;
    } finally {
      if (submit.isConnected) submit.disabled = false;
    }
  } },
  h('h1', { class: 'login-title' }, t('sign_in_title')),
  field(t('username'), username), field(t('password'), password), error, submit);
  replace(root, h('div', { class: 'login-page' }, h('div', { class: 'login-top' }, brand(), langSwitch()), form));
  username.focus();
}

whenSignedOut(() => showLogin(t('session_ended')));

async function signOut() {
  try { await post('/admin/auth/logout'); } catch { /* the token is dropped either way */ }
  setToken(null);
  window.location.hash = '#/dashboard';
  showLogin(t('signed_out'));
}

// ---- the shell -----------------------------------------------------------------------------

function shell() {
  document.body.classList.add('signed-in');
  const menu = h('nav', { class: 'side-menu', id: 'side-menu', 'aria-label': t('menu') },
    h('span', { class: 'menu-who' }, me.username, ' · ', label('role', me.role)),
    SCREENS.filter(allowed).map((screen) => h('a', { class: 'menu-item', id: `nav-${screen.id}`, href: `#/${screen.id}`,
      onClick: () => document.body.classList.remove('menu-open') }, t(`menu_${screen.id}`))));
  const toggle = h('button', { class: 'btn ghost menu-toggle', type: 'button', id: 'menu-toggle', 'aria-controls': 'side-menu',
    'aria-label': t('menu'), onClick: () => document.body.classList.toggle('menu-open') }, '☰');
  const who = h('span', { class: 'who', id: 'who' }, me.username, ' · ', label('role', me.role));
  const out = h('button', { class: 'btn ghost small', type: 'button', id: 'sign-out', onClick: signOut }, t('sign_out'));
  const view = h('main', { class: 'view', id: 'view', tabindex: '-1' });
  const scrim = h('div', { class: 'scrim', onClick: () => document.body.classList.remove('menu-open') });
  replace(root, h('header', { class: 'topbar' }, toggle, brand(), h('span', { class: 'grow' }), who, langSwitch(), out),
    h('div', { class: 'layout' }, menu, scrim, view));
}

function route() {
  const [, name = 'dashboard', ...rest] = (window.location.hash || '#/dashboard').split('/');
  return { name, args: rest.map((part) => decodeURIComponent(part)) };
}

async function draw() {
  if (!me) return;
  const view = document.getElementById('view');
  if (!view) return;
  const { name, args } = route();
  const screen = SCREENS.find((s) => s.id === name) || SCREENS[0];
  for (const item of document.querySelectorAll('.menu-item')) item.classList.toggle('active', item.id === `nav-${screen.id}`);
  const mine = ++drawing;
  const ctx = {
    me, may, args,
    alive: () => mine === drawing && view.isConnected,
    redraw: () => draw(),
  };
  replace(view, loading());
  if (!allowed(screen)) {
    replace(view, h('div', { class: 'notice' }, t('no_permission')));
    return;
  }
  try {
    const drawer = screen.id === 'orders' && args.length ? orderDetail : screen.draw;
    const page = await drawer(ctx);
    if (ctx.alive()) replace(view, page);
  } catch (error) {
    if (ctx.alive()) replace(view, errorBlock(error, () => draw()));
  }
  document.body.classList.add('ready');
}

/** Signs in from the stored token (or shows the sign-in form) and draws the current screen. */
async function start() {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('page_title');
  if (!getToken()) { showLogin(); document.body.classList.add('ready'); return; }
  replace(root, loading());
  try {
    me = await get('/admin/me');
  } catch (error) {
    if (!getToken()) { document.body.classList.add('ready'); return; }   // refused: the sign-in form is up
    replace(root, h('div', { class: 'login-page' }, errorBlock(error, start)));
    showError(error);
    return;
  }
  shell();
  await draw();
  if (sessionStorage.getItem('floral.admin.welcome') !== me.username) {
    sessionStorage.setItem('floral.admin.welcome', me.username);
    toast(t('welcome', { name: me.username }));
  }
}

window.addEventListener('hashchange', () => draw());
start();
