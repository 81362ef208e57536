// 订单: the order list in tabs that hold every status, cancel and refund (each confirmed in the
// page), confirm receipt, 申请售后 with photos, and — in development only — paying with mockpay
// through the server's simulate-payment route (the page never holds the secret). The production
// pay buttons (Alipay, WeChat Pay, by device) come from pay.js.
import { t, money, dateTime, yuanToCents } from './i18n.js';
import { get, post, isDevelopment, uploadImage } from './api.js';
import { h, replace, picture, toast, busy, loadingBlock, emptyBlock, errorBlock, showError } from './dom.js';
import { confirmDialog } from './dialog.js';
import { ui, isSignedIn } from './state.js';
import { payButtons, returnedOrder, watchReturn } from './pay.js';

/** The tabs: a name (its label `tab_orders_<name>`) and the statuses it lists (none: every one). */
const TABS = [
  ['all', []], ['pending_payment', ['pending_payment']], ['paid', ['paid']], ['shipped', ['shipped']],
  ['delivered', ['delivered']], ['completed', ['completed']], ['refund', ['refunding', 'refunded']], ['cancelled', ['cancelled']],
];
const PER_PAGE = 10;
/** Statuses after which the buyer may ask for 售后 (the server says when the window has closed). */
const AFTER_SALE_STATUSES = ['shipped', 'delivered', 'completed'];
const MAX_PHOTOS = 6;
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

function tabOf(name) {
  return TABS.find(([tab]) => tab === name) || TABS[0];
}

export function renderOrders(page, _params, query) {
  page.append(h('h1', { class: 'page-title' }, t('orders_title')));
  if (!isSignedIn()) {
    page.append(emptyBlock(t('sign_in_to_see'), h('a', { class: 'btn primary', href: '#/account', onClick: () => { ui.returnTo = '/orders'; } }, t('sign_in'))));
    return;
  }
  if (!TABS.some(([tab]) => tab === ui.ordersStatus)) ui.ordersStatus = '';
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
    const current = ui.ordersStatus || 'all';
    replace(chips, TABS.map(([tab]) => h('button', {
      class: 'chip' + (current === tab ? ' active' : ''), type: 'button', role: 'tab', dataset: { status: tab },
      'aria-selected': String(current === tab),
      onClick: () => { ui.ordersStatus = tab === 'all' ? '' : tab; fillChips(); load(true); },
    }, t('tab_orders_' + tab))));
  }

  /** A button that asks first, then runs `work`. */
  function confirmed(button, question, work) {
    button.addEventListener('click', async () => {
      if (!(await confirmDialog(question))) return;
      await busy(button, work);
    });
    return button;
  }

  function card(o) {
    const actions = [];
    const refundable = Math.max(0, o.total_cents - (o.refunded_cents || 0));
    if (o.status === 'pending_payment') {
      actions.push(confirmed(h('button', { class: 'btn ghost small', type: 'button', dataset: { action: 'cancel' } }, t('cancel_order')),
        { title: t('cancel_confirm_title'), text: t('cancel_confirm_text'), yes: t('cancel_confirm_yes'), no: t('keep_order'), danger: true },
        async () => {
          await post(`/orders/${o.id}/cancel`);
          toast(t('order_cancelled'));
          await refresh(o.id);
        }));
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
    // 申请退款 before it ships: the buyer's cancel of a paid order, which refunds it whole.
    if (o.status === 'paid') {
      actions.push(confirmed(h('button', { class: 'btn ghost small', type: 'button', dataset: { action: 'refund' } }, t('apply_refund')),
        { title: t('refund_confirm_title'), text: t('refund_confirm_text', { m: money(o.total_cents) }), yes: t('refund_confirm_yes'), no: t('keep_order'), danger: true },
        async () => {
          await post(`/orders/${o.id}/cancel`);
          toast(t('refund_requested'));
          await refresh(o.id);
        }));
    }
    const afterSaleOpen = o.after_sale && o.after_sale.status === 'requested';
    let form = null;
    if (AFTER_SALE_STATUSES.includes(o.status) && !afterSaleOpen) {
      const open = h('button', { class: 'btn ghost small', type: 'button', dataset: { action: 'after-sale' }, 'aria-expanded': 'false' }, t('apply_after_sale'));
      form = afterSaleForm(o, refundable, () => refresh(o.id));
      form.hidden = true;
      open.addEventListener('click', () => {
        form.hidden = !form.hidden;
        open.setAttribute('aria-expanded', String(!form.hidden));
        if (!form.hidden) form.querySelector('.as-reason').focus();
      });
      actions.push(open);
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
      // the recipient's page (no account needed): the buyer may send its link on
      o.tracking_url && !['pending_payment', 'cancelled'].includes(o.status)
        ? h('p', { class: 'small tracking-line' }, h('a', { href: o.tracking_url, target: '_blank', rel: 'noopener', dataset: { tracking: o.id } }, t('tracking_link')))
        : null,
      o.refund ? h('p', { class: 'small refund-line' }, t('refund_line', { m: money(o.refund.amount_cents), s: t('refund_status_' + o.refund.status) })) : null,
      !o.refund && o.refunded_cents > 0 ? h('p', { class: 'small refund-line' }, t('refunded_line', { m: money(o.refunded_cents) })) : null,
      o.after_sale ? afterSaleInfo(o.after_sale) : null,
      h('div', { class: 'order-foot' },
        h('span', { class: 'muted small' },
          o.status === 'pending_payment' && o.pay_deadline ? t('pay_before', { t: dateTime(o.pay_deadline) }) : `${t('created_at')} ${dateTime(o.created_at)}`),
        h('span', null, t('total') + ' ', h('strong', { class: 'price' }, money(o.total_cents)))),
      actions.length ? h('div', { class: 'order-actions' }, actions) : null,
      form);
  }

  /** Re-reads one order in place (its status changed). */
  async function refresh(id) {
    ui.highlightOrder = id;
    try {
      const order = await get(`/orders/${id}`);
      const old = list.querySelector(`[data-order-id="${id}"]`);
      if (!old) return;
      const statuses = tabOf(ui.ordersStatus || 'all')[1];
      if (statuses.length && !statuses.includes(order.status)) old.classList.add('leaving');
      old.replaceWith(card(order));
    } catch (error) {
      showError(error);
    }
  }

  async function load(reset) {
    const mine = ++seq;
    if (reset) { pageNo = 1; replace(list, loadingBlock()); more.hidden = true; }
    try {
      const statuses = tabOf(ui.ordersStatus || 'all')[1];
      const result = await get('/orders', { status: statuses.join(',') || null, page: pageNo, per_page: PER_PAGE });
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

/** The latest 售后 request of an order: kind and status, the amount, the reason, the shop's reply, the photos. */
function afterSaleInfo(s) {
  return h('div', { class: 'after-sale-info', dataset: { afterSaleStatus: s.status, afterSaleKind: s.kind } },
    h('p', { class: 'small' }, h('strong', null, t('after_sale_line', { k: t('after_sale_kind_' + s.kind), s: t('after_sale_status_' + s.status) })),
      s.kind === 'refund' && s.amount_cents ? ' · ' + t('after_sale_amount_line', { m: money(s.amount_cents) }) : ''),
    h('p', { class: 'muted small as-reason-text' }, s.reason),
    s.decision_note ? h('p', { class: 'small as-decision' }, t('after_sale_decision', { n: s.decision_note })) : null,
    (s.photo_urls || []).length ? h('div', { class: 'as-photos' },
      s.photo_urls.map((url, i) => h('a', { href: url, target: '_blank', rel: 'noopener', class: 'as-photo' },
        picture(url, { seed: i, cls: 'pic as-photo-pic', label: t('gallery_picture', { n: i + 1 }) })))) : null);
}

/** 申请售后: refund (an amount up to what is refundable) or redeliver, a reason, up to six photos. */
function afterSaleForm(o, refundable, done) {
  const name = `as-kind-${o.id}`;
  const kindChoice = (kind, checked) => h('label', { class: 'chip as-kind' + (checked ? ' active' : '') },
    h('input', { type: 'radio', name, value: kind, checked, class: 'sr-only' }), t('after_sale_kind_' + kind));
  const kinds = h('div', { class: 'chips', role: 'radiogroup', 'aria-label': t('after_sale_kind') },
    kindChoice('refund', refundable > 0), kindChoice('redeliver', refundable <= 0));
  const reason = h('textarea', { class: 'input as-reason', rows: 3, maxlength: 200, placeholder: t('after_sale_reason_placeholder') });
  const amount = h('input', { class: 'input as-amount', inputmode: 'decimal', value: (refundable / 100).toFixed(2) });
  const amountField = h('label', { class: 'field as-amount-field' }, h('span', { class: 'field-label' }, t('after_sale_amount')), amount,
    h('span', { class: 'muted small' }, t('after_sale_amount_hint', { m: money(refundable) })));
  const file = h('input', { type: 'file', class: 'as-file', accept: PHOTO_TYPES.join(','), multiple: true, hidden: true });
  const addPhoto = h('button', { class: 'btn ghost small as-add-photo', type: 'button' }, t('after_sale_add_photo'));
  const photoList = h('div', { class: 'as-photos' });
  const error = h('p', { class: 'form-error as-error', role: 'alert', hidden: true });
  const submit = h('button', { class: 'btn primary small as-submit', type: 'submit' }, t('after_sale_submit'));
  const photos = [];
  let uploading = 0;

  const kind = () => (kinds.querySelector('input:checked') || {}).value || 'refund';
  const say = (text) => { error.textContent = text || ''; error.hidden = !text; };
  const showKind = () => {
    amountField.hidden = kind() !== 'refund';
    for (const label of kinds.querySelectorAll('.as-kind')) label.classList.toggle('active', label.querySelector('input').checked);
  };
  kinds.addEventListener('change', showKind);
  const showPhotos = () => {
    replace(photoList, photos.map((p, i) => h('span', { class: 'as-photo', dataset: { url: p.url } },
      picture(p.thumbnail_url, { seed: i, cls: 'pic as-photo-pic', label: t('gallery_picture', { n: i + 1 }) }),
      h('button', { class: 'as-photo-remove', type: 'button', 'aria-label': t('after_sale_remove_photo'), title: t('after_sale_remove_photo'),
        onClick: () => { photos.splice(i, 1); showPhotos(); } }, '×'))),
    uploading ? h('span', { class: 'muted small as-uploading' }, t('after_sale_uploading')) : null);
    addPhoto.disabled = photos.length + uploading >= MAX_PHOTOS;
  };
  addPhoto.addEventListener('click', () => file.click());
  file.addEventListener('change', async () => {
    const chosen = [...file.files];
    file.value = '';
    say('');
    if (photos.length + uploading + chosen.length > MAX_PHOTOS) say(t('after_sale_too_many_photos'));
    for (const picked of chosen.slice(0, Math.max(0, MAX_PHOTOS - photos.length - uploading))) {
      if (!PHOTO_TYPES.includes(picked.type)) { say(t('after_sale_photo_type')); continue; }
      uploading += 1;
      showPhotos();
      try {
        photos.push(await uploadImage(picked));
      } catch (failure) {
        say(failure.message);
      } finally {
        uploading -= 1;
        showPhotos();
      }
    }
  });

  const form = h('form', { class: 'after-sale-form', novalidate: true, dataset: { orderId: o.id } },
    h('h3', { class: 'section-title' }, t('after_sale_title')),
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('after_sale_kind')), kinds),
    h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('after_sale_reason')), reason),
    amountField,
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('after_sale_photos')), photoList, addPhoto, file),
    error, submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    say('');
    const text = reason.value.trim();
    if (!text || [...text].length > 200) { say(t('after_sale_reason_required')); reason.focus(); return; }
    const body = { kind: kind(), reason: text, photo_urls: photos.map((p) => p.url) };
    if (body.kind === 'refund') {
      const cents = yuanToCents(amount.value);
      if (cents === null || cents < 1 || cents > refundable) {
        say(t('after_sale_amount_invalid', { m: money(refundable) }));
        amount.focus();
        return;
      }
      body.amount_cents = cents;
    }
    if (uploading) return;
    busy(submit, async () => {
      await post(`/orders/${o.id}/after-sales`, body);
      toast(t('after_sale_sent'));
      await done();
    }, (failure) => say(failure.message));
  });
  showKind();
  showPhotos();
  return form;
}
