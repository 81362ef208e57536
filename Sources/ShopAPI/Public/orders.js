// 订单: the order list by status, cancel, confirm receipt, and — in development only — paying
// with mockpay through the server's simulate-payment route (the page never holds the secret).
import { t, money, dateTime } from './i18n.js';
import { get, post, isDevelopment } from './api.js';
import { h, replace, toast, busy, loadingBlock, emptyBlock, errorBlock, showError } from './dom.js';
import { ui, isSignedIn } from './state.js';
import { payButtons, returnedOrder, watchReturn } from './pay.js';

const STATUSES = ['', 'pending_payment', 'paid', 'shipped', 'delivered', 'completed', 'cancelled'];
const PER_PAGE = 10;

export function renderOrders(page, _params, query) {
  page.append(h('h1', { class: 'page-title' }, t('orders_title')));
  if (!isSignedIn()) {
    page.append(emptyBlock(t('sign_in_to_see'), h('a', { class: 'btn primary', href: '#/account', onClick: () => { ui.returnTo = '/orders'; } }, t('sign_in'))));
    return;
  }
  const chips = h('div', { class: 'chips scroll-x', id: 'order-status', role: 'tablist' });
  const hint = h('p', { class: 'dev-hint', id: 'dev-hint', hidden: true }, t('dev_hint'));
  const list = h('div', { id: 'order-list' }, loadingBlock());
  const more = h('button', { class: 'btn ghost wide', type: 'button', id: 'orders-more', hidden: true }, t('load_more'));
  page.append(chips, hint, list, more);

  let dev = false;
  const returned = returnedOrder(query);
  let pageNo = 1;
  let seq = 0;

  function fillChips() {
    replace(chips, STATUSES.map((s) => h('button', {
      class: 'chip' + (ui.ordersStatus === s ? ' active' : ''), type: 'button', role: 'tab', dataset: { status: s || 'all' },
      'aria-selected': String(ui.ordersStatus === s),
      onClick: () => { ui.ordersStatus = s; fillChips(); load(true); },
    }, t('status_' + (s || 'all')))));
  }

  function card(o) {
    const actions = [];
    if (o.status === 'pending_payment') {
      const cancel = h('button', { class: 'btn ghost small', type: 'button', dataset: { action: 'cancel' } }, t('cancel_order'));
      cancel.addEventListener('click', () => busy(cancel, async () => {
        await post(`/orders/${o.id}/cancel`);
        toast(t('order_cancelled'));
        await refresh(o.id);
      }));
      actions.push(cancel);
      if (dev) {
        const pay = h('button', { class: 'btn primary small', type: 'button', dataset: { action: 'pay' } }, t('pay_mockpay'));
        pay.addEventListener('click', () => busy(pay, async () => {
          await post(`/orders/${o.id}/payments`, { provider: 'mockpay' });
          const result = await post(`/dev/orders/${o.id}/simulate-payment`, { status: 'succeeded' });
          if (result.order_status === 'paid') toast(t('paid_ok'));
          else toast(t('pay_failed', { s: t('status_' + result.order_status) }), 'error');
          await refresh(o.id);
        }));
        actions.push(pay);
      }
      actions.push(...payButtons(o, () => refresh(o.id)));
    }
    if (o.status === 'shipped' || o.status === 'delivered') {
      const confirm = h('button', { class: 'btn primary small', type: 'button', dataset: { action: 'confirm' } }, t('confirm_receipt'));
      confirm.addEventListener('click', () => busy(confirm, async () => {
        await post(`/orders/${o.id}/confirm-receipt`);
        toast(t('received_ok'));
        await refresh(o.id);
      }));
      actions.push(confirm);
    }
    const a = o.address || {};
    return h('article', {
      class: 'card order-card' + (ui.highlightOrder === o.id ? ' highlight' : ''),
      dataset: { orderId: o.id, orderNumber: o.number, status: o.status },
    },
      h('div', { class: 'order-head' },
        h('span', { class: 'order-number muted small' }, t('order_number', { n: o.number })),
        h('span', { class: `status status-${o.status}` }, t('status_' + o.status))),
      o.items.map((i) => h('div', { class: 'order-item' },
        h('span', { class: 'grow' }, i.title, h('span', { class: 'muted small' }, ' · ' + i.sku_name)),
        h('span', { class: 'nowrap muted' }, `${money(i.price_cents)} × ${i.quantity}`))),
      h('p', { class: 'muted small' }, `${a.recipient || ''} ${a.phone || ''} · ${a.province || ''}${a.city || ''}${a.district || ''} ${a.detail || ''}`),
      o.delivery_date ? h('p', { class: 'small delivery-line' },
        t('delivery_on', { d: o.delivery_date, s: o.delivery_slot ? t('slot_' + o.delivery_slot) : t('slot_any') })) : null,
      o.card_message ? h('p', { class: 'small card-line' },
        t('card_line', { m: o.card_message, s: o.card_signature ? ' — ' + o.card_signature : '' })) : null,
      o.note ? h('p', { class: 'muted small' }, '“' + o.note + '”') : null,
      o.coupon ? h('p', { class: 'small order-coupon' }, `${t('coupon_discount')} ${o.coupon.code} · ${o.coupon.description} -${money(o.discount_cents)}`) : null,
      o.shipment ? h('p', { class: 'small' }, t('shipment', { c: o.shipment.carrier, n: o.shipment.tracking_number })) : null,
      o.delivery_photo_url ? h('img', { class: 'delivery-photo', src: o.delivery_photo_url, alt: t('status_delivered'), loading: 'lazy' }) : null,
      h('div', { class: 'order-foot' },
        h('span', { class: 'muted small' },
          o.status === 'pending_payment' && o.pay_deadline ? t('pay_before', { t: dateTime(o.pay_deadline) }) : `${t('created_at')} ${dateTime(o.created_at)}`),
        h('span', null, t('total') + ' ', h('strong', { class: 'price' }, money(o.total_cents)))),
      actions.length ? h('div', { class: 'order-actions' }, actions) : null);
  }

  /** Re-reads one order in place (its status changed). */
  async function refresh(id) {
    ui.highlightOrder = id;
    try {
      const order = await get(`/orders/${id}`);
      const old = list.querySelector(`[data-order-id="${id}"]`);
      if (!old) return;
      if (ui.ordersStatus && order.status !== ui.ordersStatus) old.classList.add('leaving');
      old.replaceWith(card(order));
    } catch (error) {
      showError(error);
    }
  }

  async function load(reset) {
    const mine = ++seq;
    if (reset) { pageNo = 1; replace(list, loadingBlock()); more.hidden = true; }
    try {
      const result = await get('/orders', { status: ui.ordersStatus || null, page: pageNo, per_page: PER_PAGE });
      if (mine !== seq) return;
      if (reset) replace(list);
      list.append(...result.items.map(card));
      if (result.total === 0) replace(list, emptyBlock(t('no_orders'), h('a', { class: 'btn primary', href: '#/shop' }, t('go_shopping'))));
      more.hidden = pageNo * PER_PAGE >= result.total;
    } catch (error) {
      if (mine !== seq) return;
      if (reset) replace(list, errorBlock(error, () => load(true))); else showError(error);
    }
  }
  more.addEventListener('click', () => busy(more, async () => { pageNo += 1; await load(false); }));

  fillChips();
  isDevelopment().then((yes) => {
    dev = yes;
    hint.hidden = !yes;
    load(true).then(() => { if (returned) watchReturn(returned, () => refresh(returned)); });
  });
}
