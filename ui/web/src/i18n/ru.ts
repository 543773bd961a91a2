import type { Texts } from './en';

export const ru: Texts = {
  app: { title: 'Palisade', subtitle: 'консоль безопасности', theme: 'Переключить тёмную / светлую тему', language: 'Язык', tenant: 'Тенант', allTenants: 'Все тенанты', signedInAs: 'Вы вошли как {{user}} ({{role}})', noRole: 'У вашей учётной записи нет роли в Palisade. Попросите администратора назначить её.', loading: 'Загрузка…', skip: 'Перейти к содержимому' },
  nav: { dashboard: 'Панель', events: 'События безопасности', providers: 'Провайдеры', profiles: 'Профили', policies: 'Политики контента', exporters: 'Экспортёры', reports: 'Отчёты', users: 'Пользователи', retention: 'Хранение данных', audit: 'Журнал аудита' },
  common: {
    create: 'Создать', edit: 'Изменить', save: 'Сохранить', cancel: 'Отмена', delete: 'Удалить', close: 'Закрыть', refresh: 'Обновить', actions: 'Действия',
    name: 'Название', status: 'Статус', type: 'Тип', created: 'Создан', updated: 'Изменён', yes: 'Да', no: 'Нет', all: 'Все', search: 'Поиск',
    confirmDelete: 'Удалить {{name}}? Это нельзя отменить.', confirmTitle: 'Подтвердите действие', forbidden: 'Admin API отказал в этом действии для вашей роли (403).',
    readOnlyOperator: 'Управляется оператором Kubernetes (ресурс {{kind}}): меняйте его там; здесь только просмотр.',
    immutable: 'Задаётся при создании; изменить нельзя.', saved: 'Сохранено', deleted: 'Удалено', warning: 'Предупреждение', error: 'Ошибка', none: '—', empty: 'Здесь пока пусто.',
    emptyCreate: 'Здесь пока пусто. Нажмите «Создать», чтобы добавить первую запись.', emptyViewer: 'Здесь пока пусто. Добавить запись может оператор или администратор.', live: 'Автообновление',
    activate: 'Активировать', archive: 'В архив', reactivate: 'Вернуть из архива', enable: 'Включить', disable: 'Отключить', details: 'Подробнее', fixErrors: 'Admin API нашёл ошибки в форме; смотрите отмеченные поля.',
  },
  dashboard: {
    title: 'Панель', range: 'Период', h24: '24 ч', d7: '7 дней', d30: '30 дней', custom: 'Свой', from: 'С', to: 'По',
    requests: 'Запросы', blocks: 'Блокировки', sanitizations: 'Маскирования', monitorAlerts: 'Оповещения мониторинга', pii: 'Найдено ПДн', events: 'События',
    overTime: 'По времени', topTypes: 'Частые типы событий', topProviders: 'Провайдеры по инцидентам ПДн', bySeverity: 'События по критичности', latestCritical: 'Последние критичные события',
    noEvents: 'За этот период событий нет. Отправьте запросы через шлюз (порт 8085), и они появятся здесь.', openEvents: 'Открыть эти события',
  },
  events: {
    title: 'События безопасности', traceId: 'Trace id', severity: 'Критичность', eventType: 'Тип события', decision: 'Решение', provider: 'Провайдер', profile: 'Id профиля', tenant: 'Тенант', time: 'Время', from: 'С', to: 'По',
    total: 'Событий: {{count}}', clear: 'Сбросить фильтры', noMatch: 'Нет событий по этим фильтрам. Расширьте период или снимите фильтр.', trace: 'Трасса', score: 'Оценка джейлбрейка',
  },
  trace: { title: 'Трасса {{id}}', events: 'Все события этого запроса', prompt: 'Маскированный запрос', scores: 'Оценки детекторов', pii: 'Найденные персональные данные', reasons: 'Причины', notFound: 'Нет событий с этим trace id.', latency: 'Задержка' },
  inspection: {
    title: 'Доказательство проверки', detector: 'Детектор', side: 'Сторона', score: 'Оценка / порог', findings: 'Находки', scoreOf: 'Оценка {{detector}}', rule: 'политика {{policy}}, правило №{{rule}}',
    sides: { request: 'запрос', response: 'ответ' }, statuses: { ok: 'выполнен', skipped: 'пропущен', timeout: 'тайм-аут', error: 'ошибка', unavailable: 'недоступен' },
  },
  providers: { title: 'Провайдеры', health: 'Доступность', latency: 'Задержка', lastError: 'Последняя ошибка', checkNow: 'Проверить сейчас', checked: 'Проверка: {{status}}, {{latency}}; последняя ошибка: {{error}}', checkedAt: 'Последняя проверка: {{at}}', match: 'Сопоставление', target: 'Назначение', mapping: 'Маппинг', presetHint: 'Рекомендуемый пресет для {{type}}: {{preset}}', tester: 'Проверка строк JSONPath', sample: 'Пример тела запроса', sampleResponse: 'Пример тела ответа', extracts: 'Извлекает', noMatch: 'нет совпадения', field: 'Поле', runTest: 'Проверить пути', useSample: 'Взять пример пресета' },
  profiles: { title: 'Профили', provider: 'Провайдер', monitor: 'Режим мониторинга', monitorHint: 'Режим мониторинга: детекторы работают, ничего не блокируется; несостоявшиеся блокировки записываются как MONITOR_ALERT.', onlyActive: 'Предлагаются только АКТИВНЫЕ провайдеры.' },
  policies: {
    title: 'Политики контента', rules: 'Правила', tester: 'Проверить текст этой политикой', testText: 'Текст для проверки', runTest: 'Проверить', testFieldErrors: 'В политике есть ошибки; см. отмеченные поля выше.',
    fired: 'Срабатывает', notFired: 'Не срабатывает', resultAction: 'Действие', language: 'Определённый язык: {{language}}', matches: 'Совпадения правил', rule: 'Правило', pattern: 'Шаблон', found: 'Найдено', span: 'Позиция',
    truncated: 'Совпадений больше, чем показано.', reasons: { rule_match: 'сработало правило', no_allowlist_match: 'ни одно правило белого списка не совпало', language_not_allowed: 'язык не разрешён' },
  },
  exporters: { title: 'Экспортёры', enabled: 'Включён', sendTest: 'Отправить тестовое событие', testOk: 'Тестовое событие доставлено', testFailed: 'Тестовое событие не доставлено: {{message}}', delivered: 'доставлено', failed: 'ошибка' },
  reports: { title: 'Отчёты', notYet: 'Отчёты появятся вместе со службой отчётов: этот Admin API пока не предоставляет /api/v1/reports.', generate: 'Сформировать отчёт', period_start: 'Начало периода', period_end: 'Конец периода', format: 'Формат', download: 'Скачать', none: 'Отчётов пока нет. Сформируйте первый выше.' },
  users: { title: 'Пользователи', username: 'Имя пользователя', email: 'E-mail', firstName: 'Имя', lastName: 'Фамилия', roles: 'Роли', enabled: 'Активен', password: 'Пароль', tenant: 'Тенант', addRole: 'Добавить роль' },
  retention: { title: 'Хранение данных', audit_retention_days: 'Записи аудита (дней)', audit_help: 'Не меньше 1095 дней (3 года); уменьшить нельзя.', event_retention_days: 'События безопасности (дней)', detail_retention_days: 'Удалять значения ПДн через (дней)', detail_help: 'События сохраняются; конкретные значения ПДн заменяются масками.', report_retention_days: 'Отчёты (дней)' },
  audit: { title: 'Журнал аудита', user: 'Пользователь', action: 'Действие', resource: 'Тип ресурса', resourceId: 'Id ресурса', path: 'Запрос', statusCode: 'Ответ', time: 'Время', body: 'Тело запроса (секреты скрыты)' },
  forms: {
    fieldHelp: {
      provider_type: 'Семейство вендора; определяет рекомендуемый пресет маппинга.',
      match_type: 'Как запросы сопоставляются с провайдером: по шаблону пути URL, по хосту или по значению заголовка.',
      match_value: 'Шаблон URL (например /v1/chat/*), имя хоста или значение заголовка — по типу сопоставления.',
      target_base_url: 'Куда уходят проверенные запросы (схема и хост LLM).',
      mapping_preset: 'Где в теле запроса этого вендора находится промпт.',
      mapping_custom: 'Свои строки JSONPath, если ни один пресет не подходит.',
      upstream_auth: 'Как шлюз авторизуется у LLM; секреты хранятся зашифрованными и больше не показываются.',
      monitor_only: 'Все детекторы работают, но ничего не блокируется: решения становятся оповещениями MONITOR_ONLY.',
      block_status_code: 'HTTP-статус, который клиент получает при блокировке.',
      fail_safe: 'Что происходит, если детектор недоступен или медленный.',
      audit_retention_days: 'Не меньше 1095 дней (3 года).',
    },
  },
};
