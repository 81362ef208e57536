// 地址: the address book, its default, add, edit and delete.
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
  const [province, provinceField] = input('province', t('province'), { required: true, autocomplete: 'address-level1' });
  const [city, cityField] = input('city', t('city'), { required: true, autocomplete: 'address-level2' });
  const [district, districtField] = input('district', t('district'), { required: true, autocomplete: 'address-level3' });
  const [detail, detailField] = input('detail', t('detail'), { required: true, maxlength: 120, autocomplete: 'street-address' });
  const [postal, postalField] = input('postal_code', t('postal_code'), { inputmode: 'numeric', maxlength: 6, autocomplete: 'postal-code' });
  const isDefault = h('input', { type: 'checkbox', class: 'check', name: 'is_default', id: 'address-default', checked: Boolean(a.is_default) });
  const save = h('button', { class: 'btn primary', type: 'submit', id: 'address-save' }, t('save'));
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const form = h('form', { class: 'card form address-form', id: 'address-form' },
    h('h2', { class: 'section-title' }, address ? t('edit_address') : t('add_address')),
    recipientField, phoneField,
    h('div', { class: 'row3' }, provinceField, cityField, districtField),
    detailField, postalField,
    h('label', { class: 'check-label' }, isDefault, t('make_default')),
    error,
    h('div', { class: 'form-actions' }, h('button', { class: 'btn ghost', type: 'button', onClick: onCancel }, t('cancel')), save));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    error.hidden = true;
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    busy(save, async () => {
      const body = {
        recipient: recipient.value.trim(), phone: phone.value.trim(), province: province.value.trim(), city: city.value.trim(),
        district: district.value.trim(), detail: detail.value.trim(), is_default: isDefault.checked,
      };
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
