// What the shop says about itself (GET /shop-info): its name, how to reach 客服, its time zone.
import { t } from './i18n.js';
import { get } from './api.js';
import { h } from './dom.js';

let infoPromise = null;

/** The shop's info, asked once per page load; a failure is asked again next time. */
export function shopInfo() {
  if (!infoPromise) {
    infoPromise = get('/shop-info', null, { auth: false }).catch((error) => { infoPromise = null; throw error; });
  }
  return infoPromise;
}

/**
 * Shows `error` (the server's own words) in `box`; for the 99-item cap, the shop's customer-service
 * contact beside it ("联系客服：…"), when the shop names one.
 */
export function showNotice(box, error) {
  box.textContent = error.message;
  box.hidden = false;
  if (error.code !== 'cart_limit_exceeded') return;
  shopInfo().then((info) => {
    if (!info.service_contact || box.hidden || box.textContent !== error.message) return;
    box.append(h('span', { class: 'service-contact', dataset: { contact: info.service_contact } },
      t('service_contact', { c: info.service_contact })));
  }, () => {});
}

/** Today's date (YYYY-MM-DD) in the IANA `zone`, by the browser's clock. */
export function todayIn(zone) {
  try {
    const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(new Date());
    const part = (type) => parts.find((p) => p.type === type).value;
    return `${part('year')}-${part('month')}-${part('day')}`;
  } catch {
    return null;
  }
}
