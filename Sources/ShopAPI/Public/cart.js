// 购物车: quantities, selection, totals and the server's 99-item cap message (with the shop's
// customer-service contact); the checkout page with its delivery-day picker and, for the chosen
// address, the delivery zone's fee, the free-delivery hint or the out-of-zone message.
import { t, money, dayLabel } from './i18n.js';
import { get, post, patch, del, newIdempotencyKey } from './api.js';
import { h, replace, picture, toast, busy, loadingBlock, emptyBlock, errorBlock } from './dom.js';
import { ui, isSignedIn, setCartCount, navigate, refreshCartCount } from './state.js';
import { shopInfo, showNotice, todayIn } from './shopinfo.js';

function signInPrompt(text) {
  return emptyBlock(text, h('a', { class: 'btn primary', href: '#/account', id: 'go-sign-in', onClick: () => { ui.returnTo = location.hash.slice(1); } }, t('sign_in')));
}

export function renderCart(page) {
  page.append(h('h1', { class: 'page-title' }, t('cart_title')));
  if (!isSignedIn()) { page.append(signInPrompt(t('sign_in_to_see'))); return; }

  const notice = h('p', { id: 'cart-notice', class: 'notice', role: 'alert', hidden: true });
  const lines = h('div', { id: 'cart-lines', class: 'cart-lines' }, loadingBlock());
  const selectAll = h('input', { type: 'checkbox', id: 'select-all', class: 'check' });
  const total = h('span', { class: 'price', id: 'cart-total' });
  const count = h('span', { class: 'muted small', id: 'cart-count' });
  const checkout = h('button', { class: 'btn primary', type: 'button', id: 'checkout-btn' }, t('checkout'));
  const footer = h('div', { class: 'cart-footer', hidden: true },
    h('label', { class: 'check-label' }, selectAll, t('select_all')),
    h('div', { class: 'cart-sum' }, h('span', null, t('total') + ' '), total, count),
    checkout);
  const clearAll = h('button', { class: 'btn ghost small', type: 'button', id: 'clear-cart', hidden: true }, t('clear_cart'));
  // 优惠码: the server applies it to the selected lines (GET /cart?coupon_code=) and checkout sends it.
  const couponInput = h('input', { class: 'input', id: 'coupon-code', maxlength: 32, placeholder: t('coupon_placeholder'), value: ui.couponCode });
  const couponApply = h('button', { class: 'btn ghost small', type: 'button', id: 'coupon-apply' }, t('coupon_apply'));
  const couponInfo = h('span', { class: 'muted small', id: 'coupon-info' });
  const couponBox = h('div', { class: 'card coupon-box', id: 'coupon-box', hidden: true },
    h('label', { class: 'field-label', for: 'coupon-code' }, t('coupon')), couponInput, couponApply, couponInfo);
  page.firstChild.append(clearAll);
  page.append(notice, lines, couponBox, footer);

  let cart = null;
  let working = false;

  /** The server's message (e.g. the 99-item cap's) stays above the cart until the next change. */
  function say(error) {
    showNotice(notice, error);
    notice.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  /** One change at a time; the server's answer is the new cart, an error leaves the cart as it was. */
  async function change(work) {
    if (working) return;
    working = true;
    lines.classList.add('working');
    try {
      let next = await work();
      notice.hidden = true;
      if (next && ui.couponCode) next = await withCoupon();
      if (next) show(next);
    } catch (error) {
      say(error);
      if (cart) show(cart);
    } finally {
      working = false;
      lines.classList.remove('working');
    }
  }

  function line(item) {
    const qty = h('input', { class: 'qty-input line-qty', type: 'number', min: 1, max: 99, value: String(item.quantity), inputmode: 'numeric', 'aria-label': t('quantity') });
    const setQuantity = (n) => change(() => patch(`/cart/items/${item.id}`, { quantity: n }));
    qty.addEventListener('change', () => {
      const n = Number(qty.value);
      if (!Number.isInteger(n) || n < 1) { qty.value = String(item.quantity); return; }
      if (n !== item.quantity) setQuantity(n);
    });
    qty.addEventListener('keydown', (event) => { if (event.key === 'Enter') qty.blur(); });
    const select = h('input', { type: 'checkbox', class: 'check line-select', checked: item.selected, 'aria-label': item.title });
    select.addEventListener('change', () => change(() => patch(`/cart/items/${item.id}`, { selected: select.checked })));
    return h('div', { class: 'cart-line card' + (item.available ? '' : ' unavailable'), dataset: { lineId: item.id, skuId: item.sku_id } },
      select,
      h('a', { href: `#/product/${item.product_id}`, class: 'thumb-link' }, picture(item.cover_thumbnail_url || item.cover_url, { seed: item.product_id, cls: 'pic thumb', label: item.title })),
      h('div', { class: 'line-info' },
        h('a', { class: 'line-title', href: `#/product/${item.product_id}` }, item.title),
        h('p', { class: 'muted small' }, item.sku_name,
          !item.available ? h('span', { class: 'tag' }, t('unavailable'))
            : item.stock < 10 ? h('span', { class: 'tag warn' }, t('low_stock', { n: item.stock })) : null),
        h('div', { class: 'line-bottom' },
          h('span', { class: 'price' }, money(item.price_cents)),
          h('div', { class: 'stepper' },
            h('button', { class: 'step minus', type: 'button', 'aria-label': '-', disabled: item.quantity <= 1, onClick: () => setQuantity(item.quantity - 1) }, '−'),
            qty,
            // "+" adds one more of the SKU (the server merges it into this line and enforces the cap).
            h('button', { class: 'step plus', type: 'button', 'aria-label': '+', onClick: () => change(() => post('/cart/items', { sku_id: item.sku_id, quantity: 1 })) }, '+')))),
      h('button', { class: 'remove', type: 'button', 'aria-label': t('remove'), title: t('remove'),
        onClick: () => change(() => del(`/cart/items/${item.id}`)) }, '×'));
  }

  /** The cart with the remembered coupon; one that no longer applies (or, after too many refused
   *  codes, 429 saying how long to wait) is dropped, the server's reason shown. */
  async function withCoupon() {
    try {
      return await get(cartPath(ui.couponCode));
    } catch (error) {
      if (error.status !== 422 && error.status !== 400 && error.status !== 429) throw error;
      ui.couponCode = '';
      say(error);
      return get('/cart');
    }
  }

  function show(next) {
    cart = next;
    couponBox.hidden = !cart.items.length;
    couponInfo.textContent = cart.coupon ? `${cart.coupon.code} · ${cart.coupon.description} · -${money(cart.discount_cents)}` : '';
    couponApply.textContent = cart.coupon ? t('coupon_remove') : t('coupon_apply');
    setCartCount(cart.total_quantity);
    if (!cart.items.length) {
      replace(lines, emptyBlock(t('cart_empty'), h('a', { class: 'btn primary', href: '#/shop' }, t('go_shopping'))));
      footer.hidden = true;
      clearAll.hidden = true;
      return;
    }
    replace(lines, cart.items.map(line));
    footer.hidden = false;
    clearAll.hidden = false;
    selectAll.checked = cart.items.every((i) => i.selected);
    total.textContent = money(cart.selected_total_cents - cart.discount_cents);
    count.textContent = ' · ' + t('items_count', { n: cart.selected_quantity });
    checkout.disabled = cart.selected_quantity === 0;
  }

  selectAll.addEventListener('change', () => change(async () => {
    let last = cart;
    for (const item of cart.items) {
      if (item.selected !== selectAll.checked) last = await patch(`/cart/items/${item.id}`, { selected: selectAll.checked });
    }
    return last;
  }));
  clearAll.addEventListener('click', () => change(async () => { const next = await del('/cart'); toast(t('cart_cleared')); return next; }));
  checkout.addEventListener('click', () => navigate('/checkout'));
  couponApply.addEventListener('click', () => change(async () => {
    ui.couponCode = cart && cart.coupon ? '' : couponInput.value.trim();
    if (!ui.couponCode) couponInput.value = '';
    return get('/cart');
  }));

  (ui.couponCode ? withCoupon() : get('/cart')).then(show, (error) => replace(lines, errorBlock(error, () => navigate('/cart'))));
}

/** `/cart`, with `?coupon_code=` when a code is given and `?address_id=` (the checkout preview's
 * delivery fee to that address) when one is. */
function cartPath(code, addressId) {
  const query = new URLSearchParams();
  if (code) query.set('coupon_code', code);
  if (addressId) query.set('address_id', String(addressId));
  const text = query.toString();
  return text ? `/cart?${text}` : '/cart';
}

export function renderCheckout(page) {
  page.append(
    h('button', { class: 'back', type: 'button', onClick: () => navigate('/cart') }, t('back')),
    h('h1', { class: 'page-title' }, t('checkout_title')));
  if (!isSignedIn()) { page.append(signInPrompt(t('sign_in_to_see'))); return; }
  const body = h('div', null, loadingBlock());
  page.append(body);
  Promise.all([get(cartPath(ui.couponCode)).catch(() => { ui.couponCode = ''; return get('/cart'); }), get('/addresses')]).then(([cart, addresses]) => showCheckout(body, cart, addresses.items || []),
    (error) => replace(body, errorBlock(error, () => navigate('/checkout'))));
}

function showCheckout(body, cart, addresses) {
  const selected = cart.items.filter((i) => i.selected && i.available);
  if (!selected.length) {
    replace(body, emptyBlock(t('nothing_selected'), h('a', { class: 'btn primary', href: '#/cart' }, t('cart_title'))));
    return;
  }
  let addressId = (addresses.find((a) => a.is_default) || addresses[0] || {}).id;
  // One key per checkout attempt: a retry after a lost answer cannot create a second order.
  let key = newIdempotencyKey();
  const note = h('textarea', { id: 'order-note', class: 'input', rows: 2, maxlength: 200, placeholder: t('note_placeholder') });
  const place = h('button', { class: 'btn primary', type: 'button', id: 'place-order', disabled: !addressId }, t('place_order'));
  const addressCards = addresses.map((a) => {
    const radio = h('input', { type: 'radio', name: 'address', class: 'check', value: String(a.id), checked: a.id === addressId });
    radio.addEventListener('change', () => { addressId = a.id; key = newIdempotencyKey(); quoteDelivery(); });
    return h('label', { class: 'address-choice', dataset: { addressId: a.id } }, radio,
      h('span', null,
        h('strong', null, `${a.recipient}  ${a.phone}`), a.is_default ? h('span', { class: 'tag' }, t('default')) : null,
        h('span', { class: 'muted small block' }, `${a.province}${a.city}${a.district} ${a.detail}`)));
  });
  note.addEventListener('input', () => { key = newIdempotencyKey(); });
  // Delivery day and slot from GET /delivery/dates (the first day is the earliest): chips for the
  // first days, said as 今天 / 明天 / 周三 12月3日 by the shop's clock (GET /shop-info's time zone,
  // not the browser's), the later days in a compact select; then the chosen day's slots.
  const DAY_CHIPS = 4;
  const dayChips = h('div', { class: 'chips day-chips', id: 'delivery-days', role: 'radiogroup', 'aria-label': t('delivery_date') },
    h('span', { class: 'muted small' }, t('loading')));
  const moreDays = h('select', { id: 'delivery-date-more', class: 'input day-more', 'aria-label': t('day_more'), hidden: true });
  const slotSelect = h('select', { id: 'delivery-slot', class: 'input' });
  const cardMessage = h('textarea', { id: 'card-message', class: 'input', rows: 2, maxlength: 200, placeholder: t('card_message_placeholder') });
  const cardSignature = h('input', { id: 'card-signature', class: 'input', maxlength: 30 });
  let days = [];
  let today = null;
  let chosenDay = '';
  const fillSlots = () => {
    const day = days.find((d) => d.date === chosenDay);
    replace(slotSelect, h('option', { value: '' }, t('slot_any')),
      (day ? day.slots : []).map((s) => h('option', { value: s }, t('slot_' + s))));
  };
  const chooseDay = (date) => {
    if (date !== chosenDay) key = newIdempotencyKey();
    chosenDay = date;
    for (const chip of dayChips.querySelectorAll('.day-chip')) {
      const on = chip.dataset.date === date;
      chip.classList.toggle('active', on);
      chip.setAttribute('aria-checked', String(on));
    }
    moreDays.value = days.slice(DAY_CHIPS).some((d) => d.date === date) ? date : '';
    moreDays.classList.toggle('active', Boolean(moreDays.value));
    fillSlots();
  };
  const fillDays = () => {
    const later = days.slice(DAY_CHIPS);
    moreDays.hidden = later.length === 0;
    if (!days.length) {
      replace(dayChips, h('p', { class: 'muted small', id: 'no-delivery-day' }, t('no_delivery_day')));
      chosenDay = '';
      fillSlots();
      return;
    }
    replace(dayChips, days.slice(0, DAY_CHIPS).map((d) => {
      const { label, date } = dayLabel(d.date, today);
      return h('button', { type: 'button', class: 'chip day-chip', role: 'radio', title: d.date, dataset: { date: d.date },
        onClick: () => chooseDay(d.date) }, h('span', { class: 'day-label' }, label), date ? h('span', { class: 'day-date' }, date) : null);
    }));
    replace(moreDays, h('option', { value: '' }, t('day_more')), later.map((d) => h('option', { value: d.date }, dayLabel(d.date, today).label)));
    chooseDay(days[0].date);
  };
  // The chosen address decides the delivery zone: its fee (GET /cart?address_id=, with the coupon,
  // so the free-over amount compares with the goods after the discount), the hint of how much more
  // makes delivery free, and its days (GET /delivery/quote: a zone may take no same-day orders).
  // An address outside every zone says so here, and pay stays off until another is chosen.
  const skuIds = [...new Set(selected.map((i) => i.sku_id))].join(',');
  const total = h('span', { class: 'price', id: 'checkout-total' }, money(cart.selected_total_cents - cart.discount_cents));
  const feeLine = h('p', { class: 'small delivery-line', id: 'delivery-fee', hidden: true });
  const freeHint = h('p', { class: 'small muted delivery-line', id: 'free-delivery-hint', hidden: true });
  const outOfZone = h('p', { class: 'notice delivery-line', id: 'delivery-unavailable', role: 'alert', hidden: true });
  let quoting = 0;
  const quoteDelivery = () => {
    const asked = ++quoting;
    const datesFor = addressId
      ? get('/delivery/quote', { address_id: addressId, sku_ids: skuIds }).then((quote) => quote.dates || [])
      : get('/delivery/dates', { sku_ids: skuIds }).then((answer) => answer.items || []);
    // a preview refused for another reason (the coupon no longer applies) only leaves the fee unshown
    const preview = addressId ? get(cartPath(cart.coupon && cart.coupon.code, addressId)).catch(() => null) : Promise.resolve(null);
    Promise.all([datesFor, preview, shopInfo().catch(() => null)]).then(([found, priced, info]) => {
      if (asked !== quoting) return;
      outOfZone.hidden = true;
      place.disabled = !addressId;
      days = found;
      today = todayIn((info && info.timezone) || 'Asia/Shanghai');
      fillDays();
      feeLine.hidden = true;
      freeHint.hidden = true;
      if (priced) {
        const zone = priced.delivery_zone;
        feeLine.hidden = !zone;
        feeLine.textContent = zone ? `${t('delivery_zone', { zone: zone.name })} · ${priced.delivery_fee_cents ? `${t('delivery_fee')} ${money(priced.delivery_fee_cents)}` : t('delivery_free')}` : '';
        freeHint.hidden = priced.more_for_free_delivery_cents == null;
        freeHint.textContent = freeHint.hidden ? '' : t('free_delivery_hint', { amount: money(priced.more_for_free_delivery_cents) });
        total.textContent = money(priced.total_cents);
      }
    }, (error) => {
      if (asked !== quoting) return;
      feeLine.hidden = true;
      freeHint.hidden = true;
      replace(dayChips);
      if (error.code === 'delivery_unavailable' && error.field === 'address_id') {
        outOfZone.textContent = error.message;
        outOfZone.hidden = false;
        place.disabled = true;
      }
    });
  };
  quoteDelivery();
  moreDays.addEventListener('change', () => chooseDay(moreDays.value || days[0].date));
  for (const field of [slotSelect, cardMessage, cardSignature]) field.addEventListener('input', () => { key = newIdempotencyKey(); });
  slotSelect.addEventListener('change', () => { key = newIdempotencyKey(); });
  place.addEventListener('click', () => busy(place, async () => {
    const payload = { address_id: addressId };
    if (note.value.trim()) payload.note = note.value.trim();
    if (cart.coupon) payload.coupon_code = cart.coupon.code;
    if (chosenDay) payload.delivery_date = chosenDay;
    if (slotSelect.value) payload.delivery_slot = slotSelect.value;
    if (cardMessage.value.trim()) payload.card_message = cardMessage.value.trim();
    if (cardSignature.value.trim()) payload.card_signature = cardSignature.value.trim();
    try {
      const order = await post('/orders', payload, { headers: { 'Idempotency-Key': key } });
      ui.highlightOrder = order.id;
      ui.ordersStatus = '';
      ui.couponCode = '';
      refreshCartCount();
      toast(t('order_placed'));
      navigate('/orders');
    } catch (error) {
      if (error.status) key = newIdempotencyKey();
      throw error;
    }
  }));
  replace(body,
    h('section', { class: 'card', id: 'checkout-addresses' },
      h('h2', { class: 'section-title' }, t('ship_to')),
      addresses.length ? addressCards : h('p', { class: 'muted' }, t('need_address')),
      h('a', { class: 'btn ghost small', href: '#/addresses?from=checkout', id: 'checkout-add-address' }, t('add_address'))),
    h('section', { class: 'card' },
      selected.map((i) => h('div', { class: 'summary-line' },
        picture(i.cover_thumbnail_url || i.cover_url, { seed: i.product_id, cls: 'pic thumb small' }),
        h('span', { class: 'grow' }, i.title, h('span', { class: 'muted small block' }, i.sku_name)),
        h('span', { class: 'nowrap' }, `${money(i.price_cents)} × ${i.quantity}`)))),
    h('section', { class: 'card', id: 'checkout-delivery' },
      h('h2', { class: 'section-title' }, t('delivery_title')),
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('delivery_date')), dayChips, moreDays),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('delivery_slot')), slotSelect)),
    h('section', { class: 'card', id: 'checkout-card' },
      h('h2', { class: 'section-title' }, t('card_title')),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('card_message')), cardMessage),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('card_signature')), cardSignature)),
    h('section', { class: 'card' }, h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('note')), note)),
    h('div', { class: 'cart-footer' },
      cart.coupon ? h('p', { class: 'small', id: 'checkout-discount' }, `${t('coupon_discount')} ${cart.coupon.description} -${money(cart.discount_cents)}`) : null,
      feeLine, freeHint, outOfZone,
      h('div', { class: 'cart-sum' }, h('span', null, t('total') + ' '), total,
        h('span', { class: 'muted small' }, ' · ' + t('items_count', { n: cart.selected_quantity }))),
      place));
}
