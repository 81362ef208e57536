// The dashboard: today's orders and sales, tomorrow's deliveries by slot, low stock. Each panel
// shows only to a role that may read it, and fails on its own (one missing report is one notice).
import { get, pageOf } from './api.js';
import { h, replace, errorBlock, loading, table } from './dom.js';
import { t, label, money, shopDay } from './i18n.js';

export const LOW_STOCK = 5;

function panel(id, title, load) {
  const body = h('div', { class: 'panel-body' }, loading());
  const fill = async () => {
    replace(body, loading());
    try {
      replace(body, await load());
    } catch (error) {
      replace(body, errorBlock(error, fill));
    }
  };
  fill();
  return h('section', { class: 'card panel', id }, h('h2', { class: 'section-title' }, title), body);
}

function stat(id, name, value) {
  return h('div', { class: 'stat', id }, h('span', { class: 'stat-value' }, value), h('span', { class: 'stat-name' }, name));
}

async function sales() {
  const day = shopDay(0);
  const report = await get('/admin/reports/sales', { from: day, to: day }, { feature: true });
  const row = (report && report.total) || (report && Array.isArray(report.items) && report.items[0]) || {};
  return h('div', { class: 'stats' },
    stat('today-orders', t('today_orders'), String(Number(row.orders) || 0)),
    stat('today-sales', t('today_sales'), money(row.paid_cents || 0)),
    stat('today-items', t('today_items'), String(Number(row.items) || 0)),
    stat('today-refunds', t('today_refunds'), money(row.refunded_cents || 0)));
}

/**
 * The deliveries report as rows of {slot, total, statuses: {status: n}}, from any of the shapes a
 * "counts by slot and status" answer may take: a list of {slot, status, count}, a list of slots
 * each with its counts, or an object keyed by slot.
 */
export function deliveriesBySlot(report) {
  const slots = new Map();
  const add = (slot, status, count) => {
    const key = slot || 'any';
    const row = slots.get(key) || { slot: key, total: 0, statuses: {} };
    const n = Number(count) || 0;
    row.total += n;
    if (status) row.statuses[status] = (row.statuses[status] || 0) + n;
    slots.set(key, row);
  };
  const list = report && (report.items || report.slots);
  if (Array.isArray(list)) {
    for (const item of list) {
      const counts = item.counts || item.by_status || item.statuses;
      if (counts && typeof counts === 'object' && !Array.isArray(counts)) {
        for (const [status, n] of Object.entries(counts)) add(item.slot, status, n);
      } else if (Array.isArray(counts)) {
        for (const c of counts) add(item.slot, c.status, c.count);
      } else {
        add(item.slot, item.status, item.count ?? item.orders ?? item.total);
      }
    }
  } else if (report && typeof report.by_slot === 'object') {
    for (const [slot, counts] of Object.entries(report.by_slot)) {
      for (const [status, n] of Object.entries(counts || {})) add(slot, status, n);
    }
  }
  return [...slots.values()];
}

async function deliveries() {
  const report = await get('/admin/reports/deliveries', { date: shopDay(1) }, { feature: true });
  const rows = deliveriesBySlot(report);
  return h('div', null,
    h('p', { class: 'muted small' }, t('deliveries_for', { date: shopDay(1) })),
    table([
      { title: t('slot'), cell: (r) => label('slot', r.slot) },
      { title: t('orders_count'), cell: (r) => String(r.total), cls: 'num' },
      { title: t('by_status'), cell: (r) => Object.entries(r.statuses).map(([s, n]) => `${label('status', s)} ${n}`).join(' · ') },
    ], rows, { empty: t('no_deliveries') }));
}

async function lowStock(ctx) {
  const page = pageOf(await get('/admin/products', { low_stock: LOW_STOCK, per_page: 50 }, { feature: true }));
  const rows = [];
  for (const product of page.items) {
    for (const sku of product.skus || []) {
      if (Number(sku.stock) <= LOW_STOCK) rows.push({ product, sku });
    }
  }
  return table([
    { title: t('product'), cell: (r) => h('a', { href: `#/products/${encodeURIComponent(r.product.code || r.product.title || '')}` }, r.product.title) },
    { title: t('sku'), cell: (r) => r.sku.name || r.sku.code },
    { title: t('stock'), cell: (r) => String(r.sku.stock), cls: 'num' },
  ], rows, { empty: t('no_low_stock'), rowClass: (r) => (Number(r.sku.stock) === 0 ? 'row-warn' : null) });
}

/** The dashboard screen. */
export async function dashboard(ctx) {
  const panels = [];
  if (ctx.may('reports.sales')) panels.push(panel('panel-sales', t('today_title'), sales));
  if (ctx.may('reports.deliveries')) panels.push(panel('panel-deliveries', t('tomorrow_deliveries'), deliveries));
  if (ctx.may('catalog.read')) panels.push(panel('panel-low-stock', t('low_stock_title', { n: LOW_STOCK }), () => lowStock(ctx)));
  return h('div', { class: 'page' },
    h('h1', { class: 'page-title' }, t('menu_dashboard')),
    panels.length ? h('div', { class: 'panels' }, panels) : h('p', { class: 'empty' }, t('nothing_for_role')));
}
