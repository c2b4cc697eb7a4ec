import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RDDLSIM_SERVER_BEHAVIOURS } from '../../../../src/core/protocols/rddlsim/protocol-notes';

/** Every note the emulated host can attach, read from its source: `#note('code', 'reaction', ...)`. */
function hostNotes(): Map<string, string> {
  const source = readFileSync(resolve(process.cwd(), 'src/core/protocols/rddlsim/host.ts'), 'utf8');
  const notes = new Map<string, string>();
  for (const match of source.matchAll(/#note\(\s*'([^']+)',\s*'([^']+)'/g)) notes.set(match[1]!, match[2]!);
  return notes;
}

describe('the rddlsim protocol notes', () => {
  it('explain every note the emulated host attaches, with the same reaction of the real server', () => {
    const notes = hostNotes();
    expect(notes.size).toBeGreaterThan(5);
    const listed = new Map(RDDLSIM_SERVER_BEHAVIOURS.map((b) => [b.code, b.reaction]));
    expect(listed).toEqual(notes);
  });

  it('give each behaviour a title and an explanation of its own', () => {
    const titles = new Set(RDDLSIM_SERVER_BEHAVIOURS.map((b) => b.title));
    expect(titles.size).toBe(RDDLSIM_SERVER_BEHAVIOURS.length);
    for (const behaviour of RDDLSIM_SERVER_BEHAVIOURS)
      expect(behaviour.explanation.length).toBeGreaterThan(80);
  });
});
