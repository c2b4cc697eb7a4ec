/**
 * Text carried in a URL: deflated and base64url-encoded, compact enough for a share link's fragment. Core
 * code, so a protocol's own link parameters (its workspace) are written beside its definition.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';

/** Encodes text as deflated base64url (no padding), compact enough for a URL. */
export function compressToBase64Url(text: string): string {
  const bytes = deflateSync(strToU8(text), { level: 9 });
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes what `compressToBase64Url` made; throws on anything else. */
export function decompressFromBase64Url(encoded: string): string {
  const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return strFromU8(inflateSync(bytes));
}
