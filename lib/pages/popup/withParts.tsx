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
  return pieces.map((piece, index) =>
    index % 2 === 1 && Object.prototype.hasOwnProperty.call(parts, piece) ? (
      <Fragment key={index}>{parts[piece]}</Fragment>
    ) : (
      piece
    ),
  );
}
