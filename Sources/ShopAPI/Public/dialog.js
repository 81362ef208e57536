// A confirmation asked in the page itself (a modal <dialog>), never window.confirm.
import { t } from './i18n.js';
import { h } from './dom.js';

/**
 * Asks `title` / `text` with two buttons; resolves true for `yes`, false for `no`, Esc or a tap
 * outside. The focus starts on the safe answer.
 */
export function confirmDialog({ title, text, yes, no = t('cancel'), danger = false, id = 'confirm-dialog' }) {
  return new Promise((resolve) => {
    const old = document.getElementById(id);
    if (old) old.remove();
    const keep = h('button', { class: 'btn ghost', type: 'button', value: 'no', id: id + '-no' }, no);
    const go = h('button', { class: 'btn ' + (danger ? 'danger-solid' : 'primary'), type: 'button', value: 'yes', id: id + '-yes' }, yes);
    const dialog = h('dialog', { class: 'dialog', id, 'aria-labelledby': id + '-title' },
      h('h2', { class: 'dialog-title', id: id + '-title' }, title),
      text ? h('p', { class: 'dialog-text' }, text) : null,
      h('div', { class: 'dialog-actions' }, keep, go));
    let answered = false;
    const finish = (answer) => {
      if (answered) return;
      answered = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(answer);
    };
    keep.addEventListener('click', () => finish(false));
    go.addEventListener('click', () => finish(true));
    dialog.addEventListener('cancel', () => finish(false));
    dialog.addEventListener('click', (event) => { if (event.target === dialog) finish(false); });
    document.body.append(dialog);
    dialog.showModal();
    keep.focus();
  });
}
