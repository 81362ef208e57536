// Products: search, each product with its SKUs, the price and stock edited in place (PATCH
// /admin/skus/{id}), on and off sale, and pictures uploaded to /media then set on the product.
import { get, patch, pageOf, uploadPicture } from './api.js';
import { h, replace, busy, confirmAction, errorBlock, loading, pager, select, badge, thumb, toast } from './dom.js';
import { t, label, money, yuan, yuanToCents } from './i18n.js';
import { LOW_STOCK } from './dashboard.js';

const PICTURE_TYPES = 'image/jpeg,image/png,image/webp';

function statusBadge(status) {
  return badge(label('product_status', status), status === 'on_sale' ? 'ok' : 'muted');
}

/** One SKU's price or stock, saved when changed (Enter or leaving the box). */
function editable(sku, key, product, ctx) {
  const isPrice = key === 'price_cents';
  const shown = () => (isPrice ? yuan(sku.price_cents) : String(sku.stock ?? ''));
  if (!ctx.may('catalog.write')) return h('span', { class: 'num' }, isPrice ? money(sku.price_cents) : shown());
  const input = h('input', { class: isPrice ? 'inline price' : 'inline stock', value: shown(), inputmode: isPrice ? 'decimal' : 'numeric',
    'aria-label': `${product.title} ${sku.name || ''} ${isPrice ? t('price') : t('stock')}`,
    dataset: { sku: String(sku.id), field: isPrice ? 'price' : 'stock' } });
  const save = async () => {
    if (input.value.trim() === shown()) return;
    let value;
    if (isPrice) {
      value = yuanToCents(input.value);
      if (value === null) { toast(t('price_invalid'), 'error'); input.value = shown(); return; }
    } else {
      if (!/^\s*\d{1,9}\s*$/.test(input.value)) { toast(t('stock_invalid'), 'error'); input.value = shown(); return; }
      value = Number(input.value);
    }
    input.classList.add('saving');
    const updated = await busy(input, async () => (await patch(`/admin/skus/${sku.id}`, { [isPrice ? 'price_cents' : 'stock']: value })) || {});
    input.classList.remove('saving');
    if (updated) {
      // The answer may be the SKU or its whole product; anything else leaves the value as sent.
      const fresh = Array.isArray(updated.skus) ? updated.skus.find((s) => String(s.id) === String(sku.id)) : updated;
      Object.assign(sku, fresh && fresh[key] !== undefined ? { [key]: fresh[key] } : { [key]: value });
      input.value = shown();
      input.classList.add('saved');
      toast(isPrice ? t('price_saved', { price: money(sku.price_cents) }) : t('stock_saved', { n: sku.stock }));
    } else {
      input.value = shown();
    }
  };
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); input.blur(); } });
  input.addEventListener('change', save);
  return input;
}

function skuTable(product, ctx) {
  const rows = product.skus || [];
  return h('table', { class: 'table skus' },
    h('thead', null, h('tr', null, [t('sku'), t('code'), t('price'), t('stock'), t('status')].map((title) => h('th', null, title)))),
    h('tbody', null, rows.map((sku) => h('tr', { class: Number(sku.stock) === 0 ? 'row-warn' : null, dataset: { skuRow: String(sku.id) } },
      h('td', { 'data-label': t('sku') }, sku.name || ''),
      h('td', { 'data-label': t('code'), class: 'muted' }, sku.code || ''),
      h('td', { 'data-label': t('price') }, editable(sku, 'price_cents', product, ctx)),
      h('td', { 'data-label': t('stock') }, editable(sku, 'stock', product, ctx)),
      h('td', { 'data-label': t('status') }, sku.status ? statusBadge(sku.status) : '', skuOnOffSale(sku, ctx))))));
}

/** One SKU on or off sale (the product and its other SKUs stay as they are). */
function skuOnOffSale(sku, ctx) {
  if (!ctx.may('catalog.write') || !sku.status) return null;
  const next = sku.status === 'on_sale' ? 'off_sale' : 'on_sale';
  return h('button', { class: 'btn tiny', type: 'button', dataset: { toggleSku: String(sku.id) },
    onClick: (event) => {
      const button = event.currentTarget;
      return busy(button, async () => {
        const changed = await patch(`/admin/skus/${sku.id}`, { status: next });
        sku.status = changed.status;
        toast(next === 'on_sale' ? t('put_on_sale_done') : t('taken_off_sale_done'));
        const cell = button.closest('td');
        if (cell) cell.replaceChildren(statusBadge(sku.status), skuOnOffSale(sku, ctx) || '');
      });
    } }, next === 'on_sale' ? t('put_on_sale') : t('take_off_sale'));
}

/** The product's pictures: the cover first; upload adds one, the owner of the row picks the cover. */
function pictures(product, ctx, refresh) {
  const urls = [...new Set([product.cover_url, ...(product.image_urls || [])].filter(Boolean))];
  const canWrite = ctx.may('catalog.write');
  const strip = h('div', { class: 'pictures' }, urls.map((url) => h('figure', { class: url === product.cover_url ? 'picture cover' : 'picture' },
    thumb(url, product.title),
    canWrite && url !== product.cover_url
      ? h('button', { class: 'btn tiny', type: 'button', onClick: (event) => busy(event.currentTarget, async () => {
        await patch(`/admin/products/${product.id}`, { cover_url: url });
        toast(t('cover_set'));
        refresh();
      }) }, t('make_cover'))
      : (url === product.cover_url ? h('figcaption', { class: 'muted small' }, t('cover')) : null))));
  if (!canWrite) return strip;
  const file = h('input', { type: 'file', accept: PICTURE_TYPES, class: 'file-input', dataset: { product: String(product.id) },
    onChange: async () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      await busy(file, async () => {
        const uploaded = await uploadPicture(chosen);
        const images = [...(product.image_urls || []), uploaded.url];
        await patch(`/admin/products/${product.id}`, product.cover_url ? { image_urls: images } : { image_urls: images, cover_url: uploaded.url });
        toast(t('picture_added'));
        refresh();
      });
      file.value = '';
    } });
  return h('div', { class: 'pictures-wrap' }, strip, h('label', { class: 'btn small upload' }, t('add_picture'), file));
}

function onOffSale(product, ctx, refresh) {
  if (!ctx.may('catalog.write')) return null;
  const next = product.status === 'on_sale' ? 'off_sale' : 'on_sale';
  const toggle = async () => {
    await patch(`/admin/products/${product.id}`, { status: next });
    toast(next === 'on_sale' ? t('put_on_sale_done') : t('taken_off_sale_done'));
    refresh();
  };
  return h('button', { class: next === 'off_sale' ? 'btn small danger-ghost' : 'btn small', type: 'button', dataset: { toggleSale: String(product.id) },
    onClick: (event) => (next === 'off_sale'
      ? confirmAction(t('confirm_off_sale', { title: product.title }), toggle)
      : busy(event.currentTarget, toggle)) },
  next === 'on_sale' ? t('put_on_sale') : t('take_off_sale'));
}

function productCard(product, ctx, refresh) {
  return h('article', { class: 'card product', dataset: { product: String(product.id) } },
    h('div', { class: 'product-head' },
      thumb(product.cover_url, product.title),
      h('div', { class: 'grow' },
        h('h3', { class: 'product-title' }, product.title),
        h('p', { class: 'muted small' }, [product.code, product.category && (product.category.name || product.category), product.category_path].filter(Boolean).join(' · '))),
      statusBadge(product.status),
      onOffSale(product, ctx, refresh)),
    skuTable(product, ctx),
    pictures(product, ctx, refresh));
}

/** The products screen; `ctx.args[0]` is a search to start with (from the dashboard's low stock). */
export async function products(ctx) {
  const state = { q: ctx.args[0] || '', status: '', lowStock: false, page: 1 };
  const list = h('div', { class: 'list', id: 'product-list' });
  const q = h('input', { id: 'product-q', type: 'search', value: state.q, placeholder: t('product_search_placeholder') });
  const status = select({ id: 'product-status' }, [['', t('all')], ['on_sale', label('product_status', 'on_sale')],
    ['off_sale', label('product_status', 'off_sale')]], state.status);
  const low = h('input', { type: 'checkbox', id: 'product-low' });
  const load = async () => {
    replace(list, loading());
    try {
      const page = pageOf(await get('/admin/products', { q: state.q, status: state.status, low_stock: state.lowStock ? LOW_STOCK : '',
        page: state.page, per_page: 20 }, { feature: true }));
      if (!ctx.alive()) return;
      replace(list, page.items.length ? page.items.map((p) => productCard(p, ctx, load)) : h('p', { class: 'empty' }, t('no_products')),
        pager(page, (n) => { state.page = n; load(); }));
    } catch (error) {
      replace(list, errorBlock(error, load));
    }
  };
  const search = (event) => {
    event.preventDefault();
    Object.assign(state, { q: q.value.trim(), status: status.value, lowStock: low.checked, page: 1 });
    load();
  };
  load();
  return h('div', { class: 'page' },
    h('h1', { class: 'page-title' }, t('menu_products')),
    h('form', { class: 'filters', role: 'search', onSubmit: search },
      q, status, h('label', { class: 'check' }, low, t('low_stock_only')),
      h('button', { class: 'btn primary', type: 'submit', id: 'product-search' }, t('search'))),
    list);
}

