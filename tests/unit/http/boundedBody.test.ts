import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBoundedBytes } from '@/lib/http/boundedBody';

function streamed(chunks: Uint8Array[], headers: Record<string, string> = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers });
}

describe('readBoundedBytes', () => {
  it.each([
    ['an empty body', [], 0],
    ['one chunk at the bound', [new Uint8Array(10)], 10],
    ['several chunks under the bound', [new Uint8Array(3), new Uint8Array(4)], 7],
  ])('reads %s', async (_name, chunks, size) => {
    expect((await readBoundedBytes(streamed(chunks), 10)).byteLength).toBe(size);
  });

  it('refuses a declared length over the bound without reading', async () => {
    const error = await readBoundedBytes(streamed([new Uint8Array(1)], { 'content-length': '11' }), 10).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).declared).toBe(11);
  });

  it('stops a body that runs past the bound while claiming less', async () => {
    const chunks = [new Uint8Array(6), new Uint8Array(6)];
    const error = await readBoundedBytes(streamed(chunks, { 'content-length': '5' }), 10).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).declared).toBeUndefined();
  });

  it('keeps the bytes exactly', async () => {
    const bytes = await readBoundedBytes(
      streamed([new Uint8Array([0xef, 0xbb]), new Uint8Array([0xbf, 0x41])]),
      10,
    );
    expect([...bytes]).toEqual([0xef, 0xbb, 0xbf, 0x41]);
  });
});
