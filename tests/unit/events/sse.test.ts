import { describe, expect, it } from 'vitest';
import type { EventSourceMessage } from 'eventsource-parser';
import { createBoundedSseParser, SSE_LIMITS, SseLimitError } from '@/lib/events/sse';
import { cpuNow, linearBound } from '../../fixtures/linearTime';

function collect(limits = SSE_LIMITS) {
  const events: EventSourceMessage[] = [];
  const dropped: string[] = [];
  const parser = createBoundedSseParser(
    { onEvent: (event) => events.push(event), onDropped: (reason) => dropped.push(reason) },
    limits,
  );
  return { parser, events, dropped };
}

const ONE_EVENT = 'event: backtest.completed\nid: evt_1\ndata: {"a":1}\n\n';

describe('createBoundedSseParser', () => {
  it.each([
    ['LF', ONE_EVENT],
    ['CRLF', ONE_EVENT.replace(/\n/g, '\r\n')],
    ['CR', ONE_EVENT.replace(/\n/g, '\r')],
  ])('reads events with %s line ends', (_name, text) => {
    const { parser, events } = collect();
    parser.feed(text);
    expect(events).toEqual([{ event: 'backtest.completed', id: 'evt_1', data: '{"a":1}' }]);
  });

  it('reads a CRLF split across two chunks as one line end, and a chunk at a time', () => {
    const { parser, events } = collect();
    const text = `: hello\r\n${ONE_EVENT.replace(/\n/g, '\r\n')}${ONE_EVENT}`;
    for (const char of text) parser.feed(char);
    expect(events).toHaveLength(2);
    expect(events[0]).toEqual({ event: 'backtest.completed', id: 'evt_1', data: '{"a":1}' });
  });

  it('drops an event whose id is longer than the bound and keeps reading', () => {
    const { parser, events, dropped } = collect();
    parser.feed(`id: ${'i'.repeat(SSE_LIMITS.maxIdChars + 1)}\ndata: x\n\n${ONE_EVENT}`);
    expect(dropped).toEqual(['id-too-long']);
    expect(events.map((e) => e.id)).toEqual(['evt_1']);
  });

  it('aborts on a line longer than the bound, however it is chunked, and stays aborted', () => {
    const { parser, events } = collect();
    const chunk = 'x'.repeat(1_000);
    let error: unknown;
    try {
      for (let i = 0; i < 100; i += 1) {
        parser.feed(chunk);
        expect(parser.pendingChars()).toBeLessThanOrEqual(SSE_LIMITS.maxLineChars);
      }
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SseLimitError);
    expect((error as SseLimitError).reason).toBe('line-too-long');
    expect(() => parser.feed(ONE_EVENT)).toThrow(SseLimitError);
    expect(events).toEqual([]);
  });

  it('aborts on an event whose many short data lines add up past the bound', () => {
    const { parser, events } = collect();
    expect(() => {
      for (let i = 0; i < 10_000; i += 1) parser.feed('data: 0123456789\n');
    }).toThrow(expect.objectContaining({ reason: 'event-too-large' }) as Error);
    expect(events).toEqual([]);
  });

  it('lets many small events through: the event bound resets at each blank line', () => {
    const { parser, events } = collect();
    parser.feed(ONE_EVENT.repeat(5_000));
    expect(events).toHaveLength(5_000);
  });

  it('costs bounded memory and linear time for 10 MB without a newline', () => {
    const { parser } = collect();
    const chunk = 'a'.repeat(16_384);
    let fed = 0;
    let maxPending = 0;
    const started = cpuNow();
    let error: unknown;
    try {
      while (fed < 10 * 1024 * 1024) {
        parser.feed(chunk);
        fed += chunk.length;
        maxPending = Math.max(maxPending, parser.pendingChars());
      }
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SseLimitError);
    // The stream is refused as soon as the open line passes the bound, long before 10 MB.
    expect(fed).toBeLessThanOrEqual(SSE_LIMITS.maxLineChars);
    expect(maxPending).toBeLessThanOrEqual(SSE_LIMITS.maxLineChars);
    // And even if a caller kept feeding, nothing more is buffered.
    for (let i = 0; i < 600; i += 1) expect(() => parser.feed(chunk)).toThrow(SseLimitError);
    expect(parser.pendingChars()).toBeLessThanOrEqual(SSE_LIMITS.maxLineChars + chunk.length);
    // Refused early, then each feed refused at once: less than a thousand passes over a megabyte.
    expect(cpuNow() - started).toBeLessThan(linearBound('', 1_000));
  });

  // eventsource-parser alone searches the rest of a chunk for `\r` once per line when the chunk holds one.
  it('reads 1 MB of lines ending in a single CR in linear time', () => {
    const { parser, events } = collect();
    const text = `${': k\n\n'.repeat(200_000)}data: x\n\r`;
    const started = cpuNow();
    parser.feed(text);
    expect(cpuNow() - started).toBeLessThan(linearBound(text, 1_000));
    expect(events).toEqual([{ event: undefined, id: undefined, data: 'x' }]);
  });
});

describe('eventFromMessage', () => {
  const data = JSON.stringify({
    id: 'evt_1',
    type: 'backtest.completed',
    playbook_id: 'pb_1',
    at: '2026-02-01T00:00:00.000Z',
    data: {},
  });

  it('accepts a known type whose data is a matching event', async () => {
    const { eventFromMessage } = await import('@/lib/events');
    expect(eventFromMessage({ event: 'backtest.completed', data })?.id).toBe('evt_1');
  });

  it.each([
    ['no event type', { data }],
    ['an unknown type', { event: 'x'.repeat(10_000), data }],
    ['a type that differs from the data', { event: 'execution.started', data }],
    ['data that is not JSON', { event: 'backtest.completed', data: '{' }],
    [
      'an oversized playbook id',
      { event: 'backtest.completed', data: data.replace('pb_1', 'p'.repeat(300)) },
    ],
  ])('refuses %s', async (_name, message) => {
    const { eventFromMessage } = await import('@/lib/events');
    expect(eventFromMessage(message)).toBeUndefined();
  });
});
