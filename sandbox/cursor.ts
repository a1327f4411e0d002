/** Opaque cursors: base64url of a small JSON position, bound to the list and filter that made it. */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

const positionSchema = z
  .object({
    v: z.literal(1),
    k: z.string().max(32),
    f: z.string().max(64),
    s: z.number().int().min(0),
    r: z.string().max(16).optional(),
    /** A sort key beside `s`, for lists not ordered by insertion (catalysts: their `at`). */
    a: z.string().max(40).optional(),
  })
  .strict();
export type CursorPosition = z.infer<typeof positionSchema>;

export class CursorError extends Error {}

export function encodeCursor(
  kind: string,
  filter: string,
  seq: number,
  fresh = false,
  sortKey?: string,
): string {
  const position: CursorPosition = { v: 1, k: kind, f: filter, s: seq };
  if (sortKey !== undefined) position.a = sortKey;
  // A nonce makes every cursor distinct (the endless-has-more fault needs fresh cursors).
  if (fresh) position.r = randomBytes(6).toString('base64url');
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** The position inside a cursor made for this list and filter; throws CursorError otherwise. */
export function decodeCursor(cursor: string, kind: string, filter: string): number {
  return decodePosition(cursor, kind, filter).s;
}

/** The whole position (with its sort key) inside a cursor made for this list and filter. */
export function decodePosition(cursor: string, kind: string, filter: string): CursorPosition {
  if (cursor.length === 0 || cursor.length > 512 || !/^[\w-]+$/.test(cursor))
    throw new CursorError('The cursor is not one this service issued.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new CursorError('The cursor is not one this service issued.');
  }
  const result = positionSchema.safeParse(parsed);
  if (!result.success) throw new CursorError('The cursor is not one this service issued.');
  if (result.data.k !== kind || result.data.f !== filter)
    throw new CursorError('The cursor belongs to another list or filter.');
  return result.data;
}
