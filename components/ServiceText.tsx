import type { ComponentChildren } from 'preact';
import { Fragment } from 'preact';

/**
 * Text the service or a page supplied (a title, a description, a reason), shown as sent and isolated
 * in its own direction: in a right-to-left page an English sentence keeps its full stop at its end.
 */
export function ServiceText({ children }: { children: ComponentChildren }) {
  return <bdi dir="auto">{children}</bdi>;
}

/** A URL, a path, a file name, code or an amount: left to right in every language, isolated from the words around it. */
export function Verbatim({ children }: { children: ComponentChildren }) {
  return <bdi dir="ltr">{children}</bdi>;
}

const PLACEHOLDER = /\{(\w+)\}/;

/**
 * A translated sentence (a message from t() or plural() with its `{placeholders}` left in) whose
 * values are isolated: each becomes a <bdi>, left to right for the names in `ltr` (URLs, paths),
 * else in its own direction, so "/api/v1" or ".sandbox/demo-key" is not mirrored in Arabic.
 */
export function isolatedMessage(
  message: string,
  values: Readonly<Record<string, string>>,
  ltr: readonly string[] = [],
): ComponentChildren {
  // split() with a capture group: odd pieces are placeholder names, even ones the text between.
  return message.split(PLACEHOLDER).map((piece, index) => {
    if (index % 2 === 0) return piece;
    if (!Object.prototype.hasOwnProperty.call(values, piece)) return `{${piece}}`;
    return (
      <Fragment key={index}>
        {ltr.includes(piece) ? (
          <Verbatim>{values[piece]}</Verbatim>
        ) : (
          <ServiceText>{values[piece]}</ServiceText>
        )}
      </Fragment>
    );
  });
}
