// 专栏: column authors, an author's page with follow/unfollow, the feed of followed authors
// (cursor-paged, "load more"), the week's top 10, article lists, and an article with likes and comments.
import { t, dateOnly, dateTime } from './i18n.js';
import { get, post, del } from './api.js';
import { h, replace, picture, toast, showError, busy, loadingBlock, emptyBlock, errorBlock, articleBody } from './dom.js';
import { session, ui, isSignedIn, requireSignIn, navigate } from './state.js';
import { shareLink } from './shop.js';

const SUBTABS = ['authors', 'feed', 'top', 'articles'];
const FEED_LIMIT = 10;
let authorSort = 'followers';
let articleCategory = null;

function initial(name) { return (name || '?').slice(0, 1); }

function isMe(id) { return Boolean(session.user && session.user.id === id); }

/** 关注 / 已关注 for one author; `onChange(profile)` after the server agreed. */
function followButton(author, onChange) {
  if (isMe(author.id)) return null;
  const button = h('button', { class: 'btn small follow-btn', type: 'button', dataset: { authorId: author.id } });
  const paint = () => {
    const on = Boolean(author.is_following);
    button.textContent = on ? t('unfollow') : t('follow');
    button.classList.toggle('primary', !on);
    button.classList.toggle('ghost', on);
    button.setAttribute('aria-pressed', String(on));
  };
  button.addEventListener('click', (event) => {
    event.preventDefault();
    event.stopPropagation();
    if (!requireSignIn()) return;
    busy(button, async () => {
      const following = Boolean(author.is_following);
      if (following) await del(`/authors/${author.id}/follow`); else await post(`/authors/${author.id}/follow`);
      author.is_following = !following;
      author.followers_count = Math.max(0, (author.followers_count || 0) + (following ? -1 : 1));
      toast(following ? t('unfollowed') : t('followed'));
      paint();
      if (onChange) onChange(author);
    });
  });
  paint();
  return button;
}

function articleItem(a, rank) {
  return h('a', { class: 'card article-item', href: `#/article/${a.id}`, dataset: { articleId: a.id, authorId: a.author && a.author.id } },
    rank ? h('span', { class: 'rank' + (rank <= 3 ? ' top' : ''), 'aria-label': t('rank', { n: rank }) }, String(rank)) : null,
    picture(a.cover_url, { seed: a.id, cls: 'pic article-thumb', label: a.title }),
    h('div', { class: 'article-info' },
      h('h3', { class: 'article-title' }, a.title),
      h('p', { class: 'article-summary muted small' }, a.summary),
      // Each figure stays on one line with its sign or word ("♥ 3", "2 评论"); only the dots may wrap.
      h('p', { class: 'article-meta small' },
        h('span', { class: 'article-author' }, a.author ? a.author.nickname : ''),
        [dateOnly(a.published_at), `♥ ${a.likes_count}`, t('comments_n', { n: a.comments_count })].map((text) => [
          h('span', { class: 'muted' }, ' · '), h('span', { class: 'muted stat' }, text)]))));
}

function authorCard(a) {
  const counts = h('p', { class: 'muted small' });
  const paintCounts = () => { counts.textContent = `${t('followers', { n: a.followers_count })} · ${t('articles_n', { n: a.articles_count })}`; };
  paintCounts();
  return h('a', { class: 'card author-card', href: `#/author/${a.id}`, dataset: { authorId: a.id } },
    picture(a.avatar_url, { seed: a.id, cls: 'pic avatar', initial: initial(a.nickname), label: a.nickname }),
    h('div', { class: 'grow' },
      h('h3', { class: 'author-name' }, a.nickname),
      a.signature ? h('p', { class: 'author-signature small' }, a.signature) : null,
      counts),
    followButton(a, paintCounts));
}

/** A paged list with a "load more" button; `fetchPage(page)` → {items, page, per_page, total}. */
function pagedList(container, fetchPage, renderItem, emptyText) {
  const list = h('div', { class: 'list' });
  const more = h('button', { class: 'btn ghost wide load-more', type: 'button', hidden: true }, t('load_more'));
  replace(container, list, more);
  let pageNo = 1;
  async function load() {
    const result = await fetchPage(pageNo);
    list.append(...result.items.map((item) => renderItem(item)));
    if (result.total === 0) replace(list, emptyBlock(emptyText));
    more.hidden = result.page * result.per_page >= result.total;
  }
  more.addEventListener('click', () => busy(more, async () => { pageNo += 1; await load(); }));
  list.append(loadingBlock());
  load().then(() => list.querySelector('.loading')?.remove(), (error) => replace(list, errorBlock(error, () => pagedList(container, fetchPage, renderItem, emptyText))));
}

export function renderColumn(page, [sub]) {
  const current = SUBTABS.includes(sub) ? sub : 'authors';
  page.append(
    h('h1', { class: 'page-title' }, t('tab_column')),
    h('div', { class: 'segmented', role: 'tablist', id: 'column-tabs' }, SUBTABS.map((key) => h('a', {
      class: 'segment' + (key === current ? ' active' : ''), role: 'tab', href: `#/column/${key}`, id: `column-${key}`,
      'aria-selected': String(key === current),
    }, t('column_' + key)))));
  const body = h('div', { id: 'column-body' });
  page.append(body);
  if (current === 'authors') showAuthors(body);
  else if (current === 'feed') showFeed(body);
  else if (current === 'top') showTop(body);
  else showArticles(body);
}

function showAuthors(body) {
  const sorts = h('div', { class: 'chips' }, ['followers', 'newest'].map((s) => h('button', {
    class: 'chip' + (authorSort === s ? ' active' : ''), type: 'button',
    onClick: () => { authorSort = s; replace(body); showAuthors(body); },
  }, t('sort_' + s))));
  const list = h('div', { id: 'author-list' });
  body.append(sorts, list);
  pagedList(list, (p) => get('/authors', { sort: authorSort, page: p, per_page: 20 }), authorCard, t('no_articles'));
}

function showFeed(body) {
  if (!isSignedIn()) {
    body.append(emptyBlock(t('feed_sign_in'), h('a', { class: 'btn primary', href: '#/account', onClick: () => { ui.returnTo = '/column/feed'; } }, t('sign_in'))));
    return;
  }
  const list = h('div', { id: 'feed-list', class: 'list' }, loadingBlock());
  const more = h('button', { class: 'btn ghost wide', type: 'button', id: 'feed-more', hidden: true }, t('load_more'));
  const end = h('p', { class: 'muted center small', hidden: true }, t('no_more'));
  body.append(list, more, end);
  let cursor = null;
  const seen = new Set();
  async function load(first) {
    const result = await get('/feed', { limit: FEED_LIMIT, cursor });
    if (first) replace(list);
    const fresh = result.items.filter((a) => !seen.has(a.id));
    fresh.forEach((a) => seen.add(a.id));
    list.append(...fresh.map((a) => articleItem(a)));
    cursor = result.next_cursor;
    more.hidden = !cursor;
    end.hidden = Boolean(cursor) || seen.size === 0;
    if (first && seen.size === 0) replace(list, emptyBlock(t('feed_empty'), h('a', { class: 'btn primary', href: '#/column/authors' }, t('column_authors'))));
  }
  more.addEventListener('click', () => busy(more, () => load(false)));
  load(true).catch((error) => replace(list, errorBlock(error, () => navigate('/column/feed'))));
}

function showTop(body) {
  const list = h('div', { id: 'top-list', class: 'list' }, loadingBlock());
  body.append(list);
  get('/articles/top').then((result) => {
    replace(list, result.items.length ? result.items.map((a, i) => articleItem(a, i + 1)) : emptyBlock(t('no_articles')));
  }, (error) => replace(list, errorBlock(error, () => navigate('/column/top'))));
}

function showArticles(body) {
  const chips = h('div', { class: 'chips scroll-x', id: 'article-categories' });
  const list = h('div', { id: 'article-list' });
  body.append(chips, list);
  const chip = (label, id) => h('button', {
    class: 'chip' + (articleCategory === id ? ' active' : ''), type: 'button',
    onClick: () => { articleCategory = id; replace(body); showArticles(body); },
  }, label);
  get('/article-categories').then((r) => replace(chips, chip(t('all_articles'), null), (r.items || []).map((c) => chip(c.name, c.id))), () => replace(chips));
  pagedList(list, (p) => get('/articles', { category_id: articleCategory, page: p, per_page: 10 }), (a) => articleItem(a), t('no_articles'));
}

// ---- author page ----

function backButton() {
  return h('button', { class: 'back', type: 'button', id: 'back', onClick: () => (history.length > 1 ? history.back() : navigate('/column')) }, t('back'));
}

export function renderAuthor(page, [id]) {
  const head = h('div', { id: 'author-head' }, loadingBlock());
  const articles = h('div', { id: 'author-articles' });
  page.append(backButton(), head, h('h2', { class: 'section-title' }, t('column_articles')), articles);
  get(`/users/${id}`).then((a) => {
    const counts = h('p', { class: 'muted small', id: 'author-counts' });
    const paint = () => { counts.textContent = `${t('followers', { n: a.followers_count })} · ${t('following_n', { n: a.following_count })} · ${t('articles_n', { n: a.articles_count })}`; };
    paint();
    replace(head, h('div', { class: 'card author-hero', dataset: { authorId: a.id } },
      picture(a.avatar_url, { seed: a.id, cls: 'pic avatar big', initial: initial(a.nickname), label: a.nickname }),
      h('div', { class: 'grow' },
        h('h1', { class: 'page-title', id: 'author-name' }, a.nickname),
        a.is_author ? h('span', { class: 'tag author' }, t('author_badge')) : null,
        a.signature ? h('p', { class: 'author-signature' }, a.signature) : null,
        counts),
      a.is_author ? followButton(a, paint) : null));
  }, (error) => {
    if (error.status === 404) replace(page, backButton(), emptyBlock(t('author_missing')));
    else replace(head, errorBlock(error, () => navigate(`/author/${id}`)));
  });
  pagedList(articles, (p) => get(`/authors/${id}/articles`, { page: p, per_page: 10 }), (a) => articleItem(a), t('no_articles'));
}

// ---- article page ----

export function renderArticle(page, [id]) {
  page.append(loadingBlock());
  get(`/articles/${id}`).then((a) => showArticle(page, a), (error) => {
    // Like a missing product: say it is gone; a retry would only fail again.
    replace(page, backButton(), error.status === 404 ? emptyBlock(t('article_missing')) : errorBlock(error, () => navigate(`/article/${id}`)));
  });
}

function showArticle(page, a) {
  const like = h('button', { class: 'btn like-btn', type: 'button', id: 'like-btn' });
  const paintLike = () => {
    like.textContent = `${a.liked ? '♥' : '♡'} ${a.liked ? t('liked') : t('like')} ${a.likes_count}`;
    like.classList.toggle('primary', Boolean(a.liked));
    like.classList.toggle('ghost', !a.liked);
    like.setAttribute('aria-pressed', String(Boolean(a.liked)));
  };
  like.addEventListener('click', () => {
    if (!requireSignIn()) return;
    busy(like, async () => {
      if (a.liked) await del(`/articles/${a.id}/like`); else await post(`/articles/${a.id}/like`);
      a.likes_count = Math.max(0, a.likes_count + (a.liked ? -1 : 1));
      a.liked = !a.liked;
      paintLike();
    });
  });
  paintLike();

  const author = a.author || {};
  const commentsBox = h('div', { id: 'comments' });
  const commentsTitle = h('h2', { class: 'section-title' }, `${t('comments')} (${a.comments_count})`);
  replace(page,
    backButton(),
    h('article', { class: 'card article', id: 'article', dataset: { articleId: a.id } },
      picture(a.cover_url, { seed: a.id, cls: 'pic article-cover', label: a.title }),
      h('h1', { class: 'article-heading' }, a.title),
      h('div', { class: 'article-byline' },
        h('a', { class: 'byline-author', href: `#/author/${author.id}` },
          picture(author.avatar_url, { seed: author.id, cls: 'pic avatar small', initial: initial(author.nickname) }),
          h('span', null, author.nickname)),
        h('span', { class: 'muted small' }, `${dateOnly(a.published_at)} · ${t('views', { n: a.views })}`),
        followButton(author, null)),
      a.summary ? h('p', { class: 'article-lede' }, a.summary) : null,
      articleBody(a.content),
      h('div', { class: 'article-actions' }, like,
        h('button', { class: 'btn ghost', type: 'button', id: 'share-article', onClick: () => shareLink(`/share/articles/${a.id}`) }, t('share')))),
    h('section', { class: 'card' }, commentsTitle, commentsBox));
  showComments(commentsBox, a, (count) => { commentsTitle.textContent = `${t('comments')} (${count})`; });
}

function showComments(box, article, setCount) {
  let count = article.comments_count;
  let replyTo = null;
  // Writers of the comments shown so far, by comment id: a reply names whom it answers. Comments
  // come oldest first, so the one replied to is always known before its reply.
  const writers = new Map();
  const list = h('div', { class: 'comment-list', id: 'comment-list' });
  const more = h('button', { class: 'btn ghost wide', type: 'button', hidden: true }, t('load_more'));
  const replyChip = h('button', { class: 'chip reply-chip', type: 'button', hidden: true, onClick: () => { replyTo = null; replyChip.hidden = true; } });
  const text = h('textarea', { class: 'input', id: 'comment-text', rows: 2, maxlength: 500, placeholder: t('comment_placeholder') });
  const send = h('button', { class: 'btn primary', type: 'submit', id: 'comment-send' }, t('post_comment'));
  const form = h('form', { class: 'comment-form', id: 'comment-form' }, replyChip, text, send);
  box.append(list, more, form);

  function comment(c) {
    writers.set(c.id, c.user.nickname);
    const repliedTo = c.reply_to ? writers.get(c.reply_to) : null;
    const actions = [];
    if (isSignedIn()) {
      actions.push(h('button', { class: 'link small', type: 'button', onClick: () => {
        replyTo = c.id;
        replyChip.textContent = t('reply_to', { name: c.user.nickname }) + ' ×';
        replyChip.hidden = false;
        text.focus();
      } }, t('reply')));
    }
    if (isMe(c.user.id)) {
      const remove = h('button', { class: 'link small danger', type: 'button' }, t('delete'));
      remove.addEventListener('click', () => busy(remove, async () => {
        await del(`/comments/${c.id}`);
        node.remove();
        count = Math.max(0, count - 1);
        setCount(count);
      }));
      actions.push(remove);
    }
    const node = h('div', { class: 'comment', dataset: { commentId: c.id } },
      picture(c.user.avatar_url, { seed: c.user.id, cls: 'pic avatar small', initial: initial(c.user.nickname) }),
      h('div', { class: 'grow' },
        h('p', { class: 'comment-head small' }, h('strong', null, c.user.nickname), h('span', { class: 'muted' }, ' · ' + dateTime(c.created_at))),
        h('p', { class: 'comment-text' },
          repliedTo ? h('span', { class: 'reply-target' }, t('reply_to', { name: repliedTo })) : null, c.content),
        actions.length ? h('div', { class: 'comment-actions' }, actions) : null));
    return node;
  }

  let pageNo = 1;
  async function load() {
    const result = await get(`/articles/${article.id}/comments`, { page: pageNo, per_page: 20 });
    if (pageNo === 1) replace(list);
    list.append(...result.items.map(comment));
    if (result.total === 0) replace(list, h('p', { class: 'muted', id: 'no-comments' }, t('no_comments')));
    more.hidden = pageNo * 20 >= result.total;
  }
  more.addEventListener('click', () => busy(more, async () => { pageNo += 1; await load(); }));
  load().catch((error) => replace(list, errorBlock(error, null)));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!requireSignIn()) return;
    const content = text.value.trim();
    if (!content) { text.focus(); return; }
    busy(send, async () => {
      const body = { content };
      if (replyTo) body.reply_to = replyTo;
      const created = await post(`/articles/${article.id}/comments`, body);
      list.querySelector('#no-comments')?.remove();
      list.append(comment(created));
      text.value = '';
      replyTo = null;
      replyChip.hidden = true;
      count += 1;
      setCount(count);
      toast(t('comment_posted'));
    }, showError);
  });
}
