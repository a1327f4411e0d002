/** A body longer than the reader allows; `declared` is set when Content-Length already said so. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(
    readonly maxBytes: number,
    readonly declared?: number,
  ) {
    super(declared === undefined ? `longer than ${maxBytes} bytes` : `${declared} bytes, over ${maxBytes}`);
  }
}

/**
 * Reads at most `maxBytes` of a response body: refused at once when Content-Length says more,
 * and cancelled mid-stream when a body without one (or lying about it) runs past the bound.
 */
export async function readBoundedBytes(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes, declared);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
