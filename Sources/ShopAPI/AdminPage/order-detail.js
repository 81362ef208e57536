// One order: what was bought, for whom and when, a timeline of its payments, refunds, after-sale
// and notes, and the buttons the role may use: ship, deliver (with a photo), cancel, refund, note.
// Destructive ones ask first; the server decides whether the order's state allows it (409 shown).
import { get, post, seg, uploadPicture } from './api.js';
import { h, dialog, confirmAction, field, invalid, toast, thumb, table } from './dom.js';
import { t, label, money, dateTime, toDate, yuanToCents } from './i18n.js';
import { statusBadge, deliveryText } from './orders.js';

const PICTURE_TYPES = 'image/jpeg,image/png,image/webp';

function list(value) { return Array.isArray(value) ? value : []; }

function who(entry) {
  const by = entry.staff || entry.author || entry.by || entry.actor || entry.created_by;
  return typeof by === 'object' && by ? by.username || by.name || '' : by || '';
}

/** Every dated event of the order, oldest first. */
export function timeline(order) {
  const events = [];
  const add = (at, kind, text, extra) => { if (toDate(at)) events.push({ at, kind, text, extra }); };
  add(order.created_at, 'placed', t('ev_placed'));
  add(order.paid_at, 'paid', t('ev_paid'));
  for (const p of list(order.payments)) {
    add(p.paid_at || p.created_at || p.at, 'payment', t('ev_payment', { provider: p.provider || '', status: label('pay_status', p.status),
      amount: money(p.amount_cents ?? order.total_cents) }), p.transaction_id || p.provider_trade_no || '');
  }
  const shipment = order.shipment ? [order.shipment.carrier, order.shipment.tracking_number].filter(Boolean).join(' ') : '';
  add(order.shipped_at, 'shipped', t('ev_shipped'), shipment || t('own_courier'));
  add(order.delivered_at, 'delivered', t('ev_delivered'), order.delivery_photo_url ? thumb(order.delivery_photo_url, t('delivery_photo')) : null);
  add(order.completed_at, 'completed', t('ev_completed'));
  add(order.cancelled_at, 'cancelled', t('ev_cancelled'));
  for (const r of list(order.refunds)) {
    add(r.refunded_at || r.created_at || r.at, 'refund', t('ev_refund', { amount: money(r.amount_cents), status: label('refund_status', r.status) }),
      [r.reason, who(r)].filter(Boolean).join(' · '));
  }
  const afterSales = order.after_sales || (order.after_sale ? [order.after_sale] : []);
  for (const a of list(afterSales)) {
    const photos = list(a.photo_urls).map((u) => thumb(String(u).replace(/-1280\.jpg$/, '-480.jpg'), t('after_sale_photo')));
    add(a.created_at, 'after_sale', t('ev_after_sale', { kind: label('as_kind', a.kind) }),
      h('span', null, a.amount_cents ? `${money(a.amount_cents)} · ` : '', a.reason || '', photos.length ? h('span', { class: 'pictures' }, photos) : null));
    const made = a.redelivery_order ? h('a', { href: `#/orders/${encodeURIComponent(a.redelivery_order.number)}` },
      t('redelivery_order', { n: a.redelivery_order.number })) : a.refund_number ? t('refund_no', { n: a.refund_number }) : '';
    add(a.decided_at, 'after_sale', t('ev_after_sale_decided', { status: label('as_status', a.status) }),
      h('span', null, [a.decision_note, a.decided_by].filter(Boolean).join(' · '), made ? ' ' : '', made));
  }
  for (const n of list(order.notes)) add(n.created_at || n.at, 'note', t('ev_note', { who: who(n) || '—' }), n.text);
  return events.sort((a, b) => toDate(a.at) - toDate(b.at));
}

function paidCents(order) {
  return Number(order.paid_cents ?? (order.paid_at ? order.total_cents : 0)) || 0;
}

/**
 * What may still go back, counted as the server counts it: the payment less every refund opened on
 * it, those still on their way included (`refunded_cents` is only what the provider confirmed).
 */
function refundable(order) {
  const opened = list(order.refunds).reduce((sum, r) => sum + (Number(r.amount_cents) || 0), 0);
  return Math.max(0, paidCents(order) - Math.max(opened, Number(order.refunded_cents) || 0));
}

function act(order, path, body, done, ctx) {
  return async () => {
    await post(`/admin/orders/${seg(order.number)}/${path}`, body());
    toast(done);
    ctx.redraw();
  };
}

function actions(order, ctx) {
  const buttons = [];
  const button = (id, text, onClick, cls = 'btn') => buttons.push(h('button', { class: cls, type: 'button', id, onClick }, text));
  if (ctx.may('orders.fulfil') && order.status === 'paid') {
    const carrier = h('input', { id: 'ship-carrier', maxlength: '40', placeholder: t('own_courier') });
    const tracking = h('input', { id: 'ship-tracking', maxlength: '64' });
    button('order-ship', t('ship'), () => dialog({ title: t('ship_title', { n: order.number }), submit: t('ship'),
      body: [field(t('carrier'), carrier, t('carrier_hint')), field(t('tracking_number'), tracking)],
      onSubmit: act(order, 'ship', () => {
        const body = {};
        if (carrier.value.trim()) body.carrier = carrier.value.trim();
        if (tracking.value.trim()) body.tracking_number = tracking.value.trim();
        return body;
      }, t('shipped_done'), ctx) }), 'btn primary');
  }
  if (ctx.may('orders.fulfil') && order.status === 'shipped') {
    const photo = h('input', { type: 'file', id: 'deliver-photo', accept: PICTURE_TYPES });
    button('order-deliver', t('deliver'), () => dialog({ title: t('deliver_title', { n: order.number }), submit: t('deliver'),
      body: field(t('delivery_photo'), photo, t('delivery_photo_hint')),
      onSubmit: async () => {
        const file = photo.files && photo.files[0];
        const body = file ? { photo_url: (await uploadPicture(file)).url } : {};
        await act(order, 'deliver', () => body, t('delivered_done'), ctx)();
      } }), 'btn primary');
  }
  if (ctx.may('orders.refund') && (order.status === 'pending_payment' || order.status === 'paid')) {
    const reason = h('textarea', { id: 'cancel-reason', maxlength: '200', rows: '2' });
    button('order-cancel', t('cancel_order'), () => dialog({ title: t('cancel_title', { n: order.number }), submit: t('cancel_order'), danger: true,
      body: [h('p', { class: 'confirm-text' }, order.status === 'paid' ? t('cancel_paid_warning', { amount: money(paidCents(order)) }) : t('cancel_unpaid_warning')),
        field(t('reason'), reason)],
      onSubmit: () => {
        if (!reason.value.trim()) throw invalid(t('reason_required'));
        return act(order, 'cancel', () => ({ reason: reason.value.trim() }), t('cancelled_done'), ctx)();
      } }), 'btn danger-ghost');
  }
  const left = refundable(order);
  if (ctx.may('orders.refund') && ['paid', 'shipped', 'delivered', 'completed'].includes(order.status) && left > 0) {
    const amount = h('input', { id: 'refund-amount', inputmode: 'decimal', placeholder: (left / 100).toFixed(2) });
    const reason = h('textarea', { id: 'refund-reason', maxlength: '200', rows: '2' });
    button('order-refund', t('refund'), () => dialog({ title: t('refund_title', { n: order.number }), submit: t('refund'), danger: true,
      body: [h('p', { class: 'muted' }, t('refundable', { amount: money(left) })), field(t('refund_amount'), amount), field(t('reason'), reason)],
      onSubmit: async () => {
        const cents = yuanToCents(amount.value);
        if (cents === null || cents <= 0) throw invalid(t('amount_invalid'));
        if (cents > left) throw invalid(t('refund_too_much', { amount: money(left) }));
        if (!reason.value.trim()) throw invalid(t('reason_required'));
        // The refund dialog closes only once this second question is answered yes and the refund is made.
        const sure = await confirmAction(t('refund_confirm', { amount: money(cents), n: order.number }),
          act(order, 'refund', () => ({ amount_cents: cents, reason: reason.value.trim() }), t('refunded_done'), ctx));
        if (!sure) throw invalid(t('not_refunded'));
      } }), 'btn danger-ghost');
  }
  if (ctx.may('orders.note')) {
    const text = h('textarea', { id: 'note-text', maxlength: '500', rows: '3' });
    button('order-note', t('add_note'), () => dialog({ title: t('add_note'), submit: t('save'), body: field(t('note'), text),
      onSubmit: () => {
        if (!text.value.trim()) throw invalid(t('note_required'));
        return act(order, 'notes', () => ({ text: text.value.trim() }), t('note_added'), ctx)();
      } }));
  }
  return h('div', { class: 'actions', id: 'order-actions' }, buttons);
}

function facts(order) {
  const a = order.address || {};
  const rows = [
    [t('status'), statusBadge(order.status)],
    [t('placed_at'), dateTime(order.created_at)],
    [t('buyer'), [order.buyer_phone || (order.buyer && order.buyer.phone), order.buyer && order.buyer.nickname].filter(Boolean).join(' ')],
    [t('recipient'), [a.recipient, a.phone].filter(Boolean).join(' ')],
    [t('address'), [a.province, a.city, a.district, a.detail].filter(Boolean).join(' ')],
    [t('delivery'), deliveryText(order)],
    [t('card'), [order.card_message, order.card_signature].filter(Boolean).join(' — ')],
    [t('buyer_note'), order.note],
    [t('total'), money(order.total_cents)],
    [t('refunded'), order.refunded_cents ? money(order.refunded_cents) : ''],
    [t('redelivery_of'), order.redelivery_of ? h('a', { href: `#/orders/${encodeURIComponent(order.redelivery_of.number)}` }, order.redelivery_of.number) : ''],
  ].filter(([, value]) => value !== undefined && value !== null && value !== '');
  return h('dl', { class: 'facts' }, rows.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}

/** The order screen (`#/orders/NUMBER`). */
export async function orderDetail(ctx) {
  const number = ctx.args[0];
  const order = await get(`/admin/orders/${seg(number)}`);
  const events = timeline(order);
  return h('div', { class: 'page', id: 'order-detail', dataset: { status: order.status } },
    h('div', { class: 'page-title' }, h('h1', null, t('order_title', { n: order.number })),
      h('a', { class: 'btn ghost small', href: '#/orders' }, t('back'))),
    actions(order, ctx),
    h('div', { class: 'two-columns' },
      h('section', { class: 'card' }, h('h2', { class: 'section-title' }, t('order_facts')), facts(order),
        table([
          { title: t('product'), cell: (i) => `${i.title || ''} · ${i.sku_name || ''}` },
          { title: t('price'), cell: (i) => money(i.price_cents), cls: 'num' },
          { title: t('quantity'), cell: (i) => String(i.quantity), cls: 'num' },
        ], list(order.items))),
      h('section', { class: 'card' }, h('h2', { class: 'section-title' }, t('timeline')),
        h('ol', { class: 'timeline', id: 'order-timeline' }, events.map((e) => h('li', { class: `event ev-${e.kind}` },
          h('span', { class: 'event-time' }, dateTime(e.at)),
          h('span', { class: 'event-text' }, e.text),
          e.extra ? h('span', { class: 'event-extra' }, e.extra) : null))))));
}
