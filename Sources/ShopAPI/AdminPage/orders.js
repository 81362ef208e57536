// Orders: the list with its filters (status, delivery day, placed from/to, a search by number,
// phone or recipient), newest first; a row opens the order (order-detail.js).
import { get, pageOf } from './api.js';
import { h, replace, errorBlock, loading, pager, select, table, badge } from './dom.js';
import { t, label, money, dateTime } from './i18n.js';

export const ORDER_STATUSES = ['pending_payment', 'paid', 'shipped', 'delivered', 'completed', 'cancelled', 'refunding', 'refunded'];

export function statusBadge(status) {
  const kind = { paid: 'warn', shipped: 'info', delivered: 'ok', completed: 'ok', cancelled: 'muted', refunding: 'danger', refunded: 'muted' }[status] || '';
  return badge(label('status', status), kind);
}

/** "Wed 12/03 上午" for an order's delivery day and slot. */
export function deliveryText(order) {
  if (!order.delivery_date) return '';
  return [order.delivery_date, order.delivery_slot ? label('slot', order.delivery_slot) : ''].filter(Boolean).join(' ');
}

function recipient(order) {
  const a = order.address || {};
  return [a.recipient || order.recipient, a.phone || order.recipient_phone].filter(Boolean).join(' ');
}

// The filters stay while the operator goes into an order and back.
const state = { status: '', delivery_date: '', from: '', to: '', q: '', page: 1 };

/** The orders screen. */
export async function orders(ctx) {
  const list = h('div', { class: 'list', id: 'order-list' });
  const status = select({ id: 'order-status', 'aria-label': t('status') },
    [['', t('all_statuses')], ...ORDER_STATUSES.map((s) => [s, label('status', s)])], state.status);
  const delivery = h('input', { type: 'date', id: 'order-delivery-date', value: state.delivery_date, 'aria-label': t('delivery_date') });
  const from = h('input', { type: 'date', id: 'order-from', value: state.from, 'aria-label': t('placed_from') });
  const to = h('input', { type: 'date', id: 'order-to', value: state.to, 'aria-label': t('placed_to') });
  const q = h('input', { type: 'search', id: 'order-q', value: state.q, placeholder: t('order_search_placeholder') });
  const load = async () => {
    replace(list, loading());
    try {
      const page = pageOf(await get('/admin/orders', { ...state, per_page: 20 }, { feature: true }));
      if (!ctx.alive()) return;
      replace(list, table([
        { title: t('order_number'), cell: (o) => h('a', { href: `#/orders/${encodeURIComponent(o.number)}`, class: 'order-link' }, o.number) },
        { title: t('placed_at'), cell: (o) => dateTime(o.created_at) },
        { title: t('status'), cell: (o) => statusBadge(o.status) },
        { title: t('total'), cell: (o) => money(o.total_cents), cls: 'num' },
        { title: t('recipient'), cell: recipient },
        { title: t('delivery'), cell: deliveryText },
      ], page.items, { empty: t('no_orders') }), pager(page, (n) => { state.page = n; load(); }));
    } catch (error) {
      replace(list, errorBlock(error, load));
    }
  };
  const apply = (event) => {
    event.preventDefault();
    Object.assign(state, { status: status.value, delivery_date: delivery.value, from: from.value, to: to.value, q: q.value.trim(), page: 1 });
    load();
  };
  const reset = () => {
    Object.assign(state, { status: '', delivery_date: '', from: '', to: '', q: '', page: 1 });
    ctx.redraw();
  };
  load();
  return h('div', { class: 'page' },
    h('h1', { class: 'page-title' }, t('menu_orders')),
    h('form', { class: 'filters', role: 'search', onSubmit: apply },
      q, status,
      h('label', { class: 'inline-field' }, t('delivery_date'), delivery),
      h('label', { class: 'inline-field' }, t('placed_from'), from),
      h('label', { class: 'inline-field' }, t('placed_to'), to),
      h('button', { class: 'btn primary', type: 'submit', id: 'order-search' }, t('search')),
      h('button', { class: 'btn ghost', type: 'button', onClick: reset }, t('reset'))),
    list);
}
