// 账户: register with a verification code (the button counts down from the server's
// retry_after), sign in, reset the password, the profile and sign out.
import { t, dateOnly } from './i18n.js';
import { get, post, patch, ApiError, getToken } from './api.js';
import { h, replace, picture, toast, showError, busy, loadingBlock } from './dom.js';
import { session, ui, setSession, navigate, isSignedIn, restoreSession } from './state.js';

let mode = 'login';
/** purpose → time (ms) when the code button may be used again; survives re-rendering. */
const cooldownUntil = {};

export function renderAccount(page) {
  if (isSignedIn()) {
    if (session.user) renderProfile(page, session.user);
    else {
      page.append(loadingBlock());
      restoreSession().then(() => {
        replace(page);
        if (session.user) renderProfile(page, session.user);
        else renderForms(page);
      });
    }
    return;
  }
  renderForms(page);
}

function field(label, input) {
  return h('label', { class: 'field' }, h('span', { class: 'field-label' }, label), input);
}

function phoneInput(id) {
  return h('input', { id, name: 'phone', class: 'input', type: 'tel', inputmode: 'numeric', autocomplete: 'tel', placeholder: t('phone_placeholder'), required: true, maxlength: 16 });
}

function passwordInput(id, autocomplete) {
  return h('input', { id, name: 'password', class: 'input', type: 'password', autocomplete, placeholder: t('password_placeholder'), required: true, minlength: 8, maxlength: 64 });
}

/** The "获取验证码" button: asks for a code, then counts down from the server's retry_after. */
function codeButton(purpose, phone) {
  const button = h('button', { class: 'btn ghost code-btn', type: 'button', id: `code-btn-${purpose}` }, t('get_code'));
  let timer = null;
  function tick() {
    const left = Math.ceil(((cooldownUntil[purpose] || 0) - Date.now()) / 1000);
    if (left <= 0 || !button.isConnected) {
      clearInterval(timer);
      timer = null;
      button.disabled = false;
      button.textContent = t('get_code');
      return;
    }
    button.disabled = true;
    button.textContent = t('resend_in', { n: left });
  }
  function startCountdown(seconds) {
    cooldownUntil[purpose] = Date.now() + Math.max(1, seconds) * 1000;
    clearInterval(timer);
    tick();
    timer = setInterval(tick, 1000);
  }
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const receipt = await post('/auth/verification-codes', { phone: phone.value.trim(), purpose }, { auth: false });
      toast(t('code_sent'));
      startCountdown(receipt.retry_after);
    } catch (error) {
      showError(error);
      if (error instanceof ApiError && error.retryAfter) startCountdown(error.retryAfter);
      else button.disabled = false;
    }
  });
  if ((cooldownUntil[purpose] || 0) > Date.now()) { tick(); timer = setInterval(tick, 1000); }
  return button;
}

function formError(form) {
  const box = h('p', { class: 'form-error', role: 'alert', hidden: true });
  form.appendChild(box);
  return (error) => {
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    if (!error) { box.hidden = true; return; }
    box.textContent = error.message;
    box.hidden = false;
    const target = error.field && form.querySelector(`[name="${CSS.escape(error.field === 'password_md5' ? 'password' : error.field)}"]`);
    if (target) target.setAttribute('aria-invalid', 'true');
  };
}

function codeInput(id) {
  return h('input', { id, name: 'code', class: 'input', inputmode: 'numeric', autocomplete: 'one-time-code', placeholder: t('code_placeholder'), required: true, maxlength: 6 });
}

// Wires a form's submit to `action`, showing failures on the form and as a toast.
function onSubmit(form, submit, action) {
  const fail = formError(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    fail(null);
    busy(submit, action, (error) => { fail(error); showError(error); });
  });
}

function afterSignIn() {
  const back = ui.returnTo;
  ui.returnTo = null;
  navigate(back && back !== '/account' ? back : '/account');
}

function renderForms(page) {
  const modes = [['login', t('sign_in')], ['register', t('register')], ['reset', t('reset_password')]];
  const tabs = h('div', { class: 'segmented', role: 'tablist' }, modes.map(([key, label]) => h('button', {
    class: 'segment' + (key === mode ? ' active' : ''), type: 'button', role: 'tab', id: `mode-${key}`,
    'aria-selected': String(key === mode), onClick: () => { mode = key; replace(page); renderForms(page); },
  }, label)));
  const body = mode === 'register' ? registerForm() : mode === 'reset' ? resetForm() : loginForm();
  page.append(
    h('div', { class: 'welcome card' },
      h('div', { class: 'welcome-art', 'aria-hidden': 'true' }),
      h('h1', { class: 'page-title' }, t('welcome_title')),
      h('p', { class: 'muted' }, t('welcome_text'))),
    h('div', { class: 'card' }, tabs, body));
}

function loginForm() {
  const phone = phoneInput('login-phone');
  const password = passwordInput('login-password', 'current-password');
  const submit = h('button', { class: 'btn primary wide', type: 'submit', id: 'login-submit' }, t('sign_in'));
  const form = h('form', { id: 'login-form', class: 'form' }, field(t('phone'), phone), field(t('password'), password), submit);
  onSubmit(form, submit, async () => {
    const s = await post('/auth/login', { phone: phone.value.trim(), password: password.value }, { auth: false });
    setSession(s.token, s.user);
    toast(t('signed_in'));
    afterSignIn();
  });
  return form;
}

function registerForm() {
  const phone = phoneInput('register-phone');
  const code = codeInput('register-code');
  const password = passwordInput('register-password', 'new-password');
  const nickname = h('input', { id: 'register-nickname', name: 'nickname', class: 'input', maxlength: 20, placeholder: t('nickname') });
  const submit = h('button', { class: 'btn primary wide', type: 'submit', id: 'register-submit' }, t('register'));
  const form = h('form', { id: 'register-form', class: 'form' },
    field(t('phone'), phone),
    field(t('code'), h('div', { class: 'input-row' }, code, codeButton('register', phone))),
    field(t('password'), password),
    field(t('nickname'), nickname),
    submit);
  onSubmit(form, submit, async () => {
    const body = { phone: phone.value.trim(), code: code.value.trim(), password: password.value };
    if (nickname.value.trim()) body.nickname = nickname.value.trim();
    const s = await post('/auth/register', body, { auth: false });
    setSession(s.token, s.user);
    toast(t('registered'));
    afterSignIn();
  });
  return form;
}

function resetForm() {
  const phone = phoneInput('reset-phone');
  const code = codeInput('reset-code');
  const password = passwordInput('reset-password', 'new-password');
  const submit = h('button', { class: 'btn primary wide', type: 'submit', id: 'reset-submit' }, t('reset_password'));
  const form = h('form', { id: 'reset-form', class: 'form' },
    field(t('phone'), phone),
    field(t('code'), h('div', { class: 'input-row' }, code, codeButton('reset_password', phone))),
    field(t('new_password'), password),
    submit);
  onSubmit(form, submit, async () => {
    await post('/auth/password-reset', { phone: phone.value.trim(), code: code.value.trim(), password: password.value }, { auth: false });
    toast(t('reset_done'));
    mode = 'login';
    navigate('/account');
  });
  return form;
}

function renderProfile(page, user) {
  const name = user.nickname || user.phone;
  const nickname = h('input', { id: 'profile-nickname', name: 'nickname', class: 'input', value: user.nickname || '', maxlength: 20 });
  const signature = h('textarea', { id: 'profile-signature', name: 'signature', class: 'input', maxlength: 140, rows: 2 });
  signature.value = user.signature || '';
  const gender = h('select', { id: 'profile-gender', name: 'gender', class: 'select' },
    ['unknown', 'female', 'male'].map((g) => h('option', { value: g, selected: user.gender === g }, t('gender_' + g))));
  const save = h('button', { class: 'btn primary', type: 'submit' }, t('save'));
  const form = h('form', { class: 'form', id: 'profile-form' },
    field(t('nickname_label'), nickname), field(t('signature_label'), signature), field(t('gender_label'), gender), save);
  onSubmit(form, save, async () => {
    const updated = await patch('/me', { nickname: nickname.value.trim(), signature: signature.value, gender: gender.value });
    setSession(getToken(), updated);
    toast(t('saved'));
    navigate('/account');
  });
  const following = h('div', { class: 'following', id: 'my-following' }, loadingBlock());
  const logout = h('button', { class: 'btn ghost wide danger', type: 'button', id: 'logout' }, t('sign_out'));
  logout.addEventListener('click', () => busy(logout, async () => {
    try { await post('/auth/logout'); } catch { /* the token is forgotten either way */ }
    setSession(null, null);
    toast(t('signed_out'));
    navigate('/account');
  }));
  page.append(
    h('div', { class: 'card profile', id: 'profile' },
      picture(user.avatar_url, { seed: user.id, cls: 'pic avatar big', initial: name.slice(0, 1) }),
      h('div', null,
        h('h1', { class: 'page-title', id: 'profile-name' }, t('hello', { name })),
        h('p', { class: 'muted' }, user.phone),
        user.is_author ? h('span', { class: 'tag author' }, t('author_badge')) : null,
        h('p', { class: 'muted small' }, t('joined', { date: dateOnly(user.created_at) })))),
    h('nav', { class: 'card quick-links' },
      h('a', { href: '#/orders' }, t('orders_title')),
      h('a', { href: '#/favorites', id: 'favorites-link' }, t('favorites_title')),
      h('a', { href: '#/addresses' }, t('addresses_title')),
      h('a', { href: '#/cart' }, t('cart_title')),
      h('a', { href: '#/column/feed' }, t('column_feed'))),
    h('section', { class: 'card' }, h('h2', { class: 'section-title' }, t('my_following')), following),
    h('section', { class: 'card' }, h('h2', { class: 'section-title' }, t('profile')), form),
    logout);
  get('/me/following', { per_page: 50 }).then((result) => {
    replace(following, result.items.length ? result.items.map((a) => h('a', { class: 'mini-author', href: `#/author/${a.id}` },
      picture(a.avatar_url, { seed: a.id, cls: 'pic avatar', initial: (a.nickname || '?').slice(0, 1) }),
      h('span', null, a.nickname))) : h('p', { class: 'muted' }, t('none_following')));
  }, (error) => replace(following, h('p', { class: 'muted' }, error.message)));
}
