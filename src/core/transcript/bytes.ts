/** Conversions between wire bytes and the transcript's text/base64 payloads. */
import type { TranscriptMessage } from './model';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

/** Decodes wire bytes as UTF-8 text when valid, otherwise keeps them as base64 so no byte is lost. */
export function decodeWireBytes(bytes: Uint8Array): { text: string } | { base64: string } {
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { base64: bytesToBase64(bytes) };
  }
}

/**
 * Sets a decoded payload on a message being built, key by key. Spreading the payload into the message's
 * literal instead gives each message a slow shape of its own in Node's V8: a third of the reading of a big
 * rddlsim wire text went to it, and every machine and view reading those messages paid again.
 */
export function setPayload<M extends TranscriptMessage>(
  message: M,
  payload: { text: string } | { base64: string },
): M {
  if ('text' in payload) message.text = payload.text;
  else message.base64 = payload.base64;
  return message;
}

/** The exact bytes of a transcript payload. */
export function payloadBytes(message: { text?: string; base64?: string }): Uint8Array {
  if (message.base64 !== undefined) return base64ToBytes(message.base64);
  return utf8Encoder.encode(message.text ?? '');
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
