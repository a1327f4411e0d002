import { describe, expect, it } from 'vitest';
import { boundedMcpResponse, McpResponseTooLargeError } from '@/lib/mcp/client';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('boundedMcpResponse', () => {
  it('passes a JSON result under the bound unchanged', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'a\r\nb' }] },
    });
    const response = boundedMcpResponse(
      new Response(body, { headers: { 'content-type': 'application/json' } }),
      1_000,
    );
    expect(await response.text()).toBe(body);
  });

  it('fails a result longer than the bound instead of buffering it', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const response = boundedMcpResponse(
      new Response(streamOf(Array.from({ length: 32 }, () => chunk)), {
        headers: { 'content-type': 'application/json' },
      }),
      1_000_000,
    );
    await expect(response.text()).rejects.toBeInstanceOf(McpResponseTooLargeError);
  });

  it('turns CR and CRLF into LF in an event stream, also across chunks', async () => {
    const response = boundedMcpResponse(
      new Response(streamOf(['event: message\r', '\ndata: {}\r\r', 'data: x\n\n']), {
        headers: { 'content-type': 'text/event-stream' },
      }),
    );
    expect(await response.text()).toBe('event: message\ndata: {}\n\ndata: x\n\n');
  });

  it('leaves a null-body status alone', () => {
    const response = new Response(null, { status: 204 });
    expect(boundedMcpResponse(response)).toBe(response);
  });
});
