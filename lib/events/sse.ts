import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * eventsource-parser behind bounds. The service is untrusted: a line or an event that never ends
 * must not grow a buffer without limit, and an id, type or data field must stay small. Line
 * endings are unified to `\n` before the parser sees them, because its `\r` path searches the rest
 * of the chunk once per line (a chunk of `\n` lines ending in one `\r` is quadratic: 400 KB, 250 ms).
 */
export interface SseLimits {
  /** Characters of one line, terminated or not; the parser buffers at most this of an open line. */
  maxLineChars: number;
  /** Characters of one event (every line up to the blank line that ends it), so data is bounded too. */
  maxEventChars: number;
  /** Longer ids are dropped with their event (they would be sent back as Last-Event-ID). */
  maxIdChars: number;
}

export const SSE_LIMITS: SseLimits = { maxLineChars: 65_536, maxEventChars: 65_536, maxIdChars: 256 };

export type SseLimitReason = 'line-too-long' | 'event-too-large';

/** Thrown by `feed` when the stream breaks a bound: the caller aborts the stream and backs off. */
export class SseLimitError extends Error {
  override name = 'SseLimitError';
  constructor(
    readonly reason: SseLimitReason,
    readonly limit: number,
  ) {
    super(
      reason === 'line-too-long'
        ? `The event stream sent a line longer than ${limit} characters.`
        : `The event stream sent an event larger than ${limit} characters.`,
    );
  }
}

export interface BoundedSseHandlers {
  onEvent(message: EventSourceMessage): void;
  /** An event left out for a reason that does not end the stream (an over-long id). */
  onDropped?(reason: 'id-too-long'): void;
}

export interface BoundedSseParser {
  /** Parses a decoded chunk; throws SseLimitError (and parses nothing of it) when it breaks a bound. */
  feed(chunk: string): void;
  /** Characters of the open event the parser may be holding: never more than `maxEventChars`. */
  pendingChars(): number;
}

const LINE_END = /\r\n?/g;

export function createBoundedSseParser(
  handlers: BoundedSseHandlers,
  limits: SseLimits = SSE_LIMITS,
): BoundedSseParser {
  let lineChars = 0;
  let eventChars = 0;
  let endedWithCr = false;
  let broken: SseLimitError | undefined;
  const parser = createParser({
    onEvent(message) {
      if (message.id !== undefined && message.id.length > limits.maxIdChars) {
        handlers.onDropped?.('id-too-long');
        return;
      }
      handlers.onEvent(message);
    },
    onError(error) {
      // Unknown fields and bad `retry:` values are ignored, as the SSE standard says; only the buffer bound matters.
      if (error.type === 'max-buffer-size-exceeded')
        broken = new SseLimitError('event-too-large', limits.maxEventChars);
    },
    // Belt and braces: the checks below keep the parser under this already.
    maxBufferSize: limits.maxLineChars + limits.maxEventChars,
  });

  /** Counts the chunk's lines against the bounds without parsing it (linear); the broken bound, if any. */
  function check(text: string): SseLimitError | undefined {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      const end = newline < 0 ? text.length : newline;
      lineChars += end - start;
      eventChars += end - start;
      if (lineChars > limits.maxLineChars) return new SseLimitError('line-too-long', limits.maxLineChars);
      if (eventChars > limits.maxEventChars)
        return new SseLimitError('event-too-large', limits.maxEventChars);
      if (newline < 0) return undefined;
      // A blank line ends the event; any other line ends only itself.
      eventChars = lineChars === 0 ? 0 : eventChars + 1;
      lineChars = 0;
      start = newline + 1;
    }
  }

  return {
    feed(chunk) {
      if (broken) throw broken;
      // A `\r\n` split across two chunks is one line end, not two.
      const body = endedWithCr && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
      if (body.length === 0) return;
      endedWithCr = body.endsWith('\r');
      const text = body.replace(LINE_END, '\n');
      broken = check(text);
      if (broken) throw broken;
      parser.feed(text);
      // onError may have set it while the parser ran; TypeScript cannot see that through the callback.
      const afterParse = broken as SseLimitError | undefined;
      if (afterParse) throw afterParse;
    },
    pendingChars: () => eventChars,
  };
}
