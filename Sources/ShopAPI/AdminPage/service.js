// The after-sale queue (approve with an optional amount, reject with a note) and coupons (list,
// create, disable or enable again).
import { get, post, patch, pageOf, seg } from './api.js';
import { h, replace, errorBlock, loading, pager, select, table, badge, dialog, confirmAction, field, invalid, toast, thumb } from './dom.js';
import { t, label, money, dateTime, yuanToCents, yuan } from './i18n.js';

const AFTER_SALE_STATUSES = ['requested', 'approved', 'rejected', 'refunded', 'redelivered'];

/** A buyer's photo as a thumbnail (the shop keeps a 480 px one beside each upload) that opens the picture. */
function photo(url) {
  const small = typeof url === 'string' ? url.replace(/-1280\.jpg$/, '-480.jpg') : url;
  return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'photo-link' }, thumb(small, t('after_sale_photo')));
}

/** What a decided request led to: the refund's number, the redelivery order, who decided, the note. */
function outcome(a) {
  const made = [];
  if (a.refund_number) made.push(h('span', { class: 'muted small' }, t('refund_no', { n: a.refund_number })));
  if (a.redelivery_order) {
    made.push(h('a', { href: `#/orders/${encodeURIComponent(a.redelivery_order.number)}` }, t('redelivery_order', { n: a.redelivery_order.number })));
  }
  const note = [a.decision_note, a.decided_by].filter(Boolean).join(' · ');
  if (note) made.push(h('span', { class: 'muted small' }, note));
  return h('span', { class: 'decision' }, made);
}

function decide(item, ctx, approve) {
  const note = h('textarea', { id: 'decision-note', maxlength: '200', rows: '2' });
  const amount = h('input', { id: 'decision-amount', inputmode: 'decimal', value: item.amount_cents ? yuan(item.amount_cents) : '' });
  const body = [field(approve ? t('note_optional') : t('reject_reason'), note)];
  if (approve && item.kind === 'refund') body.unshift(field(t('refund_amount'), amount, t('refund_amount_hint')));
  return dialog({ title: approve ? t('approve_title', { id: item.id }) : t('reject_title', { id: item.id }),
    submit: approve ? t('approve') : t('reject'), danger: !approve, body,
    onSubmit: async () => {
      const payload = {};
      if (note.value.trim()) payload.note = note.value.trim();
      if (!approve && !payload.note) throw invalid(t('reason_required'));
      if (approve && item.kind === 'refund' && amount.value.trim()) {
        const cents = yuanToCents(amount.value);
        if (cents === null || cents <= 0) throw invalid(t('amount_invalid'));
        payload.amount_cents = cents;
      }
      await post(`/admin/after-sales/${seg(item.id)}/${approve ? 'approve' : 'reject'}`, payload);
      toast(approve ? t('approved_done') : t('rejected_done'));
      ctx.redraw();
    } });
}

/** The after-sale queue: requests waiting for a decision first. */
export async function afterSales(ctx) {
  const state = { status: 'requested', page: 1 };
  const list = h('div', { class: 'list', id: 'after-sale-list' });
  const status = select({ id: 'after-sale-status', 'aria-label': t('status'),
    onChange: () => { state.status = status.value; state.page = 1; load(); } },
  [['', t('all_statuses')], ...AFTER_SALE_STATUSES.map((s) => [s, label('as_status', s)])], state.status);
  const load = async () => {
    replace(list, loading());
    try {
      const page = pageOf(await get('/admin/after-sales', { status: state.status, page: state.page, per_page: 20 }, { feature: true }));
      if (!ctx.alive()) return;
      replace(list, table([
        { title: t('requested_at'), cell: (a) => dateTime(a.created_at) },
        { title: t('order_number'), cell: (a) => (a.order_number ? h('a', { href: `#/orders/${encodeURIComponent(a.order_number)}` }, a.order_number) : `#${a.order_id}`) },
        { title: t('kind'), cell: (a) => label('as_kind', a.kind) },
        { title: t('reason'), cell: (a) => h('span', null, a.reason || '', h('span', { class: 'pictures inline' }, (a.photo_urls || []).map(photo))) },
        { title: t('amount'), cell: (a) => money(a.amount_cents), cls: 'num' },
        { title: t('status'), cell: (a) => badge(label('as_status', a.status), a.status === 'requested' ? 'warn' : '') },
        { title: '', cell: (a) => (a.status === 'requested' ? h('span', { class: 'row-actions', dataset: { afterSale: String(a.id) } },
          h('button', { class: 'btn small primary', type: 'button', id: `after-sale-approve-${a.id}`, onClick: () => decide(a, ctx, true) }, t('approve')),
          h('button', { class: 'btn small danger-ghost', type: 'button', id: `after-sale-reject-${a.id}`, onClick: () => decide(a, ctx, false) }, t('reject'))) : outcome(a)) },
      ], page.items, { empty: t('no_after_sales') }), pager(page, (n) => { state.page = n; load(); }));
    } catch (error) {
      replace(list, errorBlock(error, load));
    }
  };
  load();
  return h('div', { class: 'page' }, h('h1', { class: 'page-title' }, t('menu_after-sales')),
    h('div', { class: 'filters' }, status), list);
}

// ---- coupons -------------------------------------------------------------------------------

function rule(c) {
  const percent = c.percent_off ?? (c.rule && c.rule.percent_off);
  const amount = c.amount_off_cents ?? (c.rule && c.rule.amount_off_cents);
  const off = percent ? t('percent_off', { n: percent }) : t('amount_off', { amount: money(amount) });
  return c.min_spend_cents ? `${off} · ${t('min_spend', { amount: money(c.min_spend_cents) })}` : off;
}

function couponStatus(c) {
  if (c.disabled_at || c.disabled === true) return badge(t('disabled'), 'muted');
  return badge(label('coupon_state', c.state || c.status || 'active'), (c.state || c.status || 'active') === 'active' ? 'ok' : 'muted');
}

function createCoupon(ctx) {
  const code = h('input', { id: 'coupon-code', maxlength: '32', autocapitalize: 'characters' });
  const kind = select({ id: 'coupon-kind' }, [['amount', t('kind_amount')], ['percent', t('kind_percent')]], 'amount');
  const value = h('input', { id: 'coupon-value', inputmode: 'decimal' });
  const minSpend = h('input', { id: 'coupon-min-spend', inputmode: 'decimal' });
  const starts = h('input', { id: 'coupon-starts', type: 'date' });
  const ends = h('input', { id: 'coupon-ends', type: 'date' });
  const maxUses = h('input', { id: 'coupon-max-uses', inputmode: 'numeric' });
  const perUser = h('input', { id: 'coupon-per-user', inputmode: 'numeric' });
  const description = h('input', { id: 'coupon-description', maxlength: '100' });
  return dialog({ title: t('new_coupon'), submit: t('create'),
    body: [field(t('coupon_code'), code, t('coupon_code_hint')), field(t('kind'), kind), field(t('coupon_value'), value, t('coupon_value_hint')),
      field(t('min_spend_label'), minSpend), field(t('starts'), starts), field(t('ends'), ends),
      field(t('max_uses'), maxUses), field(t('per_user'), perUser), field(t('description'), description)],
    onSubmit: async () => {
      if (!/^[A-Za-z0-9_-]{3,32}$/.test(code.value.trim())) throw invalid(t('coupon_code_hint'));
      const body = { code: code.value.trim() };
      if (kind.value === 'percent') {
        if (!/^\d{1,2}$/.test(value.value.trim()) || Number(value.value) < 1) throw invalid(t('percent_invalid'));
        body.percent_off = Number(value.value);
      } else {
        const cents = yuanToCents(value.value);
        if (cents === null || cents <= 0) throw invalid(t('amount_invalid'));
        body.amount_off_cents = cents;
      }
      if (minSpend.value.trim()) {
        const cents = yuanToCents(minSpend.value);
        if (cents === null) throw invalid(t('amount_invalid'));
        body.min_spend_cents = cents;
      }
      // Dates are the shop's days: from the start of `starts` to the end of `ends`, China time.
      if (starts.value) body.starts_at = `${starts.value}T00:00:00+08:00`;
      if (ends.value) body.ends_at = `${ends.value}T23:59:59+08:00`;
      for (const [key, input] of [['max_uses', maxUses], ['per_user_limit', perUser]]) {
        if (!input.value.trim()) continue;
        if (!/^\d{1,9}$/.test(input.value.trim()) || Number(input.value) < 1) throw invalid(t('count_invalid'));
        body[key] = Number(input.value);
      }
      if (description.value.trim()) body.description = description.value.trim();
      await post('/admin/coupons', body);
      toast(t('coupon_created', { code: body.code.toUpperCase() }));
      ctx.redraw();
    } });
}

function toggleCoupon(c, ctx) {
  const disabled = !!(c.disabled_at || c.disabled === true);
  const run = async () => {
    await patch(`/admin/coupons/${seg(c.code)}`, { disabled: !disabled });
    toast(disabled ? t('coupon_enabled') : t('coupon_disabled'));
    ctx.redraw();
  };
  return h('button', { class: disabled ? 'btn small' : 'btn small danger-ghost', type: 'button', dataset: { coupon: c.code },
    onClick: () => (disabled ? run().catch((e) => toast(e.message, 'error')) : confirmAction(t('confirm_disable_coupon', { code: c.code }), run)) },
  disabled ? t('enable') : t('disable'));
}

/** The coupons screen. */
export async function coupons(ctx) {
  const page = pageOf(await get('/admin/coupons', { per_page: 100 }, { feature: true }));
  return h('div', { class: 'page' },
    h('div', { class: 'page-title' }, h('h1', null, t('menu_coupons')),
      h('button', { class: 'btn primary', type: 'button', id: 'coupon-new', onClick: () => createCoupon(ctx) }, t('new_coupon'))),
    table([
      { title: t('coupon_code'), cell: (c) => h('strong', null, c.code) },
      { title: t('coupon_rule'), cell: rule },
      { title: t('window'), cell: (c) => [dateTime(c.starts_at), dateTime(c.ends_at)].some(Boolean) ? `${dateTime(c.starts_at) || '…'} – ${dateTime(c.ends_at) || '…'}` : t('always') },
      { title: t('uses'), cell: (c) => `${c.uses ?? 0}${c.max_uses ? ' / ' + c.max_uses : ''}`, cls: 'num' },
      { title: t('status'), cell: couponStatus },
      { title: '', cell: (c) => toggleCoupon(c, ctx) },
    ], page.items, { empty: t('no_coupons') }));
}
