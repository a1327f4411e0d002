/**
 * Skill integrity: SHA-256 (WebCrypto) of the raw bytes of a SKILL.md compared with the index's
 * `digest: "sha256:<hex>"`. Anything but an exact match means the content must not be used.
 */
import { sha256Hex } from '@/lib/digest';

export type SkillVerification = 'verified' | 'digest-mismatch' | 'missing' | 'invalid-digest';

const DIGEST = /^sha256:([0-9a-f]{64})$/i;

/** The expected hex digest, or null when the index's digest is not a well-formed sha256 digest. */
export function parseSha256Digest(digest: string): string | null {
  const match = DIGEST.exec(digest.trim());
  return match ? match[1].toLowerCase() : null;
}

/** Verifies fetched bytes against the index digest; pass null bytes when the fetch failed. */
export async function verifySkillDigest(
  bytes: Uint8Array | null,
  digest: string,
): Promise<SkillVerification> {
  const expected = parseSha256Digest(digest);
  if (!expected) return 'invalid-digest';
  if (!bytes) return 'missing';
  return (await sha256Hex(bytes)) === expected ? 'verified' : 'digest-mismatch';
}
