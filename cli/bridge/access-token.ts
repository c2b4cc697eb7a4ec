/**
 * The bridge's secret: made fresh at each start, handed to the page in the link's fragment (which browsers
 * never send to a server), and checked in constant time so a wrong guess says nothing about the right one.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url: safe in a URL fragment. */
export function createAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether `offered` is the token. Both are hashed first so the comparison takes the same time whatever the
 * offered length (`timingSafeEqual` needs equal lengths).
 */
export function tokenMatches(offered: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(offered), digest(token));
}
