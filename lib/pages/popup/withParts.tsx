import type { ComponentChildren } from 'preact';
import { Fragment } from 'preact';
import { t, type TextKey } from '@/lib/i18n';

const PLACEHOLDER = /\{(\w+)\}/;

/**
 * A message whose placeholders are elements (a link inside a sentence): the locale decides where
 * each one goes. Plain-text parts are the message's own; each element is inserted once, as is.
 */
export function withParts(
  key: TextKey,
  parts: Readonly<Record<string, ComponentChildren>>,
): ComponentChildren {
  // Without values t() leaves every {placeholder} in place.
  const pieces = t(key).split(PLACEHOLDER);
  // split() with a capture group: odd pieces are placeholder names, even ones the text between.
  return pieces.map((piece, index) => {
    if (index % 2 === 0) return piece;
    if (!Object.prototype.hasOwnProperty.call(parts, piece)) return `{${piece}}`;
    return <Fragment key={index}>{parts[piece]}</Fragment>;
  });
}
