// Staff (owner only: list, add, change a role, disable and enable) and the audit log (owner and
// manager: who did what to which target, with the values before and after).
import { get, post, patch, pageOf, seg } from './api.js';
import { h, replace, errorBlock, loading, pager, select, table, badge, dialog, confirmAction, field, invalid, toast } from './dom.js';
import { t, label, dateTime } from './i18n.js';

export const ROLES = ['owner', 'manager', 'florist', 'service'];

function isDisabled(member) {
  return !!(member.disabled_at || member.disabled === true);
}

async function addStaff(ctx) {
  const username = h('input', { id: 'staff-username', maxlength: '32', autocomplete: 'off' });
  const role = select({ id: 'staff-role' }, ROLES.map((r) => [r, label('role', r)]), 'florist');
  const password = h('input', { id: 'staff-password', type: 'password', autocomplete: 'new-password', maxlength: '128' });
  let made = null;
  const done = await dialog({ title: t('add_staff'), submit: t('create'),
    body: [field(t('username'), username, t('username_hint')), field(t('role'), role), field(t('password'), password, t('staff_password_hint'))],
    onSubmit: async () => {
      if (!/^[A-Za-z0-9._-]{3,32}$/.test(username.value.trim())) throw invalid(t('username_hint'));
      if (password.value && password.value.length < 10) throw invalid(t('staff_password_hint'));
      const body = { username: username.value.trim(), role: role.value };
      if (password.value) body.password = password.value;
      const answer = (await post('/admin/staff', body)) || {};
      // `{"staff", "password"}`: the password the server made (or was given), shown this once.
      made = { username: (answer.staff && answer.staff.username) || answer.username || body.username,
        password: body.password ? null : answer.password || answer.one_time_password };
    } });
  if (!done) return;
  ctx.redraw();
  // A password the server made is shown once, after the form has closed.
  const once = made.password;
  if (once) {
    await dialog({ title: t('one_time_password'), submit: t('ok'),
      body: [h('p', null, t('one_time_password_text', { name: made.username })), h('code', { class: 'secret', id: 'staff-one-time' }, once)] });
  } else {
    toast(t('staff_added', { name: made.username }));
  }
}

function roleSelect(member, ctx) {
  if (member.username === ctx.me.username) return label('role', member.role);
  const box = select({ 'aria-label': t('role'), dataset: { staffRole: member.username } }, ROLES.map((r) => [r, label('role', r)]), member.role);
  box.addEventListener('change', () => {
    const next = box.value;
    confirmAction(t('confirm_role', { name: member.username, role: label('role', next) }), async () => {
      await patch(`/admin/staff/${seg(member.username)}`, { role: next });
      toast(t('role_changed'));
      ctx.redraw();
    }, { danger: false }).then((done) => { if (!done) box.value = member.role; });
  });
  return box;
}

function disableButton(member, ctx) {
  if (member.username === ctx.me.username) return '';
  const disabled = isDisabled(member);
  const run = async () => {
    await patch(`/admin/staff/${seg(member.username)}`, { disabled: !disabled });
    toast(disabled ? t('staff_enabled') : t('staff_disabled'));
    ctx.redraw();
  };
  return h('button', { class: disabled ? 'btn small' : 'btn small danger-ghost', type: 'button', dataset: { staffToggle: member.username },
    onClick: () => confirmAction(t(disabled ? 'confirm_enable_staff' : 'confirm_disable_staff', { name: member.username }), run,
      { submit: disabled ? t('enable') : t('disable'), danger: !disabled }) }, disabled ? t('enable') : t('disable'));
}

/** The staff screen. */
export async function staff(ctx) {
  const page = pageOf(await get('/admin/staff', null, { feature: true }));
  return h('div', { class: 'page' },
    h('div', { class: 'page-title' }, h('h1', null, t('menu_staff')),
      h('button', { class: 'btn primary', type: 'button', id: 'staff-add', onClick: () => addStaff(ctx) }, t('add_staff'))),
    table([
      { title: t('username'), cell: (m) => h('strong', null, m.username) },
      { title: t('role'), cell: (m) => roleSelect(m, ctx) },
      { title: t('status'), cell: (m) => (isDisabled(m) ? badge(t('disabled'), 'muted') : badge(t('active'), 'ok')) },
      { title: t('created'), cell: (m) => dateTime(m.created_at) },
      { title: '', cell: (m) => disableButton(m, ctx) },
    ], page.items, { empty: t('nothing_here'), rowClass: (m) => (isDisabled(m) ? 'row-muted' : null) }));
}

// ---- audit ---------------------------------------------------------------------------------

/** A before/after snapshot (JSON text or a value) as indented JSON; '' when there is none. */
export function snapshot(value) {
  if (value === undefined || value === null || value === '') return '';
  let parsed = value;
  if (typeof value === 'string') {
    try { parsed = JSON.parse(value); } catch { return value; }
  }
  return JSON.stringify(parsed, null, 2);
}

function change(entry) {
  const before = snapshot(entry.before);
  const after = snapshot(entry.after);
  if (!before && !after) return '';
  return h('details', { class: 'change' }, h('summary', null, t('before_after')),
    h('div', { class: 'change-sides' },
      h('div', null, h('span', { class: 'muted small' }, t('before')), h('pre', { class: 'json' }, before || '—')),
      h('div', null, h('span', { class: 'muted small' }, t('after')), h('pre', { class: 'json' }, after || '—'))));
}

/** The audit log screen: newest first, filtered by staff, target and days (China time). */
export async function audit(ctx) {
  const state = { staff: '', target: '', from: '', to: '', page: 1 };
  const list = h('div', { class: 'list', id: 'audit-list' });
  const who = h('input', { id: 'audit-staff', placeholder: t('audit_staff_placeholder') });
  const target = h('input', { id: 'audit-target', placeholder: t('audit_target_placeholder') });
  const from = h('input', { id: 'audit-from', type: 'date', 'aria-label': t('from') });
  const to = h('input', { id: 'audit-to', type: 'date', 'aria-label': t('to') });
  const load = async () => {
    replace(list, loading());
    try {
      const page = pageOf(await get('/admin/audit', { ...state, per_page: 50 }, { feature: true }));
      if (!ctx.alive()) return;
      replace(list, table([
        { title: t('time'), cell: (e) => dateTime(e.created_at ?? e.at) },
        { title: t('staff_member'), cell: (e) => e.actor || e.staff || '' },
        { title: t('action'), cell: (e) => h('code', null, e.action) },
        { title: t('target'), cell: (e) => h('code', null, e.target) },
        { title: t('change'), cell: change },
        { title: t('request_id'), cell: (e) => h('span', { class: 'muted small' }, e.request_id || '') },
      ], page.items, { empty: t('no_audit') }), pager(page, (n) => { state.page = n; load(); }));
    } catch (error) {
      replace(list, errorBlock(error, load));
    }
  };
  load();
  return h('div', { class: 'page' }, h('h1', { class: 'page-title' }, t('menu_audit')),
    h('form', { class: 'filters', role: 'search', onSubmit: (event) => {
      event.preventDefault();
      Object.assign(state, { staff: who.value.trim(), target: target.value.trim(), from: from.value, to: to.value, page: 1 });
      load();
    } },
    who, target, h('label', { class: 'inline-field' }, t('from'), from), h('label', { class: 'inline-field' }, t('to'), to),
    h('button', { class: 'btn primary', type: 'submit', id: 'audit-search' }, t('search'))),
    list);
}
