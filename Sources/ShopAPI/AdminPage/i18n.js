// The operators' page in Chinese and English, as the storefront does it: the language follows
// navigator.language until the operator picks one with the switch (kept in localStorage).
// Money is shown as ¥12.34 and every time in the shop's zone, Asia/Shanghai.
import { zh, en } from './strings.js';

const LANG_KEY = 'floral.admin.lang';
const strings = { zh, en };

function stored() {
  try { return window.localStorage.getItem(LANG_KEY); } catch { return null; }
}

function fromBrowser() {
  const first = (navigator.languages && navigator.languages[0]) || navigator.language || 'en';
  return first.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export let lang = stored() === 'zh' || stored() === 'en' ? stored() : fromBrowser();
export let locale = lang === 'zh' ? 'zh-CN' : 'en-US';

/** Switches the language (remembered on this browser) and tells the page to draw itself again. */
export function setLang(next) {
  lang = next === 'zh' ? 'zh' : 'en';
  locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  try { window.localStorage.setItem(LANG_KEY, lang); } catch { /* private mode: this page only */ }
  document.documentElement.lang = locale;
}

/** The label for `key` in the page's language, with `{name}` placeholders filled from `params`. */
export function t(key, params) {
  const text = strings[lang][key] ?? strings.en[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A label for a code from the server (`status_paid`, `role_owner`): the code itself when unknown. */
export function label(prefix, code) {
  if (code === undefined || code === null || code === '') return '';
  const key = `${prefix}_${code}`;
  return key in strings[lang] || key in strings.en ? t(key) : String(code);
}

/** Cents as "¥159.00", computed with integers only. */
export function money(cents) {
  if (cents === undefined || cents === null || cents === '') return '';
  const value = Math.trunc(Number(cents) || 0);
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}¥${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents as the yuan an input shows: "159.00". */
export function yuan(cents) {
  return money(cents).replace('¥', '');
}

/** "129", "129.9" or "129.90" yuan as integer cents; null when it is not an amount. */
export function yuanToCents(text) {
  const match = /^\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text || '');
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] || '').padEnd(2, '0'));
}

export const ZONE = 'Asia/Shanghai';

/** An RFC 3339 string or Unix seconds as a Date; null when it is neither. */
export function toDate(value) {
  if (value === undefined || value === null || value === '') return null;
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "2026/12/02 14:05" in Shanghai time. */
export function dateTime(value) {
  const date = toDate(value);
  if (!date) return '';
  return date.toLocaleString(locale, { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', hour12: false });
}

/** Today (offset 0), tomorrow (1)… in Shanghai as YYYY-MM-DD (China keeps no summer time). */
export function shopDay(offset = 0) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(new Date(Date.now() + offset * 86400000));
  const part = (type) => parts.find((p) => p.type === type).value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}
