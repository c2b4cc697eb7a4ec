import { describe, expect, it } from 'vitest';
import { findScavengerScenario, SCAVENGER_ACTIONS } from '../../../../src/core/envs/scavenger';
import { playGamaEpisodes } from '../../../../src/core/protocols/gama';
import { gamaProtocol } from '../../../../src/core/protocols/gama/protocol';
import type { MessageSummary } from '../../../../src/core/protocols/reading';
import { Rng } from '../../../../src/core/random';
import { TranscriptRecorder } from '../../../../src/core/transcript/recorder';
import { GamaRowIndex } from '../../../../src/ui/protocols/gama/row-index';

/** The rows of a played session, as the page's reader gives them. */
async function playedRows(episodes: number, seed: number): Promise<MessageSummary[]> {
  const rng = new Rng(seed);
  const recorder = new TranscriptRecorder({ protocol: 'gama', now: () => 0 });
  await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario('A')!, seed, maxCycles: 12 },
    decide: () => SCAVENGER_ACTIONS[rng.nextInt(SCAVENGER_ACTIONS.length)]!,
    episodes,
    recorder,
  });
  const reader = gamaProtocol.createReader();
  reader.append(recorder.transcript.messages, recorder.transcript.annotations);
  return [...reader.messages];
}

/** The same lookups by scanning every row, as the views did. */
const scanned = {
  cycles: (rows: readonly MessageSummary[], episode: number) =>
    rows.reduce((most, row) => (row.round === episode && (row.turn ?? 0) > most ? row.turn! : most), 0),
  lastRequest(rows: readonly MessageSummary[], scavenger: string, until: number) {
    for (let i = Math.min(until, rows.length - 1); i >= 0; i--) {
      const row = rows[i]!;
      if (row.channel === scavenger && (row.type === 'request' || row.type === 'terminal')) return i;
    }
    return undefined;
  },
  scavengers(rows: readonly MessageSummary[]) {
    const ids: string[] = [];
    for (const row of rows)
      if (row.type === 'connect' && row.channel && !ids.includes(row.channel)) ids.push(row.channel);
    return ids;
  },
};

function expectSameAsScan(index: GamaRowIndex, rows: readonly MessageSummary[]) {
  const episodes = new Set(rows.map((row) => row.round ?? 0));
  for (const episode of [...episodes, 99]) expect(index.cycles(episode)).toBe(scanned.cycles(rows, episode));
  expect(index.scavengers).toEqual(scanned.scavengers(rows));
  for (const scavenger of [...scanned.scavengers(rows), 'nobody'])
    for (const until of [0, Math.floor(rows.length / 3), rows.length - 2, rows.length - 1, rows.length + 5])
      expect(index.lastRequest(scavenger, until)).toBe(scanned.lastRequest(rows, scavenger, until));
}

describe('what the GAMA views look up in a growing transcript', () => {
  it('finds after every slice what scanning all the rows finds', async () => {
    const rows = await playedRows(3, 4);
    // Three episodes, each scavenger asking many times.
    expect(new Set(rows.map((row) => row.round).filter((round) => round !== undefined)).size).toBe(3);
    expect(rows.filter((row) => row.type === 'request').length).toBeGreaterThan(30);
    const index = new GamaRowIndex();
    let version = index.update([]);
    // Slices of uneven sizes, as a transcript is shown while it opens.
    for (let shown = 0; shown < rows.length;) {
      shown = Math.min(rows.length, shown + 1 + ((shown * 7) % 53));
      const slice = rows.slice(0, shown);
      const next = index.update(slice);
      expect(next).not.toBe(version);
      version = next;
      expectSameAsScan(index, slice);
    }
    // The same rows again (a fresh array, as the page hands them over) change nothing.
    expect(index.update(rows.slice())).toBe(version);
  });

  it('starts over for another transcript, shorter or of the same length', async () => {
    const first = await playedRows(2, 1);
    const second = await playedRows(1, 2);
    const index = new GamaRowIndex();
    index.update(first);
    expectSameAsScan(index, first);
    index.update(second);
    expectSameAsScan(index, second);
    // As long as the last one, but other rows: not taken for it grown.
    const other = (await playedRows(1, 3)).slice(0, second.length);
    index.update(other);
    expectSameAsScan(index, other);
    index.update([]);
    expectSameAsScan(index, []);
  });
});
