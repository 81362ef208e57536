// 商城: search with live suggestions and hot keywords, the category tree, sorted and filtered
// product lists with counts per category and price range (facets), and the product page with SKU
// choice and add-to-cart.
import { t, money, yuanToCents } from './i18n.js';
import { get, post, put, del } from './api.js';
import { h, replace, picture, toast, showError, busy, debounce, loadingBlock, emptyBlock, errorBlock } from './dom.js';
import { ui, requireSignIn, setCartCount, navigate } from './state.js';
import { showNotice } from './shopinfo.js';

const PER_PAGE = 20;
let categoriesPromise = null;

function categories() {
  if (!categoriesPromise) {
    categoriesPromise = get('/categories').then((r) => r.items || []).catch((error) => { categoriesPromise = null; throw error; });
  }
  return categoriesPromise;
}

function findCategory(tree, id, parent = null) {
  for (const node of tree) {
    if (node.id === id) return { node, parent };
    const found = findCategory(node.children || [], id, node);
    if (found) return found;
  }
  return null;
}

export function productCard(p) {
  const onSale = p.original_price_cents > p.price_cents;
  return h('a', { class: 'card product-card', href: `#/product/${p.id}`, dataset: { productId: p.id } },
    h('div', { class: 'product-pic-wrap' },
      picture(p.cover_thumbnail_url || p.cover_url, { seed: p.id, cls: 'pic product-pic', label: p.title }),
      p.in_stock ? null : h('span', { class: 'tag sold-out' }, t('sold_out'))),
    h('div', { class: 'product-info' },
      h('h3', { class: 'product-title' }, p.title),
      p.subtitle ? h('p', { class: 'product-subtitle' }, p.subtitle) : null,
      h('div', { class: 'price-row' },
        h('span', { class: 'price' }, money(p.price_cents)),
        onSale ? h('del', { class: 'original-price' }, money(p.original_price_cents)) : null),
      h('p', { class: 'muted small' }, t('sold', { n: p.sales }))));
}

export function renderShop(page) {
  const s = ui.shop;
  const input = h('input', {
    id: 'search-input', class: 'search-input', type: 'search', value: s.q, placeholder: t('search_placeholder'),
    autocomplete: 'off', enterkeyhint: 'search', 'aria-label': t('search'), 'aria-autocomplete': 'list',
    'aria-controls': 'suggestions',
  });
  const suggestionList = h('ul', { id: 'suggestions', class: 'suggestions', role: 'listbox', hidden: true });
  const form = h('form', { id: 'search-form', class: 'search', role: 'search' },
    h('span', { class: 'search-icon', 'aria-hidden': 'true' }), input,
    h('button', { class: 'btn primary search-btn', type: 'submit', id: 'search-btn' }, t('search')),
    suggestionList);
  const hot = h('div', { id: 'hot-keywords', class: 'hot' });
  const categoryRow = h('div', { id: 'categories', class: 'chips scroll-x' });
  const subcategoryRow = h('div', { id: 'subcategories', class: 'chips scroll-x sub', hidden: true });
  const priceRangeRow = h('div', { id: 'price-ranges', class: 'chips scroll-x sub', role: 'group', 'aria-label': t('price_ranges'), hidden: true });

  const sortSelect = h('select', { id: 'sort', class: 'select', 'aria-label': t('sort') });
  const minInput = h('input', { id: 'price-min', class: 'input', inputmode: 'decimal', placeholder: t('price_min'), value: s.min, 'aria-label': t('price_min') });
  const maxInput = h('input', { id: 'price-max', class: 'input', inputmode: 'decimal', placeholder: t('price_max'), value: s.max, 'aria-label': t('price_max') });
  const priceError = h('p', { id: 'price-error', class: 'form-error', role: 'alert', hidden: true });
  const pricePanel = h('form', { id: 'price-panel', class: 'price-panel', hidden: !(s.min || s.max), novalidate: true },
    minInput, h('span', { class: 'dash' }, '–'), maxInput,
    h('button', { class: 'btn primary small', type: 'submit', id: 'price-apply' }, t('apply')),
    h('button', { class: 'btn ghost small', type: 'button', id: 'price-clear', onClick: () => setPrice('', '') }, t('clear')),
    priceError);
  const priceToggle = h('button', { class: 'btn ghost small filter-toggle', type: 'button', id: 'price-toggle',
    'aria-expanded': String(!pricePanel.hidden), onClick: () => {
      pricePanel.hidden = !pricePanel.hidden;
      priceToggle.setAttribute('aria-expanded', String(!pricePanel.hidden));
      if (!pricePanel.hidden) minInput.focus();
    } }, t('price_filter'));
  const summary = h('p', { id: 'result-summary', class: 'summary muted' });
  const grid = h('div', { id: 'product-grid', class: 'grid', 'aria-live': 'polite' });
  const more = h('button', { id: 'load-more', class: 'btn ghost wide', type: 'button', hidden: true }, t('load_more'));

  page.append(
    h('div', { class: 'hero' }, h('p', { class: 'hero-title' }, t('hero'))),
    form, hot, categoryRow, subcategoryRow, priceRangeRow,
    h('div', { class: 'toolbar' }, sortSelect, priceToggle), pricePanel,
    summary, grid, more);

  // ---- sort ----
  function fillSort() {
    const options = s.q ? ['relevance', 'newest', 'price_asc', 'price_desc', 'sales'] : ['newest', 'price_asc', 'price_desc', 'sales'];
    if (!options.includes(s.sort)) s.sort = options[0];
    replace(sortSelect, options.map((o) => h('option', { value: o, selected: o === s.sort }, t('sort_' + o))));
  }
  sortSelect.addEventListener('change', () => { s.sort = sortSelect.value; reload(); });

  // ---- price filter ----
  /** Says what is wrong with the range beside the inputs (null clears it); the list is left alone. */
  function showPriceError(message, input) {
    for (const el of [minInput, maxInput]) el.removeAttribute('aria-invalid');
    priceError.textContent = message || '';
    priceError.hidden = !message;
    if (!message) return;
    pricePanel.hidden = false;
    priceToggle.setAttribute('aria-expanded', 'true');
    if (input) input.setAttribute('aria-invalid', 'true');
  }
  pricePanel.addEventListener('submit', (event) => {
    event.preventDefault();
    const min = minInput.value.trim();
    const max = maxInput.value.trim();
    if (min && yuanToCents(min) === null) { showPriceError(t('price_invalid'), minInput); return; }
    if (max && yuanToCents(max) === null) { showPriceError(t('price_invalid'), maxInput); return; }
    if (min && max && yuanToCents(min) > yuanToCents(max)) { showPriceError(t('price_range_invalid'), minInput); return; }
    setPrice(min, max);
  });
  /** Applies a price range (yuan text, '' for no bound) and reloads the list. */
  function setPrice(min, max) {
    s.min = min; s.max = max;
    minInput.value = min; maxInput.value = max;
    showPriceError(null);
    reload();
  }

  // ---- search and suggestions ----
  let suggestionSeq = 0;
  let activeSuggestion = -1;
  function hideSuggestions() { suggestionList.hidden = true; activeSuggestion = -1; input.setAttribute('aria-expanded', 'false'); }
  function search(term) {
    s.q = term.trim();
    input.value = s.q;
    hideSuggestions();
    input.blur();
    s.sort = s.q ? 'relevance' : 'newest';
    reload().then(loadHot);
  }
  const suggest = debounce(async () => {
    const q = input.value.trim();
    const seq = ++suggestionSeq;
    if (!q) { hideSuggestions(); return; }
    let items = [];
    try { items = (await get('/search/suggestions', { q })).items || []; } catch { items = []; }
    if (seq !== suggestionSeq || document.activeElement !== input) return;
    replace(suggestionList, items.map((term, i) => h('li', {
      class: 'suggestion', role: 'option', id: `suggestion-${i}`, dataset: { term },
      onMousedown: (event) => event.preventDefault(),
      onClick: () => search(term),
    }, term)));
    suggestionList.hidden = items.length === 0;
    input.setAttribute('aria-expanded', String(items.length > 0));
  }, 160);
  input.addEventListener('input', suggest);
  input.addEventListener('focus', () => { if (input.value.trim()) suggest(); });
  input.addEventListener('blur', () => setTimeout(hideSuggestions, 120));
  input.addEventListener('keydown', (event) => {
    const options = [...suggestionList.querySelectorAll('.suggestion')];
    if (event.key === 'Escape') { hideSuggestions(); return; }
    if (suggestionList.hidden || !options.length || !['ArrowDown', 'ArrowUp'].includes(event.key)) return;
    event.preventDefault();
    activeSuggestion = (activeSuggestion + (event.key === 'ArrowDown' ? 1 : -1) + options.length) % options.length;
    options.forEach((o, i) => o.classList.toggle('active', i === activeSuggestion));
    input.value = options[activeSuggestion].dataset.term;
  });
  form.addEventListener('submit', (event) => { event.preventDefault(); search(input.value); });

  async function loadHot() {
    try {
      const items = (await get('/search/hot')).items || [];
      replace(hot, items.length ? [h('span', { class: 'hot-label' }, t('hot_searches')),
        items.map((k) => h('button', { class: 'chip hot-chip', type: 'button', onClick: () => search(k.keyword) }, k.keyword))] : null);
    } catch {
      replace(hot);
    }
  }

  // ---- facets: how many of the list's products each category and price range holds ----
  // From page 1's `facets` (the server counts each dimension without its own filter, so the
  // other categories and ranges keep their counts while one is picked); null until it arrives.
  let facets = null;
  /** The count on a category's chip (it and the categories under it), null before the facets arrive. */
  function categoryCount(id) {
    if (!facets) return null;
    const found = facets.categories.find((c) => c.id === id);
    return found ? found.count : 0;
  }
  /** "¥100–200" for 10000…19999 cents: the ends as a shopper says them. */
  function rangeLabel(range) {
    const yuan = (cents) => String(cents / 100);
    if (range.max_cents === null) return t('price_from', { min: yuan(range.min_cents) });
    if (range.min_cents === 0) return t('price_under', { max: yuan(range.max_cents + 1) });
    return t('price_between', { min: yuan(range.min_cents), max: yuan(range.max_cents + 1) });
  }
  /** Cents as yuan text for the price inputs: "199.99", "500". */
  function yuanText(cents) {
    return cents % 100 ? `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` : String(cents / 100);
  }
  /** A filter chip: its name, then its count once the facets say it; an empty one is hidden unless picked or `keep`. */
  function filterChip(label, count, active, keep, attributes) {
    return h('button', {
      class: 'chip' + (active ? ' active' : ''), type: 'button', 'aria-pressed': String(active),
      hidden: count === 0 && !active && !keep, ...attributes,
    }, h('span', { class: 'chip-name' }, label), count === null ? null : h('span', { class: 'chip-count' }, String(count)));
  }
  function fillPriceRanges() {
    const ranges = facets ? facets.price_ranges : [];
    const min = s.min ? yuanToCents(s.min) : 0;
    const max = s.max ? yuanToCents(s.max) : null;
    priceRangeRow.hidden = ranges.length === 0;
    replace(priceRangeRow, ranges.map((range) => {
      const active = min === range.min_cents && max === range.max_cents;
      return filterChip(rangeLabel(range), range.count, active, false, {
        dataset: { minCents: range.min_cents, maxCents: range.max_cents ?? '' },
        // Picked again, a range is cleared; the first range needs no minimum, the last no maximum.
        onClick: () => (active ? setPrice('', '')
          : setPrice(range.min_cents ? yuanText(range.min_cents) : '', range.max_cents === null ? '' : yuanText(range.max_cents))),
      });
    }));
  }

  // ---- categories ----
  async function fillCategories() {
    let tree;
    try { tree = await categories(); } catch { replace(categoryRow); return; }
    const found = s.categoryId ? findCategory(tree, s.categoryId) : null;
    const top = found ? (found.parent && tree.includes(found.parent) ? found.parent : found.node) : null;
    const chip = (label, id, active, count, keep = false) => filterChip(label, count, active, keep, {
      dataset: { categoryId: id ?? '' },
      onClick: () => { s.categoryId = id; fillCategories(); reload(); },
    });
    // Every product is under exactly one top category: theirs add up to the whole list.
    const all = facets ? tree.reduce((sum, c) => sum + categoryCount(c.id), 0) : null;
    replace(categoryRow, chip(t('all_categories'), null, !s.categoryId, all, true),
      tree.map((c) => chip(c.name, c.id, top && top.id === c.id, categoryCount(c.id))));
    const children = top ? top.children || [] : [];
    subcategoryRow.hidden = children.length === 0;
    replace(subcategoryRow, children.length ? [chip(t('all_categories'), top.id, s.categoryId === top.id, categoryCount(top.id), true),
      children.map((c) => chip(c.name, c.id, s.categoryId === c.id, categoryCount(c.id)))] : null);
  }

  // ---- products ----
  let pageNo = 1;
  let listSeq = 0;
  async function load(reset) {
    const seq = ++listSeq;
    if (reset) { pageNo = 1; replace(grid, loadingBlock()); more.hidden = true; }
    const query = {
      q: s.q || null, category_id: s.categoryId, sort: s.sort,
      min_price_cents: s.min ? yuanToCents(s.min) : null, max_price_cents: s.max ? yuanToCents(s.max) : null,
      page: pageNo, per_page: PER_PAGE, facets: reset ? true : null,
    };
    try {
      const result = await get('/products', query);
      if (seq !== listSeq) return;
      if (reset) replace(grid);
      grid.append(...result.items.map(productCard));
      if (result.facets) { facets = result.facets; fillCategories(); fillPriceRanges(); }
      summary.textContent = s.q ? t('results_for', { q: s.q, n: result.total }) : t('results_count', { n: result.total });
      if (result.total === 0) replace(grid, emptyBlock(s.q ? t('no_products') : t('no_products_filtered')));
      more.hidden = pageNo * PER_PAGE >= result.total;
    } catch (error) {
      if (seq !== listSeq) return;
      // The server refused the price range (400 on min/max_price_cents): say so at the inputs.
      if (error.status === 400 && /^(min|max)_price_cents$/.test(error.field || '')) {
        summary.textContent = '';
        replace(grid);
        showPriceError(t('price_range_invalid'), error.field === 'max_price_cents' ? maxInput : minInput);
        return;
      }
      if (reset) replace(grid, errorBlock(error, () => load(true))); else showError(error);
    }
  }
  function reload() { fillSort(); return load(true); }
  more.addEventListener('click', () => busy(more, async () => { pageNo += 1; await load(false); }));

  fillSort();
  loadHot();
  fillCategories();
  load(true);
}

// ---- product page ----

export function renderProduct(page, [id]) {
  page.append(loadingBlock());
  get(`/products/${id}`).then((p) => showProduct(page, p), (error) => {
    replace(page, backLink(), error.status === 404 ? emptyBlock(t('product_missing')) : errorBlock(error, () => navigate(`/product/${id}`)));
  });
}

function backLink() {
  return h('button', { class: 'back', type: 'button', id: 'back', onClick: () => {
    if (history.length > 1) history.back(); else navigate('/shop');
  } }, t('back'));
}

/**
 * The product's pictures: swiped on a phone (scroll snapping), and on any screen ‹ › arrows,
 * ←/→ keys and a strip of thumbnails (the list-size thumbnails the API names) to reach each one.
 */
function gallery(p) {
  const thumbs = new Map([[p.cover_url, p.cover_thumbnail_url || p.cover_url]]);
  (p.images || []).forEach((url, i) => thumbs.set(url, (p.image_thumbnail_urls || [])[i] || url));
  const urls = [...new Set([p.cover_url, ...(p.images || [])].filter(Boolean))];
  const many = urls.length > 1;
  const counter = h('span', { class: 'gallery-count', id: 'gallery-count', 'aria-live': 'polite' }, many ? `1/${urls.length}` : '');
  const strip = h('div', { class: 'gallery', id: 'gallery', tabindex: many ? 0 : null, 'aria-label': p.title, 'aria-roledescription': 'carousel' },
    (urls.length ? urls : ['']).map((url, i) => picture(url, { seed: p.id + i, cls: 'pic gallery-pic', label: `${p.title} ${i + 1}/${urls.length}` })));
  let index = 0;
  const arrow = (step, cls, text, label) => h('button', { class: `gallery-arrow ${cls}`, type: 'button', 'aria-label': label, title: label,
    hidden: !many, onClick: () => go(index + step) }, text);
  const prev = arrow(-1, 'gallery-prev', '‹', t('gallery_previous'));
  const next = arrow(1, 'gallery-next', '›', t('gallery_next'));
  const thumbButtons = many ? urls.map((url, i) => h('button', {
    class: 'gallery-thumb', type: 'button', dataset: { index: i }, 'aria-label': t('gallery_picture', { n: i + 1 }),
    onClick: () => go(i),
  }, picture(thumbs.get(url) || url, { seed: p.id + i, cls: 'pic gallery-thumb-pic' }))) : [];

  /** Shows the picture at `i` (wrapping at either end), as a swipe would. */
  function go(i) {
    const target = (i + urls.length) % urls.length;
    strip.scrollTo({ left: target * strip.clientWidth, behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    mark(target);
  }
  function mark(i) {
    index = i;
    if (many) counter.textContent = `${i + 1}/${urls.length}`;
    thumbButtons.forEach((b, n) => {
      b.classList.toggle('active', n === i);
      b.setAttribute('aria-current', String(n === i));
    });
  }
  let settle = null;
  strip.addEventListener('scroll', () => {
    clearTimeout(settle);
    settle = setTimeout(() => mark(Math.round(strip.scrollLeft / Math.max(1, strip.clientWidth))), 60);
  }, { passive: true });
  // ←/→ anywhere on the product page (not while typing), for as long as the gallery is shown.
  const onKey = (event) => {
    if (!strip.isConnected) { document.removeEventListener('keydown', onKey); return; }
    if (!many || event.altKey || event.ctrlKey || event.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test((event.target && event.target.tagName) || '')) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      go(index + (event.key === 'ArrowRight' ? 1 : -1));
    }
  };
  document.addEventListener('keydown', onKey);
  mark(0);
  return [h('div', { class: 'gallery-stage' }, strip, prev, next, counter),
    many ? h('div', { class: 'gallery-thumbs', id: 'gallery-thumbs' }, thumbButtons) : null];
}

function showProduct(page, p) {
  const skus = p.skus || [];
  let chosen = skus.find((sku) => sku.stock > 0) || null;
  let quantity = 1;
  const price = h('span', { class: 'price big', id: 'product-price' });
  const original = h('del', { class: 'original-price', id: 'product-original-price' });
  const stock = h('span', { class: 'muted small', id: 'sku-stock' });
  const qtyInput = h('input', { id: 'product-qty', class: 'qty-input', type: 'number', min: 1, max: 99, value: '1', inputmode: 'numeric', 'aria-label': t('quantity') });
  const notice = h('p', { id: 'product-notice', class: 'notice', role: 'alert', hidden: true });
  const skuButtons = skus.map((sku) => h('button', {
    class: 'sku', type: 'button', disabled: sku.stock <= 0, dataset: { skuId: sku.id },
    onClick: () => { chosen = sku; update(); },
  }, h('span', { class: 'sku-name' }, sku.name),
  h('span', { class: 'sku-price' }, money(sku.price_cents), ' ',
    sku.original_price_cents > sku.price_cents ? h('del', { class: 'original-price' }, money(sku.original_price_cents)) : null)));

  function update() {
    const cents = chosen ? chosen.price_cents : p.price_cents;
    const list = chosen ? chosen.original_price_cents : p.original_price_cents;
    price.textContent = money(cents) + (chosen ? '' : ' ' + t('from_price'));
    original.textContent = list > cents ? money(list) : '';
    stock.textContent = chosen ? t('stock_left', { n: chosen.stock }) : '';
    for (const button of skuButtons) {
      const on = chosen && Number(button.dataset.skuId) === chosen.id;
      button.classList.toggle('active', Boolean(on));
      button.setAttribute('aria-pressed', String(Boolean(on)));
    }
    qtyInput.value = String(quantity);
  }
  const setQuantity = (n) => { quantity = Math.max(1, Math.min(99, Number.isInteger(n) ? n : 1)); update(); };
  qtyInput.addEventListener('change', () => setQuantity(parseInt(qtyInput.value, 10)));

  const addButton = h('button', { class: 'btn primary grow', type: 'button', id: 'add-to-cart', disabled: !p.in_stock }, p.in_stock ? t('add_to_cart') : t('sold_out'));
  addButton.addEventListener('click', () => {
    if (!chosen) { toast(t('please_choose_sku'), 'error'); return; }
    if (!requireSignIn()) return;
    notice.hidden = true;
    busy(addButton, async () => {
      const cart = await post('/cart/items', { sku_id: chosen.id, quantity });
      setCartCount(cart.total_quantity);
      toast(t('added_to_cart'));
    }, (error) => showNotice(notice, error));
  });

  const attributes = Object.entries(p.attributes || {});
  const details = [
    h('article', { class: 'card product-detail', id: 'product-detail', dataset: { productId: p.id } },
      h('div', { class: 'price-row' }, price, original, h('span', { class: 'muted small push' }, t('sold', { n: p.sales })),
        favoriteButton(p, 'products', 'favorite-product'),
        h('button', { class: 'share-link', type: 'button', id: 'share-product', onClick: () => shareLink(`/share/products/${p.id}`) }, t('share'))),
      h('h1', { class: 'product-name', id: 'product-title' }, p.title),
      p.subtitle ? h('p', { class: 'muted' }, p.subtitle) : null),
    skus.length ? h('section', { class: 'card' },
      h('h2', { class: 'section-title' }, t('choose_sku')),
      h('div', { class: 'sku-list', id: 'sku-list' }, skuButtons),
      h('div', { class: 'qty-row' },
        h('span', null, t('quantity')),
        h('div', { class: 'stepper' },
          h('button', { class: 'step', type: 'button', 'aria-label': '-', onClick: () => setQuantity(quantity - 1) }, '−'),
          qtyInput,
          h('button', { class: 'step', type: 'button', 'aria-label': '+', onClick: () => setQuantity(quantity + 1) }, '+')),
        stock)) : null,
    attributes.length ? h('section', { class: 'card' },
      h('h2', { class: 'section-title' }, t('attributes')),
      h('dl', { class: 'attributes' }, attributes.map(([key, value]) => [h('dt', null, key),
        h('dd', null, typeof value === 'string' ? value : JSON.stringify(value))]))) : null,
    p.description ? h('section', { class: 'card' }, h('h2', { class: 'section-title' }, t('details')), h('p', { class: 'description' }, p.description)) : null,
    h('div', { class: 'action-bar', id: 'action-bar' },
      notice,
      h('a', { class: 'btn ghost', href: '#/cart', id: 'go-to-cart' }, t('go_to_cart')),
      addButton),
  ];
  // A phone shows one column; a desktop the gallery beside the details (see .product-layout).
  replace(page, h('div', { class: 'product-layout' },
    h('div', { class: 'gallery-wrap' }, gallery(p), h('div', { class: 'floating-back' }, backLink())),
    h('div', { class: 'product-info' }, details)));
  update();
}

/// Copies the link a chat app previews (the shop's /share page) to the clipboard, or shows it.
export async function shareLink(path) {
  const url = location.origin + path;
  try {
    await navigator.clipboard.writeText(url);
    toast(t('share_copied'));
  } catch {
    window.prompt(t('share_copy_manually'), url);
  }
}

/// ♡/♥ 收藏 for a product or article (`kind`: products | articles); signing in first if needed.
export function favoriteButton(item, kind, id) {
  const button = h('button', { class: 'share-link fav-link', type: 'button', id });
  const show = () => {
    const count = kind === 'products' ? ` ${item.favorites_count ?? 0}` : '';
    button.textContent = `${item.is_favorite ? '♥' : '♡'} ${item.is_favorite ? t('favorited') : t('favorite')}${count}`;
    button.setAttribute('aria-pressed', String(Boolean(item.is_favorite)));
  };
  button.addEventListener('click', () => {
    if (!requireSignIn()) return;
    busy(button, async () => {
      const path = `/favorites/${kind}/${item.id}`;
      const state = item.is_favorite ? await del(path) : await put(path);
      item.is_favorite = state.is_favorite;
      if (state.favorites_count !== undefined) item.favorites_count = state.favorites_count;
      show();
      toast(item.is_favorite ? t('favorite_added') : t('favorite_removed'));
    });
  });
  show();
  return button;
}

/// 我的收藏: favourite products (a grid) and articles (a list), newest first.
export function renderFavorites(page) {
  if (!requireSignIn()) return;
  const products = h('div', { class: 'grid', id: 'favorite-products' }, loadingBlock());
  const articles = h('div', { class: 'card', id: 'favorite-articles' }, loadingBlock());
  replace(page,
    backLink(),
    h('h1', { class: 'section-title' }, t('favorites_title')),
    h('h2', { class: 'section-title' }, t('favorite_products')), products,
    h('h2', { class: 'section-title' }, t('favorite_articles')), articles);
  get('/favorites/products', { per_page: 50 }).then((result) => {
    replace(products, result.items.length ? result.items.map(productCard) : emptyBlock(t('no_favorites')));
  }, (error) => replace(products, errorBlock(error, () => navigate('/favorites'))));
  get('/favorites/articles', { per_page: 50 }).then((result) => {
    replace(articles, result.items.length
      ? result.items.map((a) => h('a', { class: 'favorite-article', href: `#/article/${a.id}` }, a.title))
      : emptyBlock(t('no_favorites')));
  }, (error) => replace(articles, errorBlock(error, () => navigate('/favorites'))));
}
