// Hand-written signals of injection and jailbreak phrasing in English and Russian, grouped in
// language-independent families. A family is used twice: as a hashed feature of the head, and as a
// prompt-level rule input of the calibration (calibration.ts), where its weight is fitted on
// out-of-fold data, i.e. on how much it adds on sources the head has not seen. A paraphrased override
// ("pay no attention to the earlier rules") hits the same family as "ignore previous instructions",
// and a Russian one the same as an English one. They run on normalised (lower-case) text.

export const THREAT_SIGNAL_FAMILIES = [
  'override',
  'new_instructions',
  'extraction',
  'persona',
  'role_switch',
  'refusal_suppression',
  'prefix_injection',
  'delimiter',
  'safety_off',
] as const;
export type ThreatSignalFamily = (typeof THREAT_SIGNAL_FAMILIES)[number];

export interface ThreatSignal {
  readonly name: string;
  readonly family: ThreatSignalFamily;
  readonly pattern: RegExp;
  /**
   * A letter every match holds: 'latin' a lower-case a-z, 'cyrillic' one of U+0400-U+04FF (each
   * alternative of the pattern starts with words of that script, matched case-sensitively). A text
   * without one is not searched.
   */
  readonly needs?: 'latin' | 'cyrillic';
}

const G = 'u';

export const THREAT_SIGNALS: readonly ThreatSignal[] = [
  // Instruction override.
  {
    name: 'en.override',
    family: 'override',
    needs: 'latin',
    pattern: new RegExp(
      String.raw`\b(ignore|disregard|forget|override|bypass|skip|drop|abandon|pay no attention to|do not follow|don't follow|stop following)\b.{0,40}?\b(?<!\bmy )(previous|prior|above|earlier|preceding|former|original|initial|old|all|any|your|the|these|those)\b.{0,30}?\b(instructions?|rules?|prompts?|directives?|guidelines?|restrictions?|context|commands?|programming|guardrails?|policies|policy|constraints?)\b|\b(ignore|disregard|forget)\b (everything|all|anything|whatever) (above|before|prior|previously|earlier|you (were|have been|had been) (told|given))`,
      G,
    ),
  },
  {
    name: 'ru.override',
    family: 'override',
    needs: 'cyrillic',
    pattern: new RegExp(
      String.raw`(игнорир|проигнорир|забудь|забудьте|забыть|отбрось|отбросьте|пренебрег|не обращай|не обращайте|не следуй|не следуйте|перестань следовать|отмени|отмените|обойди|обойдите|отключи|отключите|сбрось|сбросьте).{0,40}?(?<!мои |моих |моё |мое |мою |мой )(предыдущ|прошл|ранее|вышеуказанн|выше|все|всё|любые|свои|твои|ваши|данн|изначальн|исходн|прежн|старые).{0,30}?(инструкц|правил|указани|ограничени|промпт|команд|настройк|директив|запрет|фильтр|контекст)`,
      G,
    ),
  },
  {
    name: 'en.new_instructions',
    family: 'new_instructions',
    needs: 'latin',
    pattern: /\b(new|updated|real|actual|true|secret|hidden|additional|override) (instructions?|rules?|task|directive|system prompt|policy)\b|\b(instead|now),? (you will|you must|do|follow|your task)\b/u,
  },
  {
    name: 'ru.new_instructions',
    family: 'new_instructions',
    needs: 'cyrillic',
    pattern: /(новые|новая|обновлённые|обновленные|настоящие|секретные|скрытые|дополнительные) (инструкц|правил|задач|указани|директив)|(вместо этого|теперь) (ты|вы) (должен|должна|должны|будешь|будете|выполни|сделай)/u,
  },
  // System prompt and secret extraction.
  {
    name: 'en.extraction',
    family: 'extraction',
    needs: 'latin',
    pattern:
      /\b(reveal|show|print|repeat|output|tell|display|leak|give|share|disclose|write out|dump|expose|list|recite|spell out|translate|summari[sz]e)\b.{0,40}?\b(system|initial|hidden|secret|original|internal|confidential|developer|pre-?prompt|above|previous|full|exact)\b.{0,20}?\b(prompt|instructions?|message|messages|password|passphrase|key|rules|configuration|guidelines|text|context)\b/u,
  },
  {
    name: 'en.extraction_question',
    family: 'extraction',
    needs: 'latin',
    pattern:
      /\bwhat (is|are|was|were) (your|the) (system prompt|initial instructions|instructions|original instructions|secret|password|hidden instructions|rules)\b|\b(your|the) (system prompt|initial prompt|secret key|password) (is|says)\b|\b(tell|give|reveal|show|share|send|print|leak) (me |us )?(the|your) (admin |administrator |root |secret |master |hidden )?(password|passcode|passphrase|secret key|api key|credentials)\b/u,
  },
  {
    name: 'ru.extraction',
    family: 'extraction',
    needs: 'cyrillic',
    pattern:
      /(покажи|покажите|выведи|выведите|раскрой|раскройте|напиши|напишите|повтори|повторите|расскажи|расскажите|скажи|скажите|сообщи|сообщите|перечисли|процитируй|распечатай|воспроизведи|воспроизведите|озвучь|дай|дайте|поделись|каков|какой|какая|какие|что).{0,40}?(системн|исходн|скрыт|секретн|первоначальн|изначальн|внутренн|конфиденциальн|служебн|начальн|полн|предыдущ|твои|свои|ваши).{0,25}?(промпт|инструкц|подсказ|сообщени|парол|настро|правил|ключ|конфигурац|указани|команд|директив)/u,
  },
  // Persona and mode jailbreaks.
  {
    name: 'en.persona',
    family: 'persona',
    needs: 'latin',
    pattern:
      /\b(dan|do anything now|developer mode|dev mode|god mode|jailbreak|jailbroken|jailbreaking|unfiltered|uncensored|unrestricted|amoral|unethical ai|evil (ai|assistant|confidant|bot)|no (restrictions|limitations|limits|filters|rules|boundaries|ethics|morals|guidelines)|without (any )?(restrictions|limitations|filters|censorship|ethics|morals|guidelines|rules)|free from (all )?(restrictions|rules|constraints)|broken free|freed from)\b/u,
  },
  {
    name: 'ru.persona',
    family: 'persona',
    needs: 'cyrillic',
    pattern:
      /(режим разработчика|режиме разработчика|без (каких-либо )?(ограничений|цензуры|фильтров|правил|морали|этики)|джейлбрейк|джейлбрейка|взлом(анн)?|нет (никаких )?(ограничений|правил|фильтров)|свободн(ый|ая|ы) от (всех |любых )?(ограничений|правил)|ты больше не|аморальн|злой (ии|бот|помощник))/u,
  },
  {
    name: 'en.role_switch',
    family: 'role_switch',
    needs: 'latin',
    pattern: /\b(you are now|from now on|act as|pretend (to be|that you|you are|you're)|roleplay as|role-?play|simulate|stay in character|you will (now )?(be|act|respond)|you're going to (act|be|pretend))\b/u,
  },
  {
    name: 'ru.role_switch',
    family: 'role_switch',
    needs: 'cyrillic',
    pattern: /(ты теперь|вы теперь|отныне|с этого момента|притворись|притворитесь|представь,? что ты|представьте,? что вы|веди себя как|ведите себя как|играй роль|сыграй роль|оставайся в роли|действуй как|действуйте как)/u,
  },
  // Refusal suppression and prefix injection.
  {
    name: 'en.refusal_suppression',
    family: 'refusal_suppression',
    needs: 'latin',
    pattern:
      /\b(never|don't|do not|must not|cannot|can't|shouldn't|should not|will not|won't) (ever )?(refuse|decline|apologi[sz]e|say (you|that you) (can't|cannot)|mention (that|any)|add (any )?(warnings?|disclaimers?)|include (any )?(warnings?|disclaimers?|moral))|\bwithout (any )?(warnings?|disclaimers?|moralizing|caveats|refusals?)\b|\b(do not|don't|never) (break|leave) character\b/u,
  },
  {
    name: 'ru.refusal_suppression',
    family: 'refusal_suppression',
    needs: 'cyrillic',
    pattern: /(никогда не|не смей|не вздумай|нельзя) (отказыва|извиня|предупрежда|упомина)|не извиняйся|не извиняйтесь|без (предупреждений|оговорок|дисклеймеров|отказов|морализаторства)|не (выходи|выходите) из роли/u,
  },
  {
    name: 'en.prefix_injection',
    family: 'prefix_injection',
    needs: 'latin',
    pattern: /\b(start|begin|prefix|open) (your|the|each|every)? ?(response|answer|reply|output|message)s? with\b|\bsure,? here('s| is)\b/u,
  },
  {
    name: 'ru.prefix_injection',
    family: 'prefix_injection',
    needs: 'cyrillic',
    pattern: /(начни|начните|начинай|начинайте) (свой |ваш |каждый )?(ответ|ответы|сообщение|реплику) (с|со)|ответ должен начинаться|конечно,? вот/u,
  },
  // Chat-template and delimiter tricks.
  {
    name: 'delimiter',
    family: 'delimiter',
    pattern: /(<\|im_(start|end)\|>|<<\/?sys>>|\[\/?inst\]|\[system\]|<\/?system>|###\s*(system|instruction|new instructions?)|end of (prompt|instructions|system prompt|context)|конец (инструкций|промпта|контекста)|-{8,}|={8,}|\*{8,}|#{6,})/u,
  },
  // Filters and safety named as things to switch off.
  {
    name: 'en.safety_off',
    family: 'safety_off',
    needs: 'latin',
    pattern: /\b(disable|turn off|switch off|deactivate|remove|bypass|ignore|circumvent|evade) (your |the |all |any )?(safety|content|ethical|moral|openai|security)? ?(filters?|guidelines|policies|protocols|restrictions|safeguards|guardrails|censorship|alignment)\b/u,
  },
  {
    name: 'ru.safety_off',
    family: 'safety_off',
    needs: 'cyrillic',
    pattern: /(отключи|отключите|выключи|выключите|сними|снимите|обойди|обойдите|игнорируй|игнорируйте) (свои |все |любые |твои )?(фильтр|ограничени|защит|цензур|правила безопасности|этическ|модерац)/u,
  },
];

const LATIN_LETTER = /[a-z]/;
const CYRILLIC_LETTER = /[\u0400-\u04ff]/;

/** The families with at least one signal matching `text` (normalised), in THREAT_SIGNAL_FAMILIES order. */
export function threatSignalsIn(text: string, signals: readonly ThreatSignal[] = THREAT_SIGNALS): ThreatSignalFamily[] {
  const hits = new Set<ThreatSignalFamily>();
  // Whether the text has a letter of each script, asked once and only when a signal needs it: a window
  // of Russian text (or of digits and punctuation) skips the English patterns' scans, the most costly
  // part of a window's features there.
  let latin: boolean | undefined;
  let cyrillic: boolean | undefined;
  for (const signal of signals) {
    if (hits.has(signal.family)) continue;
    if (signal.needs === 'latin' && !(latin ??= LATIN_LETTER.test(text))) continue;
    if (signal.needs === 'cyrillic' && !(cyrillic ??= CYRILLIC_LETTER.test(text))) continue;
    if (signal.pattern.test(text)) hits.add(signal.family);
  }
  return THREAT_SIGNAL_FAMILIES.filter((f) => hits.has(f));
}
