/**
 * Sentences put side by side in the UI language. Japanese and Chinese end a sentence with a
 * full-width stop and start the next one right after it; the other languages (Arabic included)
 * put a space between them. The join is a message (`common.separator.sentence`), so it follows
 * the language the words are in: a browser in zh_TW, which Chrome serves the English messages,
 * gets English spacing. The message holds both sentences as placeholders ("{first} {next}"), as
 * an empty message could not be told from a missing one.
 */
import { t } from './messages';

const FIRST = '\u0000first\u0000';
const NEXT = '\u0000next\u0000';

/** The text put between two sentences in the UI language: "" for ja and zh_CN, else a space. */
export function sentenceGap(): string {
  const pair = t('common.separator.sentence', { first: FIRST, next: NEXT });
  const start = pair.indexOf(FIRST);
  const end = pair.indexOf(NEXT);
  // A message without both placeholders is a locale fault the tests catch: fall back to a space.
  return start >= 0 && end > start ? pair.slice(start + FIRST.length, end) : ' ';
}

/** The non-empty sentences in order, joined as the UI language joins sentences. */
export function joinSentences(...sentences: readonly (string | undefined | null | false)[]): string {
  return sentences
    .filter((sentence): sentence is string => typeof sentence === 'string' && sentence.trim() !== '')
    .map((sentence) => sentence.trim())
    .join(sentenceGap());
}

/** A stop already ends the sentence: Latin, full-width, Arabic or an ellipsis. */
const ENDS_WITH_STOP = /[.!?。！？؟…]$/u;
const ENDS_IN_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

/**
 * Someone else's sentence (the service's) ended with a stop in its own script: "。" after
 * Japanese or Chinese text, "." after anything else; one it already ends with is kept.
 */
export function endSentence(sentence: string): string {
  const text = sentence.trimEnd();
  if (text === '' || ENDS_WITH_STOP.test(text)) return text;
  return ENDS_IN_CJK.test(text) ? `${text}。` : `${text}.`;
}

export const MAX_NOTIFIED_TITLE = 80;

/** Control, format (bidi overrides, zero-width) and separator characters that could disguise a title. */
const HIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export function clipTitle(title: string): string {
  const clean = title.replace(HIDDEN_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > MAX_NOTIFIED_TITLE ? `${clean.slice(0, MAX_NOTIFIED_TITLE - 1)}…` : clean;
}
