// 付款 in the browser, in production: on a phone Alipay's cashier (channel wap) or WeChat Pay's H5
// page (h5), by going to the address the shop answered; on a computer Alipay's cashier (page)
// likewise, or WeChat Pay's QR code (native), drawn here for the buyer's phone to scan while the
// page reads the order until it is paid. Coming back from a payment page proves nothing: the page
// only reads the order again; the shop learns of a payment from the provider's signed notification
// or its own query, never from the browser.
import { t } from './i18n.js';
import { get, post } from './api.js';
import { h, toast, busy } from './dom.js';
import { ui } from './state.js';

const POLL_MS = 2000;
const QR_POLL_LIMIT_MS = 15 * 60 * 1000;   // the code lives longer; the page stops asking after this
const RETURN_POLL_LIMIT_MS = 30 * 1000;    // the provider's notification usually comes within seconds

/** A phone or tablet: the providers' mobile pages; else their desktop ones. */
export function isPhone() {
  return /Android|iPhone|iPad|iPod|Mobile|HarmonyOS|MicroMessenger/i.test(navigator.userAgent || '');
}

let qrLibrary = null;
/** Kazuhiko Arase's qrcode-generator (Debian node-qrcode-generator, served by the shop), a classic script: loaded once, when needed. */
function loadQRCode() {
  if (!qrLibrary) {
    qrLibrary = new Promise((resolve, reject) => {
      if (window.qrcode) { resolve(window.qrcode); return; }
      const script = document.createElement('script');
      script.src = '/assets/vendor/qrcode.js';
      script.onload = () => (window.qrcode ? resolve(window.qrcode) : reject(new Error('qrcode.js did not load')));
      script.onerror = () => { qrLibrary = null; reject(new Error('qrcode.js did not load')); };
      document.head.append(script);
    });
  }
  return qrLibrary;
}

/** The code as a GIF data: image (allowed by the page's img-src), error correction M. */
async function qrImage(text) {
  const qrcode = await loadQRCode();
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  return h('img', { class: 'pay-qr-image', id: 'wechat-qr', src: code.createDataURL(6, 4), alt: t('pay_qr_alt') });
}

/** Reads the order every two seconds until it has left pending_payment, `stop()` is true or the time is up. */
async function waitForPayment(orderId, { stop, limit }) {
  const until = Date.now() + limit;
  while (Date.now() < until && !stop()) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (stop()) return null;
    try {
      const order = await get(`/orders/${orderId}`);
      if (order.status !== 'pending_payment') return order;
    } catch {
      // a failed read is tried again at the next turn
    }
  }
  return null;
}

/**
 * The order card's pay buttons for a pending order: Alipay and WeChat Pay, each on the channel the
 * device calls for. `onChange` re-reads the order (it was paid while the QR code was shown).
 */
export function payButtons(order, onChange) {
  const phone = isPhone();
  const alipay = h('button', { class: 'btn primary small', type: 'button', dataset: { action: 'pay-alipay' } }, t('pay_alipay'));
  alipay.addEventListener('click', () => busy(alipay, async () => {
    const intent = await post(`/orders/${order.id}/payments`, { provider: 'alipay', channel: phone ? 'wap' : 'page' });
    window.location.assign(intent.pay_params.pay_url);
  }));
  const wechat = h('button', { class: 'btn primary small', type: 'button', dataset: { action: 'pay-wechatpay' } }, t('pay_wechatpay'));
  wechat.addEventListener('click', () => busy(wechat, async () => {
    if (phone) {
      const intent = await post(`/orders/${order.id}/payments`, { provider: 'wechatpay', channel: 'h5' });
      window.location.assign(intent.pay_params.mweb_url);
      return;
    }
    const intent = await post(`/orders/${order.id}/payments`, { provider: 'wechatpay', channel: 'native' });
    const card = wechat.closest('.order-card');
    if (!card) return;
    card.querySelector('.pay-qr')?.remove();
    const codeURL = intent.pay_params.code_url;
    const panel = h('div', { class: 'pay-qr', dataset: { codeUrl: codeURL } },
      await qrImage(codeURL), h('p', { class: 'small muted' }, t('pay_scan')));
    card.append(panel);
    // the button is free again while the page waits: a second press draws a fresh panel
    waitForPayment(order.id, { stop: () => !panel.isConnected, limit: QR_POLL_LIMIT_MS }).then(async (paid) => {
      if (!paid || !panel.isConnected) return;
      if (paid.status === 'paid') toast(t('paid_ok'));
      await onChange();
    });
  }));
  return [alipay, wechat];
}

/**
 * `#/orders?order=ID&returned=1`, where a payment page sends the buyer back: the order is shown
 * (all statuses) and highlighted; answers its id, or null for an ordinary visit.
 */
export function returnedOrder(query) {
  const id = Number(query && query.get('order'));
  if (!Number.isInteger(id) || id <= 0) return null;
  ui.ordersStatus = '';
  ui.highlightOrder = id;
  return query.get('returned') === '1' ? id : null;
}

/** After a return: reads the order until the provider's word has arrived, then shows it. */
export async function watchReturn(id, onChange) {
  toast(t('pay_checking'));
  const order = await waitForPayment(id, { stop: () => false, limit: RETURN_POLL_LIMIT_MS });
  if (order && order.status === 'paid') toast(t('paid_ok'));
  else if (!order) toast(t('pay_not_yet'));
  await onChange();
}
