// Buyers (find by phone or nickname, ban with a reason, unban) and comments (find, delete).
import { get, post, del, pageOf, seg } from './api.js';
import { h, replace, errorBlock, loading, pager, table, badge, dialog, confirmAction, field, invalid, toast } from './dom.js';
import { t, dateTime } from './i18n.js';

/** A searchable, paged list: `columns(reload)` draws the rows; the search box submits `q`. */
function searchable(ctx, { id, title, path, placeholder, columns, empty }) {
  const state = { q: '', page: 1 };
  const list = h('div', { class: 'list', id: `${id}-list` });
  const q = h('input', { type: 'search', id: `${id}-q`, placeholder });
  const load = async () => {
    replace(list, loading());
    try {
      const page = pageOf(await get(path, { q: state.q, page: state.page, per_page: 20 }, { feature: true }));
      if (!ctx.alive()) return;
      replace(list, table(columns(load), page.items, { empty }), pager(page, (n) => { state.page = n; load(); }));
    } catch (error) {
      replace(list, errorBlock(error, load));
    }
  };
  load();
  return h('div', { class: 'page' }, h('h1', { class: 'page-title' }, title),
    h('form', { class: 'filters', role: 'search', onSubmit: (event) => { event.preventDefault(); state.q = q.value.trim(); state.page = 1; load(); } },
      q, h('button', { class: 'btn primary', type: 'submit', id: `${id}-search` }, t('search'))),
    list);
}

function isBanned(user) {
  return !!(user.banned_at || user.banned === true || user.is_banned === true || user.status === 'banned');
}

function banButton(user, ctx, reload) {
  if (!ctx.may('users.ban')) return '';
  if (isBanned(user)) {
    return h('button', { class: 'btn small', type: 'button', dataset: { unban: String(user.id) },
      onClick: () => confirmAction(t('confirm_unban', { who: user.phone || user.nickname }), async () => {
        await post(`/admin/users/${seg(user.id)}/unban`, {});
        toast(t('unbanned_done'));
        reload();
      }, { submit: t('unban'), danger: false }) }, t('unban'));
  }
  const reason = h('textarea', { id: 'ban-reason', maxlength: '200', rows: '2' });
  return h('button', { class: 'btn small danger-ghost', type: 'button', dataset: { ban: String(user.id) },
    onClick: () => dialog({ title: t('ban_title', { who: user.phone || user.nickname }), submit: t('ban'), danger: true,
      body: [h('p', { class: 'confirm-text' }, t('ban_warning')), field(t('reason'), reason)],
      onSubmit: async () => {
        if (!reason.value.trim()) throw invalid(t('reason_required'));
        await post(`/admin/users/${seg(user.id)}/ban`, { reason: reason.value.trim() });
        toast(t('banned_done'));
        reload();
      } }) }, t('ban'));
}

/** The buyers screen. */
export async function buyers(ctx) {
  return searchable(ctx, { id: 'buyer', title: t('menu_buyers'), path: '/admin/users', placeholder: t('buyer_search_placeholder'),
    empty: t('no_buyers'),
    columns: (reload) => [
      { title: t('phone'), cell: (u) => u.phone || '' },
      { title: t('nickname'), cell: (u) => u.nickname || '' },
      { title: t('joined'), cell: (u) => dateTime(u.created_at) },
      { title: t('status'), cell: (u) => (isBanned(u)
        ? h('span', null, badge(t('banned'), 'danger'), u.ban_reason ? h('span', { class: 'muted small' }, ' ', u.ban_reason) : null)
        : badge(t('active'), 'ok')) },
      { title: '', cell: (u) => banButton(u, ctx, reload) },
    ] });
}

function commenter(c) {
  const a = c.author || c.user || {};
  return typeof a === 'object' ? a.nickname || a.phone || (a.id ? `#${a.id}` : '') : String(a);
}

function article(c) {
  const a = c.article || {};
  return c.article_title || a.title || (c.article_id || a.id ? `#${c.article_id || a.id}` : '');
}

/** The comments screen. */
export async function comments(ctx) {
  return searchable(ctx, { id: 'comment', title: t('menu_comments'), path: '/admin/comments', placeholder: t('comment_search_placeholder'),
    empty: t('no_comments'),
    columns: (reload) => [
      { title: t('posted_at'), cell: (c) => dateTime(c.created_at) },
      { title: t('commenter'), cell: commenter },
      { title: t('article'), cell: article },
      { title: t('comment'), cell: (c) => h('span', { class: 'comment-text' }, c.text ?? c.content ?? c.body ?? '') },
      { title: '', cell: (c) => h('button', { class: 'btn small danger-ghost', type: 'button', dataset: { deleteComment: String(c.id) },
        onClick: () => confirmAction(t('confirm_delete_comment', { text: String(c.text ?? c.content ?? '').slice(0, 40) }), async () => {
          await del(`/admin/comments/${seg(c.id)}`);
          toast(t('comment_deleted'));
          reload();
        }, { submit: t('delete') }) }, t('delete')) },
    ] });
}
