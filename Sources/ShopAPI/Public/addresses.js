// 地址: the address book, its default, add, edit and delete. The region picker (province → city →
// district selects over GET /regions) fills region_code; typing the names by hand still works.
import { t } from './i18n.js';
import { get, post, patch, del } from './api.js';
import { h, replace, toast, showError, busy, loadingBlock, emptyBlock, errorBlock } from './dom.js';
import { ui, isSignedIn, navigate } from './state.js';

export function renderAddresses(page, params, query) {
  const fromCheckout = query.get('from') === 'checkout';
  const addButton = h('button', { class: 'btn primary small', type: 'button', id: 'add-address' }, '+ ' + t('add_address'));
  page.append(h('h1', { class: 'page-title' }, t('addresses_title'), isSignedIn() ? addButton : null));
  if (!isSignedIn()) {
    page.append(emptyBlock(t('sign_in_to_see'), h('a', { class: 'btn primary', href: '#/account', onClick: () => { ui.returnTo = '/addresses'; } }, t('sign_in'))));
    return;
  }
  const formBox = h('div', { id: 'address-form-box' });
  const list = h('div', { id: 'address-list' }, loadingBlock());
  page.append(formBox, list);

  function openForm(address) {
    replace(formBox, addressForm(address, async (saved) => {
      replace(formBox);
      toast(t('address_saved'));
      if (fromCheckout) navigate('/checkout'); else load();
      return saved;
    }, () => replace(formBox)));
    formBox.querySelector('input').focus();
  }
  addButton.addEventListener('click', () => openForm(null));

  function card(a) {
    const remove = h('button', { class: 'link danger', type: 'button' }, t('delete'));
    let armed = false;
    remove.addEventListener('click', () => {
      if (!armed) { armed = true; remove.textContent = t('confirm_delete'); setTimeout(() => { armed = false; if (remove.isConnected) remove.textContent = t('delete'); }, 3000); return; }
      busy(remove, async () => { await del(`/addresses/${a.id}`); toast(t('address_deleted')); load(); });
    });
    const makeDefault = a.is_default ? null : h('button', { class: 'link', type: 'button', onClick: (event) => busy(event.currentTarget, async () => {
      await post(`/addresses/${a.id}/default`);
      load();
    }) }, t('set_default'));
    return h('div', { class: 'card address-card' + (a.is_default ? ' is-default' : ''), dataset: { addressId: a.id } },
      h('div', { class: 'address-head' }, h('strong', null, a.recipient), h('span', { class: 'muted' }, a.phone),
        a.is_default ? h('span', { class: 'tag default-tag' }, t('default')) : null),
      h('p', { class: 'address-text' }, `${a.province} ${a.city} ${a.district} ${a.detail}`, a.postal_code ? ` (${a.postal_code})` : ''),
      h('div', { class: 'address-actions' }, makeDefault,
        h('button', { class: 'link', type: 'button', onClick: () => openForm(a) }, t('edit')), remove));
  }

  async function load() {
    try {
      const items = (await get('/addresses')).items || [];
      replace(list, items.length ? items.map(card) : emptyBlock(t('no_addresses')));
      if (!items.length && !formBox.firstChild) openForm(null);
    } catch (error) {
      replace(list, errorBlock(error, load));
    }
  }
  load();
}

function addressForm(address, onSaved, onCancel) {
  const a = address || {};
  const input = (name, label, props = {}) => {
    const el = h('input', { class: 'input', name, id: `address-${name.replace('_', '-')}`, value: a[name] || '', ...props });
    return [el, h('label', { class: 'field' }, h('span', { class: 'field-label' }, label), el)];
  };
  const [recipient, recipientField] = input('recipient', t('recipient'), { required: true, maxlength: 20, autocomplete: 'name' });
  const [phone, phoneField] = input('phone', t('phone'), { required: true, type: 'tel', inputmode: 'numeric', maxlength: 16, autocomplete: 'tel' });
  const [province, provinceField] = input('province', t('province'), { autocomplete: 'address-level1' });
  const [city, cityField] = input('city', t('city'), { autocomplete: 'address-level2' });
  const [district, districtField] = input('district', t('district'), { autocomplete: 'address-level3' });
  // A new address, or one filled from a code, starts with the picker; one typed by hand keeps its text.
  const picker = regionPicker(address ? a.region_code || null : undefined);
  const typed = h('div', { class: 'row3', id: 'address-typed' }, provinceField, cityField, districtField);
  const toggle = h('button', { class: 'link', type: 'button', id: 'address-region-toggle' });
  let byCode = !address || Boolean(a.region_code);
  function showMode() {
    picker.box.hidden = !byCode;
    typed.hidden = byCode;
    for (const el of [province, city, district]) el.required = !byCode;
    toggle.textContent = byCode ? t('region_type_instead') : t('region_pick_instead');
  }
  toggle.addEventListener('click', () => {
    byCode = !byCode;
    if (!byCode && picker.names()) {
      const names = picker.names();
      province.value = names.province; city.value = names.city; district.value = names.district;
    }
    showMode();
  });
  showMode();
  const [detail, detailField] = input('detail', t('detail'), { required: true, maxlength: 120, autocomplete: 'street-address' });
  const [postal, postalField] = input('postal_code', t('postal_code'), { inputmode: 'numeric', maxlength: 6, autocomplete: 'postal-code' });
  const isDefault = h('input', { type: 'checkbox', class: 'check', name: 'is_default', id: 'address-default', checked: Boolean(a.is_default) });
  const save = h('button', { class: 'btn primary', type: 'submit', id: 'address-save' }, t('save'));
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const form = h('form', { class: 'card form address-form', id: 'address-form' },
    h('h2', { class: 'section-title' }, address ? t('edit_address') : t('add_address')),
    recipientField, phoneField,
    picker.box, typed, toggle,
    detailField, postalField,
    h('label', { class: 'check-label' }, isDefault, t('make_default')),
    error,
    h('div', { class: 'form-actions' }, h('button', { class: 'btn ghost', type: 'button', onClick: onCancel }, t('cancel')), save));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    error.hidden = true;
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    busy(save, async () => {
      const body = { recipient: recipient.value.trim(), phone: phone.value.trim(), detail: detail.value.trim(), is_default: isDefault.checked };
      if (byCode) {
        const code = picker.code();
        if (!code) throw Object.assign(new Error(t('region_pick_leaf')), { field: 'region_code' });
        body.region_code = code;
      } else {
        Object.assign(body, { province: province.value.trim(), city: city.value.trim(), district: district.value.trim() });
      }
      if (postal.value.trim()) body.postal_code = postal.value.trim();
      const saved = address ? await patch(`/addresses/${address.id}`, body) : await post('/addresses', body);
      await onSaved(saved);
    }, (e) => {
      error.textContent = e.message;
      error.hidden = false;
      const target = e.field && form.querySelector(`[name="${CSS.escape(e.field)}"]`);
      if (target) target.setAttribute('aria-invalid', 'true');
      showError(e);
    });
  });
  return form;
}

/**
 * Three selects over GET /regions: a province, then its cities, then the city's districts. A
 * division with no children (东莞市, 济源市, a district) ends the chain and is the code sent.
 * `initial`: the code of the address being edited (its province and city are found by code, as
 * GB/T 2260 nests them: province XX0000, then the province's child that is the code or XXYY00).
 */
function regionPicker(initial) {
  const select = (level, label) => {
    const el = h('select', { class: 'select', name: level === 'district' ? 'region_code' : `region_${level}`, id: `address-region-${level}` });
    return [el, h('label', { class: 'field', id: `address-region-${level}-field` }, h('span', { class: 'field-label' }, label), el)];
  };
  const [province, provinceField] = select('province', t('province'));
  const [city, cityField] = select('city', t('city'));
  const [district, districtField] = select('district', t('district'));
  const box = h('div', { class: 'row3', id: 'address-region' }, provinceField, cityField, districtField);
  const children = new Map();
  let turn = 0;

  async function load(parent) {
    if (!children.has(parent)) children.set(parent, (await get('/regions', parent ? { parent } : undefined, { auth: false })).items || []);
    return children.get(parent);
  }
  function fill(el, items, prompt, chosen) {
    replace(el, h('option', { value: '' }, prompt), items.map((r) => h('option', { value: r.code, selected: r.code === chosen }, r.name)));
    el.disabled = false;
  }
  function reset(el, field) { replace(el); el.disabled = true; field.hidden = false; }
  // Each change starts a turn; an answer that arrives after a newer change is dropped.
  async function chooseProvince(code, cityCode, districtCode) {
    const mine = ++turn;
    reset(city, cityField); reset(district, districtField);
    if (!code) return;
    const items = await load(code);
    if (mine !== turn) return;
    fill(city, items, t('region_choose'), cityCode);
    if (cityCode) await chooseCity(cityCode, districtCode, mine);
  }
  async function chooseCity(code, districtCode, mine = ++turn) {
    reset(district, districtField);
    if (!code) return;
    const items = await load(code);
    if (mine !== turn) return;
    if (!items.length) { districtField.hidden = true; return; }
    fill(district, items, t('region_choose'), districtCode);
  }
  province.addEventListener('change', () => chooseProvince(province.value).catch(showError));
  city.addEventListener('change', () => chooseCity(city.value).catch(showError));

  (async () => {
    fill(province, await load(null), t('region_choose'), initial ? initial.slice(0, 2) + '0000' : null);
    reset(city, cityField); reset(district, districtField);
    if (!initial) return;
    const cities = await load(province.value);
    const cityCode = (cities.find((r) => r.code === initial) || cities.find((r) => r.code === initial.slice(0, 4) + '00') || {}).code;
    if (cityCode) await chooseProvince(province.value, cityCode, cityCode === initial ? null : initial);
  })().catch(showError);

  const chosen = (el) => el.selectedOptions[0] && el.value ? el.selectedOptions[0].textContent : '';
  return {
    box,
    /** The leaf chosen, or null while the chain is not finished. */
    code() {
      if (district.value) return district.value;
      return city.value && districtField.hidden ? city.value : null;
    },
    /** The names chosen so far (to start typing from them), or null when none. */
    names() {
      if (!province.value) return null;
      const leafCity = districtField.hidden && city.value;
      return { province: chosen(province), city: chosen(city), district: leafCity ? chosen(city) : chosen(district) };
    },
  };
}
