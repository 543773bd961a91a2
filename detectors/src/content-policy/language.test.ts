import t from 'tap';
import { createContentLanguageDetector } from './language.js';
import { ISO_639_3_TO_1 } from './language-data.js';
import { ISO_639_1_CODES } from '@palisade/core';

const detect = createContentLanguageDetector();

const SAMPLES: Record<string, string[]> = {
  en: ['The quick brown fox jumps over the lazy dog while the farmer watches from the window.', 'Please tell me about the weather tomorrow'],
  ru: ['Съешь же ещё этих мягких французских булок, да выпей чаю. Это простой пример текста.', 'Привет! Расскажи, пожалуйста, как приготовить борщ на ужин для всей семьи.'],
  uk: ['Чуєш їх, доцю, га? Кумедна ж ти, прощайся без ґольфів! Це простий приклад тексту українською.', 'Привіт! Розкажи, будь ласка, як приготувати борщ на вечерю для всієї родини.'],
  de: ['Der schnelle braune Fuchs springt über den faulen Hund, während der Bauer zuschaut.', 'Können Sie mir bitte sagen, wie spät es ist? Ich muss um acht Uhr am Bahnhof sein.'],
  fr: ['Le renard brun rapide saute par-dessus le chien paresseux pendant que le fermier regarde.', "Bonjour, pouvez-vous m'aider à écrire une lettre de motivation pour un poste d'ingénieur?"],
  es: ['El rápido zorro marrón salta sobre el perro perezoso mientras el granjero mira por la ventana.', '¿Puedes ayudarme a escribir una carta de presentación para un trabajo de ingeniero?'],
  it: ['La volpe marrone veloce salta sopra il cane pigro mentre il contadino guarda dalla finestra.', 'Ciao, puoi aiutarmi a scrivere una lettera di presentazione per un lavoro da ingegnere?'],
  pt: ['A rápida raposa marrom pula sobre o cão preguiçoso enquanto o fazendeiro olha pela janela.', 'Olá, você pode me ajudar a escrever uma carta de apresentação para um emprego de engenheiro?'],
  zh: ['敏捷的棕色狐狸跳过了懒惰的狗，农夫从窗户里看着。'],
  ja: ['素早い茶色の狐が怠け者の犬を飛び越え、農夫が窓から見ている。'],
  ko: ['빠른 갈색 여우가 게으른 개를 뛰어넘고 농부가 창문에서 지켜봅니다.'],
  ar: ['الثعلب البني السريع يقفز فوق الكلب الكسول بينما يراقب المزارع من النافذة.'],
};

const EAST_SLAVIC = new Set(['ru', 'uk', 'be', 'bg']);

t.test('the required languages are detected, as ISO 639-1', async (t) => {
  for (const [language, texts] of Object.entries(SAMPLES)) {
    for (const text of texts) {
      const result = detect(text);
      t.equal(result.language, language, `${language}: ${text.slice(0, 30)}`);
      t.ok(result.determined);
      if (EAST_SLAVIC.has(language)) t.ok(result.candidates.every((c) => EAST_SLAVIC.has(c)), `${language}: ${result.candidates}`);
      else t.same(result.candidates, [language], `${language}: no near-ties`);
    }
  }
});

t.test('Russian and Ukrainian: the letters decide; where they cannot, both are candidates', async (t) => {
  t.same(detect(SAMPLES.ru![0]!).candidates, ['ru'], 'ё, ы, э rule out Ukrainian and Bulgarian');
  t.same(detect(SAMPLES.uk![1]!).candidates, ['uk'], 'і, ї, є rule out Russian');
  // franc-min alone calls this Russian request Ukrainian; it has no letter only one of them writes.
  const short = detect('Помоги мне написать письмо начальнику о переносе встречи');
  t.ok(short.candidates.includes('ru') && short.candidates.includes('uk'), JSON.stringify(short.candidates));
});

t.test('the alphabet rules out trigram guesses the letters contradict', async (t) => {
  // franc-min alone answers Bulgarian for this Russian sentence (it has ё, ы and э) and Italian for the Portuguese one (ã, ç).
  t.same(detect(SAMPLES.ru![0]!).candidates, ['ru']);
  t.same(detect(SAMPLES.pt![0]!).candidates, ['pt']);
  t.same(detect(SAMPLES.uk![0]!).candidates, ['uk'], 'є, ї, ґ rule out Russian');
  t.same(detect('Dzień dobry, chciałbym zarezerwować stolik na dwie osoby na dzisiejszy wieczór.').candidates, ['pl']);
});

t.test('below the minimum, nothing is decided', async (t) => {
  const undetermined = { language: null, candidates: [], determined: false };
  t.same(detect('hello there'), undetermined);
  t.same(detect('Привет, как дела?'), undetermined, '13 letters');
  t.same(detect(''), undetermined);
  t.same(detect('1234 5678 !!! :) https://x.io/42'), undetermined, 'hardly any letters');
  t.same(detect('東京'), undetermined, 'two ideographs count 6');
  t.equal(detect('東京都に住んでいます').language, 'ja', 'ten characters count 30');
  const strict = createContentLanguageDetector({ minLetters: 200 });
  t.same(strict(SAMPLES.en![0]!), undetermined, 'the minimum is an option');
});

t.test('mixed scripts: each large part is detected on its own', async (t) => {
  const mixed = detect('Please translate this into English: Сегодня хорошая погода, и мы идём гулять');
  t.ok(mixed.determined);
  t.ok(mixed.candidates.includes('en') && mixed.candidates.includes('ru'), JSON.stringify(mixed.candidates));
  const mostlyEnglish = detect(`${SAMPLES.en![0]!} ${SAMPLES.en![0]!} ${SAMPLES.en![0]!} Спасибо`);
  t.same(mostlyEnglish.candidates, ['en'], 'a small share of another script is ignored; repetition does not widen the margin');
  const shortPart = detect('Переведи на английский: good morning my friend');
  t.same(shortPart, { language: null, candidates: [], determined: false }, 'a large part too short to tell makes the whole undetermined');
});

t.test('long texts: start, middle and end are looked at', async (t) => {
  const text = `${SAMPLES.en![0]!} `.repeat(30) + `${SAMPLES.ru![0]!} `.repeat(60);
  t.ok(text.length > 4096);
  const result = detect(text);
  t.ok(result.candidates.includes('ru'), 'the Russian middle and end are seen');
  t.ok(result.candidates.includes('en'), 'the English start is seen');
});

t.test('the hint chooses among candidates only', async (t) => {
  t.equal(detect(SAMPLES.en![0]!, 'fr').language, 'en', 'a contradicted hint is ignored');
  const mixed = 'Please translate this into English: Сегодня хорошая погода, и мы идём гулять';
  t.equal(detect(mixed, 'en').language, 'en');
  t.equal(detect('hello', 'en').language, null, 'no hint makes a short text decided');
});

t.test('the code table maps to ISO 639-1 codes only', async (t) => {
  const known = new Set<string>(ISO_639_1_CODES);
  for (const [three, one] of Object.entries(ISO_639_3_TO_1)) t.ok(known.has(one), `${three} → ${one}`);
});

t.test('a language list narrows the statistical guesses and keeps the listed languages right', async (t) => {
  const narrow = createContentLanguageDetector({ languages: ['en', 'ru', 'uk', 'de', 'fr', 'es', 'it', 'pt', 'zh', 'ja', 'ko', 'ar'] });
  for (const [language, texts] of Object.entries(SAMPLES)) {
    for (const text of texts) t.equal(narrow(text).language, language, `${language}: ${text.slice(0, 30)}`);
  }
  const enOnly = createContentLanguageDetector({ languages: ['eng'] });
  t.equal(enOnly(SAMPLES.fr![0]!).language, 'en', 'a 639-3 list works too; an unlisted language takes the nearest listed one');
  t.equal(enOnly(SAMPLES.de![0]!).determined, false, 'unless the letters rule that one out (ü is not English)');
});
