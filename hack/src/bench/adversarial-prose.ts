// Real-text families for the adversarial suite: ordinary prose in English, Russian and German, the
// input every detector sees most. The generated families of detectors/src/testing/adversarial-inputs.ts
// are runs and near-misses; prose has far more distinct n-grams and words per window, so it costs the
// threat features more than any of them. Built here from sentences written for this bench, their slots
// filled by a seeded generator: the same text on every run, no download.
import type { AdversarialFamily } from '@palisade/detectors/testing';

type Language = 'en' | 'ru' | 'de';

/** Sentences with slots: {name} {city} {count} {pct} {day} {month} {email} {topic}. */
const SENTENCES: Record<Language, readonly string[]> = {
  en: [
    'The quarterly review showed that {topic} improved in {city}, although the team still expects delays until {month}.',
    '{name} wrote to the supplier on {day} and asked whether the remaining {count} boxes could be shipped by rail instead of by road.',
    'Most of the questions we received were about billing, and a few concerned the new login page.',
    'If the weather holds, the bridge repairs in {city} should be finished before the end of {month}.',
    'Our volunteers planted {count} trees along the river last spring, and nearly all of them survived the dry summer.',
    'The museum stays open late on Thursdays, with guided tours in English and German.',
    'She explained that the old printer jams whenever the paper is slightly damp, so the stock is now kept in the office.',
    'According to the report, energy use fell by {pct} percent after the heating system was replaced.',
    'We are still looking for someone who can translate the user guide before the conference in {month}.',
    'The recipe calls for two cups of flour, a pinch of salt and enough cold water to bind the dough.',
    'For questions about the invoice, please contact {name} at {email} or call the front desk.',
    'After a long discussion, the committee agreed to postpone the vote until more residents in {city} had been consulted.',
    'Nobody expected {topic} to become the main subject of the meeting, but it took most of the afternoon.',
    'The train from {city} arrived forty minutes late, so the workshop started after lunch on {day}.',
  ],
  ru: [
    'В городе {city} завершили ремонт моста, и автобусы снова ходят по старому маршруту.',
    '{name} написал поставщику и спросил, можно ли отправить оставшиеся {count} коробок поездом, а не грузовиком.',
    'По данным отчёта, расход энергии снизился на {pct} процентов после замены котла.',
    'Большинство вопросов касалось оплаты, а несколько — новой страницы входа.',
    'Весной волонтёры посадили вдоль реки {count} деревьев, и почти все пережили сухое лето.',
    'Музей открыт по четвергам до девяти вечера, экскурсии проводятся на русском и английском.',
    'Она объяснила, что старый принтер заедает, если бумага немного влажная, поэтому её хранят в офисе.',
    'После долгого обсуждения комитет решил отложить голосование, пока не опросят жителей района.',
    'Для теста нужны два стакана муки, щепотка соли и немного холодной воды.',
    'Мы всё ещё ищем переводчика для руководства пользователя к конференции.',
    'По вопросам счёта пишите на {email} или звоните на стойку регистрации.',
    'Никто не ожидал, что тема «{topic}» займёт почти всё совещание.',
    'Поезд пришёл с опозданием на сорок минут, поэтому семинар начался только после обеда.',
  ],
  de: [
    'Die Reparatur der Brücke in {city} soll bis Ende {month} abgeschlossen sein, wenn das Wetter hält.',
    '{name} schrieb dem Lieferanten am {day} und fragte, ob die restlichen {count} Kartons per Bahn verschickt werden können.',
    'Laut Bericht ist der Energieverbrauch nach dem Austausch der Heizung um {pct} Prozent gesunken.',
    'Die meisten Fragen betrafen die Abrechnung, einige auch die neue Anmeldeseite.',
    'Im Frühjahr pflanzten freiwillige Helfer {count} Bäume am Flussufer, fast alle haben den trockenen Sommer überstanden.',
    'Das Museum ist donnerstags bis 21 Uhr geöffnet, Führungen gibt es auf Deutsch und Englisch.',
    'Sie erklärte, dass der alte Drucker klemmt, sobald das Papier etwas feucht ist.',
    'Nach langer Diskussion beschloss der Ausschuss, die Abstimmung über {topic} zu verschieben.',
    'Für den Teig braucht man zwei Tassen Mehl, eine Prise Salz und etwas kaltes Wasser.',
    'Bei Fragen zur Rechnung wenden Sie sich bitte an {name} unter {email}.',
    'Der Zug aus {city} kam vierzig Minuten zu spät, deshalb begann der Workshop erst nach dem Mittagessen.',
    'Niemand hatte erwartet, dass {topic} fast die ganze Sitzung füllen würde.',
  ],
};

const SLOTS: Record<Language, Record<string, readonly string[]>> = {
  en: {
    name: ['Maria Lopez', 'Tom Becker', 'Aisha Khan', 'Peter Novak', 'Lena Schmidt', 'Omar Haddad'],
    city: ['Leeds', 'Porto', 'Graz', 'Tampere', 'Lyon', 'Gdansk', 'Bristol'],
    day: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    month: ['March', 'April', 'June', 'September', 'November'],
    topic: ['waste collection', 'the parking plan', 'school transport', 'the new library', 'water quality', 'the budget'],
  },
  ru: {
    name: ['Иван Петров', 'Ольга Смирнова', 'Сергей Волков', 'Анна Кузнецова', 'Дмитрий Орлов'],
    city: ['Казань', 'Самара', 'Тверь', 'Пермь', 'Томск', 'Вологда'],
    day: [''],
    month: [''],
    topic: ['вывоз мусора', 'парковка', 'школьный автобус', 'новая библиотека', 'качество воды', 'бюджет'],
  },
  de: {
    name: ['Frau Weber', 'Herr Fischer', 'Jana Hoffmann', 'Lukas Wagner', 'Eva Schulz'],
    city: ['Freiburg', 'Kassel', 'Rostock', 'Ulm', 'Bremen', 'Linz'],
    day: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag'],
    month: ['März', 'April', 'Juni', 'September', 'November'],
    topic: ['die Müllabfuhr', 'den Parkplan', 'den Schulbus', 'die neue Bibliothek', 'die Wasserqualität', 'den Haushalt'],
  },
};

const MAILBOXES = ['office', 'billing', 'info', 'm.lopez', 'support', 'kontakt', 'events'];
const DOMAINS = ['example.org', 'example.com', 'example.net'];

/** mulberry32: a small seeded generator, so the prose is the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Paragraphs of 3 to 6 sentences, the languages in turn, until `size` code units; cut to exactly `size`. */
export function buildProse(size: number, languages: readonly Language[], seed: number): string {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const fill = (sentence: string, lang: Language): string =>
    sentence.replace(/\{(\w+)\}/g, (_, slot: string) => {
      if (slot === 'count') return String(2 + Math.floor(random() * 480));
      if (slot === 'pct') return String(3 + Math.floor(random() * 27));
      if (slot === 'email') return `${pick(MAILBOXES)}@${pick(DOMAINS)}`;
      return pick(SLOTS[lang][slot] ?? ['']);
    });
  const paragraphs: string[] = [];
  let length = 0;
  for (let p = 0; length < size; p++) {
    const lang = languages[p % languages.length]!;
    const count = 3 + Math.floor(random() * 4);
    const text = Array.from({ length: count }, () => fill(pick(SENTENCES[lang]), lang)).join(' ');
    paragraphs.push(text);
    length += text.length + 2;
  }
  return paragraphs.join('\n\n').slice(0, size);
}

/** The real-text families the bench adds to the generated ones. */
export function proseFamilies(): AdversarialFamily[] {
  return [{ name: 'prose en+ru+de', build: (size) => buildProse(size, ['en', 'ru', 'de'], 0x5eed) }];
}
