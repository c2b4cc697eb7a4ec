import { inflateSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  compressToBase64Url,
  decodeSharedConfig,
  decompressFromBase64Url,
  encodeSharedConfig,
} from '../../src/state/share';

describe('shared configuration links', () => {
  const code = 'export function act(observation, context) {\n  return [];\n}\n'.repeat(20);

  it('round-trips every field', () => {
    const config = {
      protocol: 'rddlsim' as const,
      environment: 'sysadmin',
      seed: 42,
      rounds: 3,
      language: 'js' as const,
      code,
    };
    expect(decodeSharedConfig(`#${encodeSharedConfig(config)}`)).toEqual(config);
  });

  it('stores the code deflated in URL-safe base64, shorter than the code itself', () => {
    const encoded = compressToBase64Url(code);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encoded.length).toBeLessThan(code.length / 3);
    // Independent check: standard base64 of a raw deflate stream.
    const standard = encoded.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(standard + '='.repeat((4 - (standard.length % 4)) % 4)), (c) =>
      c.charCodeAt(0),
    );
    expect(strFromU8(inflateSync(bytes))).toBe(code);
    expect(decompressFromBase64Url(encoded)).toBe(code);
  });

  it('keeps non-ASCII code intact', () => {
    const text = '// Grüße, 状態 → ok\nexport const act = () => [];';
    expect(decompressFromBase64Url(compressToBase64Url(text))).toBe(text);
  });

  it('drops invalid fields and keeps the rest of a damaged link', () => {
    expect(decodeSharedConfig('#p=nope&seed=-3&rounds=2.5&lang=py&code=%%%&e=sysadmin')).toEqual({
      environment: 'sysadmin',
    });
    expect(decodeSharedConfig('#seed=7&code=AAAA')).toEqual({ seed: 7 });
  });

  it('reads an empty fragment as no configuration', () => {
    expect(decodeSharedConfig('')).toBeUndefined();
    expect(decodeSharedConfig('#unrelated=1')).toBeUndefined();
  });
});
