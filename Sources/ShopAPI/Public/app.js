// Floral storefront: a hash-routed page over the public API, in plain JavaScript modules.
import { t, lang, locale } from './i18n.js';
import { h, replace } from './dom.js';
import { onSessionChange, restoreSession, refreshCartCount, currentPath } from './state.js';
import { renderShop, renderProduct, renderFavorites } from './shop.js';
import { renderAccount } from './account.js';
import { renderCart, renderCheckout } from './cart.js';
import { renderAddresses } from './addresses.js';
import { renderOrders } from './orders.js';
import { renderColumn, renderAuthor, renderArticle } from './column.js';

const routes = [
  { pattern: /^\/shop$/, tab: 'shop', render: renderShop },
  { pattern: /^\/product\/(\d+)$/, tab: 'shop', render: renderProduct },
  { pattern: /^\/column(?:\/(authors|feed|top|articles))?$/, tab: 'column', render: renderColumn },
  { pattern: /^\/author\/(\d+)$/, tab: 'column', render: renderAuthor },
  { pattern: /^\/article\/(\d+)$/, tab: 'column', render: renderArticle },
  { pattern: /^\/cart$/, tab: 'cart', render: renderCart },
  { pattern: /^\/checkout$/, tab: 'cart', render: renderCheckout },
  { pattern: /^\/addresses$/, tab: 'addresses', render: renderAddresses },
  { pattern: /^\/orders$/, tab: 'orders', render: renderOrders },
  { pattern: /^\/account$/, tab: 'account', render: renderAccount },
  { pattern: /^\/favorites$/, tab: 'account', render: renderFavorites },
];

// 24×24 line icons for the tab bar.
const ICONS = {
  shop: [['circle', { cx: 12, cy: 7, r: 3.2 }], ['circle', { cx: 7.2, cy: 10.6, r: 3.2 }], ['circle', { cx: 16.8, cy: 10.6, r: 3.2 }],
    ['circle', { cx: 9, cy: 16, r: 3.2 }], ['circle', { cx: 15, cy: 16, r: 3.2 }], ['circle', { cx: 12, cy: 11.8, r: 1.6 }]],
  column: [['path', { d: 'M4 5h5.5A2.5 2.5 0 0 1 12 7.5V20a2 2 0 0 0-2-2H4z' }], ['path', { d: 'M20 5h-5.5A2.5 2.5 0 0 0 12 7.5V20a2 2 0 0 1 2-2h6z' }]],
  cart: [['path', { d: 'M3 4h2.2l2.3 11h10.3L20.5 8H6.3' }], ['circle', { cx: 9.5, cy: 19, r: 1.4 }], ['circle', { cx: 16.5, cy: 19, r: 1.4 }]],
  orders: [['path', { d: 'M6 3h12v18l-3-2-3 2-3-2-3 2z' }], ['path', { d: 'M9 8h6M9 12h6M9 16h3' }]],
  addresses: [['path', { d: 'M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z' }], ['circle', { cx: 12, cy: 9.5, r: 2.5 }]],
  account: [['circle', { cx: 12, cy: 8, r: 4 }], ['path', { d: 'M4 21c0-4 3.6-7 8-7s8 3 8 7' }]],
};

function icon(name) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'tab-icon');
  for (const [tag, attrs] of ICONS[name]) {
    const shape = document.createElementNS(ns, tag);
    for (const [key, value] of Object.entries(attrs)) shape.setAttribute(key, String(value));
    svg.appendChild(shape);
  }
  return svg;
}

const TABS = [
  ['shop', '/shop'], ['column', '/column'], ['cart', '/cart'], ['orders', '/orders'], ['addresses', '/addresses'], ['account', '/account'],
];

function buildChrome() {
  document.documentElement.lang = locale;
  document.title = t('brand');
  replace(document.getElementById('brand-name'), t('brand'));
  replace(document.getElementById('brand-tagline'), t('tagline'));
  const nav = document.getElementById('tabbar');
  nav.setAttribute('aria-label', t('brand'));
  replace(nav, TABS.map(([name, path]) => h('a', { class: 'tab', href: '#' + path, id: 'tab-' + name, dataset: { tab: name } },
    icon(name),
    h('span', { class: 'tab-label' }, t('tab_' + name)),
    name === 'cart' ? h('span', { class: 'badge', id: 'cart-badge', hidden: true }, '0') : null)));
}

function showUser(user) {
  const box = document.getElementById('topbar-user');
  if (!box) return;
  replace(box, user ? h('a', { href: '#/account', class: 'topbar-chip' }, user.nickname || user.phone) : null);
}

let renderCount = 0;

function route() {
  const [path, queryText] = currentPath().split('?');
  const query = new URLSearchParams(queryText || '');
  const match = routes.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m);
  if (!match) { location.replace('#/shop'); return; }
  for (const tab of document.querySelectorAll('.tab')) {
    const active = tab.dataset.tab === match.r.tab;
    tab.classList.toggle('active', active);
    if (active) tab.setAttribute('aria-current', 'page'); else tab.removeAttribute('aria-current');
  }
  const root = document.getElementById('view');
  const page = h('section', { class: `page page-${match.r.tab}`, dataset: { render: String(++renderCount) } });
  replace(root, page);
  window.scrollTo(0, 0);
  match.r.render(page, match.m.slice(1), query);
}

async function start() {
  buildChrome();
  document.body.classList.add('lang-' + lang);
  onSessionChange(showUser);
  window.addEventListener('hashchange', route);
  window.addEventListener('floral:rerender', route);
  await restoreSession();
  refreshCartCount();
  if (!location.hash) location.replace('#/shop');
  route();
  document.body.classList.add('ready');
}

start();

