// The IdP's pages: plain, accessible HTML forms (labels bound to inputs, one heading, errors announced
// with role=alert, no script), in English or Russian by Accept-Language.
import escapeHtml from 'escape-html';
import type { Language } from '@palisade/core';

const TEXT = {
  en: {
    title: 'Sign in to Palisade',
    login: 'Username or e-mail',
    password: 'Password',
    signIn: 'Sign in',
    cancel: 'Cancel',
    changeTitle: 'Change your password',
    changeLead: 'An administrator set a temporary password. Choose a new one to continue.',
    newPassword: 'New password',
    confirm: 'Repeat the new password',
    save: 'Change password',
    invalid: 'Invalid username or password.',
    disabled: 'This account is disabled. Contact your administrator.',
    locked: (s: number) => `Too many failed attempts. Try again in ${s} seconds.`,
    tooShort: 'The password must have at least 8 characters.',
    mismatch: 'The two passwords differ.',
    sameAsOld: 'The new password must differ from the temporary one.',
    expired: 'This sign-in page has expired. Go back to the application and start again.',
    csrf: 'The form could not be verified. Reload the page and try again.',
    errorTitle: 'Sign-in error',
    signInFailed: 'Sign-in failed. Go back to the application and sign in again.',
    logoutTitle: 'Signing out',
    logout: 'Sign out',
    loggedOut: 'You have signed out.',
  },
  ru: {
    title: 'Вход в Palisade',
    login: 'Имя пользователя или e-mail',
    password: 'Пароль',
    signIn: 'Войти',
    cancel: 'Отмена',
    changeTitle: 'Смена пароля',
    changeLead: 'Администратор задал временный пароль. Задайте новый, чтобы продолжить.',
    newPassword: 'Новый пароль',
    confirm: 'Повторите новый пароль',
    save: 'Сменить пароль',
    invalid: 'Неверное имя пользователя или пароль.',
    disabled: 'Учётная запись отключена. Обратитесь к администратору.',
    locked: (s: number) => `Слишком много неудачных попыток. Повторите через ${s} с.`,
    tooShort: 'Пароль должен содержать не менее 8 символов.',
    mismatch: 'Пароли не совпадают.',
    sameAsOld: 'Новый пароль должен отличаться от временного.',
    expired: 'Срок действия страницы входа истёк. Вернитесь в приложение и начните заново.',
    csrf: 'Не удалось проверить форму. Обновите страницу и попробуйте снова.',
    errorTitle: 'Ошибка входа',
    signInFailed: 'Не удалось войти. Вернитесь в приложение и войдите снова.',
    logoutTitle: 'Выход',
    logout: 'Выйти',
    loggedOut: 'Вы вышли из системы.',
  },
} as const;

export type Texts = (typeof TEXT)['en'] | (typeof TEXT)['ru'];
export const textsFor = (language: Language): Texts => TEXT[language];

function layout(language: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label{display:block;margin-top:1rem}input{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1.5rem;padding:.5rem 1rem}[role=alert]{color:#a40000;margin-top:1rem}</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body>
</html>`;
}

const alert = (message: string | undefined) => (message ? `<p role="alert" id="form-error">${escapeHtml(message)}</p>` : '');
const described = (message: string | undefined) => (message ? ' aria-describedby="form-error" aria-invalid="true"' : '');

export function loginPage(options: { language: Language; action: string; abort: string; csrf: string; login?: string; error?: string }): string {
  const t = textsFor(options.language);
  return layout(
    options.language,
    t.title,
    `${alert(options.error)}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">
<label for="login">${t.login}</label>
<input id="login" name="login" autocomplete="username" required autofocus value="${escapeHtml(options.login ?? '')}"${described(options.error)}>
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described(options.error)}>
<button type="submit">${t.signIn}</button>
</form>
<p><a href="${escapeHtml(options.abort)}">${t.cancel}</a></p>`,
  );
}

export function passwordChangePage(options: { language: Language; action: string; csrf: string; error?: string }): string {
  const t = textsFor(options.language);
  return layout(
    options.language,
    t.changeTitle,
    `<p>${t.changeLead}</p>${alert(options.error)}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">
<label for="new_password">${t.newPassword}</label>
<input id="new_password" name="new_password" type="password" autocomplete="new-password" minlength="8" required autofocus${described(options.error)}>
<label for="confirm_password">${t.confirm}</label>
<input id="confirm_password" name="confirm_password" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">${t.save}</button>
</form>`,
  );
}

export function messagePage(language: Language, title: string, message: string): string {
  return layout(language, title, `<p role="alert">${escapeHtml(message)}</p>`);
}

/** oidc-provider's sign-out confirmation: its own form (with its xsrf field) plus our button. */
export function logoutPage(language: Language, form: string): string {
  const t = textsFor(language);
  return layout(language, t.logoutTitle, `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${t.logout}</button>`);
}
