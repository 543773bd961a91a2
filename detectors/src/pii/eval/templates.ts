// Sentence templates of the eval corpus: support tickets, bank chats, HR letters, configs and logs, in
// Russian and English. "{TYPE}" places a generated entity, "{D}" a decoy, "{NAME}"/"{N}" filler.
// Entities sit where people put them: after labels, glued to labels, inside JSON, YAML, .env and log
// lines, at line starts and ends, before punctuation.

export interface Template {
  language: 'ru' | 'en';
  family: 'support' | 'bank' | 'hr' | 'config' | 'log' | 'chat' | 'answer';
  text: string;
}

const ru = (family: Template['family'], text: string): Template => ({ language: 'ru', family, text });
const en = (family: Template['family'], text: string): Template => ({ language: 'en', family, text });

export const TEMPLATES: readonly Template[] = [
  // Support tickets.
  ru('support', 'Здравствуйте! Не могу войти в личный кабинет. Мой e-mail: {EMAIL}, телефон {PHONE_RU}. Дата обращения {D}.'),
  ru('support', 'Добрый день, {NAME}. Перезвоните мне, пожалуйста, по номеру {PHONE_RU} или напишите на {EMAIL}'),
  ru('support', 'Обращение {D}: клиент {NAME} ({EMAIL}) жалуется на списание. Контактный тел.: {PHONE_RU}.'),
  ru('support', 'Тел {PHONE_RU}\nПочта {EMAIL}\nКомментарий: {D}'),
  ru('support', 'Прошу сменить почту с {EMAIL} на {EMAIL}. Версия приложения {D}.'),
  ru('support', 'тел.{PHONE_RU}, email:{EMAIL}'),
  en('support', 'Hi team, I cannot log in. My email is {EMAIL} and my phone number is {PHONE_INTL}. Ticket {D}.'),
  en('support', 'Please call me back at {PHONE_US} or email {EMAIL}. Thanks, {NAME}'),
  en('support', 'Customer {NAME} <{EMAIL}> reported a crash in build {D}; callback number: {PHONE_INTL}.'),
  en('support', 'Contact: {EMAIL}; mobile {PHONE_INTL}; reference {D}'),
  // Bank chats.
  ru('bank', 'Клиент: Добрый день, хочу перевыпустить карту {CARD}. Оператор: Назовите кодовое слово.'),
  ru('bank', 'Оплата картой {CARD} не прошла, сумма {D}. Мой телефон {PHONE_RU}.'),
  ru('bank', 'Реквизиты: ООО «Ромашка», ИНН {INN10}, {D}, {D}.'),
  ru('bank', 'Плательщик: {NAME}, ИНН{INN12}, паспорт {PASSPORT}.'),
  ru('bank', 'Номер карты: {CARD}\nСрок действия: 12/27\nВладелец: {NAME}'),
  ru('bank', 'ИНН/КПП {INN10}/{D}. Счёт {D}.'),
  ru('bank', 'Переведите на карту {CARD}, я уже отправил {D}.'),
  en('bank', 'Customer: my card {CARD} was charged twice, amount {D}.'),
  en('bank', 'Card number {CARD}, exp 09/26. Please block it.'),
  en('bank', 'Payer tax ID (INN) {INN10}, passport {PASSPORT}.'),
  en('bank', 'Refund to {CARD} please, order {D}.'),
  // HR letters.
  ru('hr', 'Прошу оформить сотрудника {NAME}: паспорт {PASSPORT}, СНИЛС {SNILS}, ИНН {INN12}, тел. {PHONE_RU}.'),
  ru('hr', 'Данные для договора:\nСНИЛС: {SNILS}\nИНН: {INN12}\nПаспорт: {PASSPORT}\nE-mail: {EMAIL}'),
  ru('hr', 'Кандидат {NAME}, {EMAIL}, {PHONE_RU}. Собеседование {D}.'),
  ru('hr', 'Страховой номер {SNILS}, дата рождения {D}.'),
  en('hr', 'New hire {NAME}: SNILS {SNILS}, INN {INN12}, passport {PASSPORT}, personal email {EMAIL}.'),
  en('hr', 'Please update the phone of {NAME} to {PHONE_INTL} (start date {D}).'),
  // Configs.
  en('config', 'database:\n  url: {DB_URL}\n  pool: {N}\nopenai:\n  api_key: {API_KEY}\n'),
  en('config', 'OPENAI_API_KEY={API_KEY}\nDATABASE_URL={DB_URL}\nLOG_LEVEL=info\nBUILD={D}\n'),
  en('config', '{"service": "billing", "db": "{DB_URL}", "token": "{GITHUB}", "version": "{D}"}'),
  en('config', '[auth]\nsecret_key = "{API_KEY}"\nadmin_email = "{EMAIL}"\n'),
  en('config', 'export GITHUB_TOKEN={GITHUB}\nexport AWS_ACCESS_KEY_ID={API_KEY}\n# id {D}\n'),
  en('config', '{"customer": {"email": "{EMAIL}", "phone": "{PHONE_INTL}", "card": "{CARD}", "created": "{D}"}}'),
  ru('config', 'клиент:\n  инн: "{INN10}"\n  снилс: "{SNILS}"\n  телефон: "{PHONE_RU}"\n  обновлён: "{D}"\n'),
  ru('config', '{"inn":"{INN12}","snils":"{SNILS}","passport":"{PASSPORT}","email":"{EMAIL}"}'),
  // Logs.
  en('log', '{D} INFO user_id={N} email={EMAIL} phone={PHONE_INTL} ip={D}'),
  en('log', '{D} WARN auth failed token={GITHUB} req={D}'),
  en('log', '{D} DEBUG Authorization: Bearer {JWT}'),
  en('log', '{D} ERROR payment declined card={CARD} amount={D}'),
  en('log', '{D} INFO connecting to {DB_URL} (attempt {N})'),
  ru('log', '{D} INFO платёж принят: карта {CARD}, ИНН {INN10}, {D}'),
  ru('log', '[{D}] ошибка отправки SMS на {PHONE_RU}: таймаут'),
  // Chats with an assistant.
  ru('chat', 'Вот мой ключ {API_KEY}, почему запрос к API падает с 401?'),
  ru('chat', 'Помоги разобрать лог: {D} и ещё {D}. Мой токен {GITHUB} перестал работать.'),
  en('chat', 'Why does my key {API_KEY} return 401? It worked yesterday.'),
  en('chat', 'Here is my .env: API_KEY={API_KEY} and my GitHub token {GITHUB}. What is wrong?'),
  en('chat', 'Can you decode this token for me? {JWT}'),
  en('chat', 'My SSH key:\n{PRIVATE_KEY}\nwhy does ssh reject it?'),
  // Answers of a model (response scanning).
  en('answer', 'Sure! Connect with `{DB_URL}` and set the header `Authorization: Bearer {JWT}`.'),
  en('answer', 'Here is the key you asked for:\n\n{PRIVATE_KEY}\n\nKeep it safe.'),
  en('answer', 'The config contains "{PRIVATE_KEY_ESC}" as the signing key.'),
  en('answer', 'Use the connection string {DB_URL}. The service also needs {API_KEY}.'),
  ru('answer', 'Готово. Строка подключения: {DB_URL}, ключ доступа: {API_KEY}, токен: {JWT}.'),
  ru('answer', 'Ваш приватный ключ:\n{PRIVATE_KEY}'),
  ru('answer', 'Я нашёл в документе: телефон {PHONE_RU}, e-mail {EMAIL}, карта {CARD}, ИНН {INN12}.'),
  en('answer', 'The record shows phone {PHONE_US}, email {EMAIL} and SNILS {SNILS}.'),
];

/** Texts with decoys only: every number in them is something other than PII. */
export const DECOY_TEMPLATES: readonly Template[] = [
  ru('support', 'Заказ {D} от {D} доставлен. Трек {D}. Версия приложения {D}.'),
  ru('log', '{D} INFO запрос {D} выполнен за {N} мс, ip {D}, {D}'),
  ru('bank', 'Реквизиты: {D}, {D}, {D}. Сумма {D}.'),
  ru('chat', 'Вопрос про {D}: почему {D} не совпадает с {D}?'),
  en('log', '{D} INFO request {D} took {N} ms from {D} ({D})'),
  en('config', 'image: app:{D}\nreplicas: {N}\nchecksum: {D}\nnote: {D}\n'),
  en('support', 'Order {D} placed on {D}, invoice {D}, see {D}.'),
  en('chat', 'Is {D} the same as {D}? I also saw {D}.'),
];

export const NAMES_RU = ['Иван Петров', 'Мария Иванова', 'Алексей Смирнов', 'Ольга Кузнецова', 'Дмитрий Соколов', 'Елена Попова'];
export const NAMES_EN = ['John Smith', 'Emily Johnson', 'Michael Brown', 'Sarah Lee', 'David Garcia', 'Anna Miller'];
