import { afterEach, describe, expect, it } from 'vitest';
import { errorFromStatus } from '@/lib/api/errors';
import { createPagination } from '@/lib/api/pagination';
import { forgetSecrets, registerSecret } from '@/lib/log';
import { createSecretMask, MASK } from '@/lib/log/secretMask';

/**
 * The key in small pieces: a service that splits it into chunks of 6 to 12 characters (over the
 * fields of a problem, or so that a cut lands inside it) must not get any chunk past the mask.
 */
const KEY = 'sk_live_9f8e7d6c5b4a3210ffeeddcc';
const SHORTEST_CHUNK = 6;
const LONGEST_CHUNK = 12;

function chunksOf(secret: string, length: number): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < secret.length; start += length)
    chunks.push(secret.slice(start, start + length));
  return chunks;
}

/** Every piece of the key of SHORTEST_CHUNK characters found in the text. */
function keyPiecesIn(text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start + SHORTEST_CHUNK <= KEY.length; start++) {
    const piece = KEY.slice(start, start + SHORTEST_CHUNK);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

afterEach(() => forgetSecrets());

describe('the key in chunks', () => {
  it('masks every chunk of 6 to 12 characters at every offset of the key', () => {
    const mask = createSecretMask([KEY]);
    let checked = 0;
    for (let length = SHORTEST_CHUNK; length <= LONGEST_CHUNK; length++) {
      for (let offset = 0; offset + length <= KEY.length; offset++) {
        expect(mask.mask(`<${KEY.slice(offset, offset + length)}>`)).toBe(`<${MASK}>`);
        checked += 1;
      }
    }
    expect(checked).toBe(7 * KEY.length - 56);
  });

  it('a 400 problem whose errors[] carry the key in chunks shows none of them', () => {
    registerSecret(KEY);
    for (let length = SHORTEST_CHUNK; length <= LONGEST_CHUNK; length++) {
      const error = errorFromStatus({
        operationId: 'createPlaybook',
        status: 400,
        siteUrl: 'https://agent.example',
        problem: {
          title: 'Invalid request',
          detail: chunksOf(KEY, length).join(' '),
          errors: chunksOf(KEY, length).map((chunk, index) => ({ path: `/f${index}`, message: chunk })),
        },
      });
      expect(keyPiecesIn(JSON.stringify(error.toJSON())), `chunks of ${length}`).toEqual([]);
      expect(keyPiecesIn(error.message)).toEqual([]);
    }
  });

  it('a GraphQL error is masked before it is cut, wherever the cut lands in the key', async () => {
    registerSecret(KEY);
    for (let pad = 200 - KEY.length; pad < 200; pad++) {
      const pagination = createPagination({
        call: () =>
          Promise.resolve({
            operationId: 'graphql',
            status: 200,
            data: { errors: [{ message: `${'x'.repeat(pad)}${KEY}` }] },
            idempotentReplayed: false,
            notModified: false,
            warnings: [],
          }),
        declaredReplacement: () => undefined,
        resolve: () => {
          throw new Error('not used');
        },
        lookup: () => {
          throw new Error('no bounds declared');
        },
      });
      const error = await pagination
        .paginateGraphQL()
        .next()
        .then(
          () => undefined,
          (thrown: unknown) => thrown as Error,
        );
      expect(error?.message).toContain('refused the query');
      expect(keyPiecesIn(error?.message ?? ''), `padding ${pad}`).toEqual([]);
    }
  });
});
