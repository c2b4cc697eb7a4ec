import { describe, expect, it } from 'vitest';
import {
  configurationFragment,
  readEmbedOptions,
  storageScopeOf,
  textDigest,
} from '../../src/state/embed-options';

describe('embedding options in a link', () => {
  it('reads every option and ignores malformed values', () => {
    expect(
      readEmbedOptions(
        '#e=cell_life&exercise=week3.ex-1&readonly&panels=editor,chart,bogus,chart&autoplay=1&theme=dark&allow=https://course.example,not-an-origin,*',
      ),
    ).toEqual({
      exercise: 'week3.ex-1',
      readonly: true,
      panels: ['editor', 'chart'],
      autoplay: true,
      theme: 'dark',
      allow: ['https://course.example', '*'],
    });
    expect(readEmbedOptions('#exercise=../../x&theme=pink&readonly=0&allow=ftp://a.b')).toEqual({
      readonly: false,
      autoplay: false,
      theme: 'auto',
      allow: [],
    });
  });

  it('keeps origins as URL spells them, without paths', () => {
    expect(readEmbedOptions('#allow=https://Course.Example:443/week3/').allow).toEqual([
      'https://course.example',
    ]);
  });

  it('leaves the configuration apart from the options', () => {
    expect(configurationFragment('#e=grid_walk&exercise=one&seed=7&allow=*&theme=light')).toBe(
      'e=grid_walk&seed=7',
    );
  });

  it('gives a named exercise, an embedded link and a plain visit their own storage', () => {
    expect(storageScopeOf('#e=grid_walk&exercise=one', false)).toBe('exercise:one');
    expect(storageScopeOf('#e=grid_walk&exercise=one', true)).toBe('exercise:one');
    const first = storageScopeOf('#e=grid_walk&seed=7', true);
    const second = storageScopeOf('#e=cell_life&seed=7', true);
    expect(first).toMatch(/^link:[0-9a-f]{8}$/);
    expect(second).not.toBe(first);
    // The same link with other embedding options is the same exercise.
    expect(storageScopeOf('#e=grid_walk&seed=7&theme=dark', true)).toBe(first);
    expect(storageScopeOf('#e=grid_walk&seed=7', false)).toBeUndefined();
    expect(storageScopeOf('', true)).toBeUndefined();
  });

  it('digests texts stably', () => {
    expect(textDigest('')).toBe('811c9dc5');
    expect(textDigest('a')).toBe('e40c292c');
  });
});
