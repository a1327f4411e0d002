/** SHA-256 (WebCrypto) as lower-case hex: skill integrity checks and API key fingerprints. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // Copy into a fresh ArrayBuffer so a view over a shared or offset buffer hashes only its own bytes.
  const hash = await crypto.subtle.digest('SHA-256', bytes.slice().buffer);
  return Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
