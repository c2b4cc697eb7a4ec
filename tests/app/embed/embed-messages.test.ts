import { describe, expect, it } from 'vitest';
import { originAllowed, readEmbedRequest } from '../../../src/app/embed/embed-messages';
import { embedConfigFragment } from '../../../src/app/embed/embed-start';
import { decodeSharedConfig } from '../../../src/state/share';

describe('embedding API requests', () => {
  it('reads every request type with its fields', () => {
    expect(readEmbedRequest({ protoplay: 1, id: 4, type: 'run' })).toEqual({
      ok: true,
      request: { type: 'run', id: 4 },
    });
    expect(readEmbedRequest({ protoplay: 1, type: 'seek', index: 12 })).toEqual({
      ok: true,
      request: { type: 'seek', index: 12 },
    });
    expect(
      readEmbedRequest({
        protoplay: 1,
        id: 'a',
        type: 'load',
        config: { environment: 'cell_life', seed: 3, rounds: 10, language: 'js', extra: 1 },
      }),
    ).toEqual({
      ok: true,
      request: {
        type: 'load',
        id: 'a',
        config: { environment: 'cell_life', seed: 3, rounds: 10, language: 'js' },
      },
    });
  });

  it('ignores messages of other scripts and says what is wrong with broken ones', () => {
    expect(readEmbedRequest('hello')).toEqual({ ok: false, ignored: true });
    expect(readEmbedRequest({ type: 'run' })).toEqual({ ok: false, ignored: true });
    expect(readEmbedRequest({ protoplay: 2, id: 1, type: 'run' })).toMatchObject({
      ok: false,
      id: 1,
      error: expect.stringContaining('version 1'),
    });
    expect(readEmbedRequest({ protoplay: 1, id: 1, type: 'fly' })).toMatchObject({
      error: expect.stringContaining('unknown request type "fly"'),
    });
    expect(readEmbedRequest({ protoplay: 1, id: 1, type: 'load', config: { rounds: 0 } })).toMatchObject({
      error: 'config.rounds must be an integer of at least 1',
    });
    expect(readEmbedRequest({ protoplay: 1, id: 1, type: 'setCode' })).toMatchObject({
      error: 'setCode needs a code string',
    });
    expect(readEmbedRequest({ protoplay: 1, type: 'load', config: { files: [{ name: 1 }] } })).toMatchObject({
      error: 'config.files must be a list of { name, text }',
    });
  });

  it('answers only the allowed origins, and the player’s own', () => {
    const own = 'https://play.example';
    expect(originAllowed(own, [], own)).toBe(true);
    expect(originAllowed('https://course.example', [], own)).toBe(false);
    expect(originAllowed('https://course.example', ['https://course.example'], own)).toBe(true);
    expect(originAllowed('https://other.example', ['https://course.example'], own)).toBe(false);
    expect(originAllowed('https://other.example', ['*'], own)).toBe(true);
  });

  it('turns a load config into the link it stands for, fields before the link’s', () => {
    const fragment = embedConfigFragment({
      environment: 'cell_life',
      seed: 3,
      code: 'export function act() { return null; }',
      link: 'https://play.example/#e=grid_walk&rounds=10',
    });
    expect(decodeSharedConfig(fragment)).toEqual({
      environment: 'cell_life',
      seed: 3,
      rounds: 10,
      code: 'export function act() { return null; }',
    });
  });
});
