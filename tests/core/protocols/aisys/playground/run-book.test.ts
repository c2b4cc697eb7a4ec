import { describe, expect, it } from 'vitest';
import { AisysSession, localDecide } from '../../../../../src/core/protocols/aisys';
import {
  AisysRunBook,
  TABLE_FINISHED_RUNS,
} from '../../../../../src/core/protocols/aisys/playground/run-book';
import { loadRecording } from '../recordings';

/** A run book of a recording of the real server. */
function bookOf(name: Parameters<typeof loadRecording>[0]): AisysRunBook {
  const book = new AisysRunBook();
  book.add(loadRecording(name).messages);
  return book;
}

describe('the run book, on recordings of the real server', () => {
  it("follows a client.py session that abandons an old run: the run's warning, outcome and flag", () => {
    const book = bookOf('05-client-agent-abandon');
    expect(book.overview().channels).toEqual(['nim-weak/alice']);
    const abandoned = book.run('15')!;
    expect(abandoned).toMatchObject({ status: 'finished', outcome: 0, abandoned: true });
    expect(abandoned.steps[0]!.messages).toEqual([
      { content: 'Run abandoned (as requested by client)', run: '15', type: 'warning' },
    ]);
    // A played run: every percept with the action sent for it and the opponent's move.
    const played = book.run('31')!;
    expect(played.steps.map((s) => [s.actNo, s.percept, s.actions.map((a) => a.action)])).toEqual([
      [0, 11, [1]],
      [1, 7, [2]],
      [2, 3, [1]],
      [3, 1, []],
    ]);
    expect(played.steps[0]!.messages[0]!.content).toBe('Opponent removed 3');
    expect(played.status).toBe('outstanding');
  });

  it('rates as the server does, assuming its default threshold for an environment it does not know', () => {
    const overview = bookOf('02-simple-v1-parallel').overview();
    expect(overview.counts).toEqual({ outstanding: 5, active: 0, finished: 10, gone: 0 });
    expect(overview.rating).toMatchObject({
      totalRuns: 10,
      threshold: 50,
      settingsKnown: false,
      fullyEvaluated: false,
      best: 0,
    });
    const finished = overview.rows.filter((r) => r.status === 'finished');
    const wins = finished.filter((r) => r.outcome === 1).length;
    expect(overview.rating.current).toBeCloseTo(wins / finished.length);
    expect(overview.series.map((p) => p.totalRuns)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('lists the agents of a recording with several, and keeps the last refusal with its body', () => {
    const book = bookOf('07-errors-auth');
    expect(book.channels).toContain('nim-weak/mallory');
    const mallory = book.overview('nim-weak/mallory');
    expect(mallory.agent).toBe('mallory');
    expect(mallory.lastError).toMatchObject({
      status: 401,
      body: '{"errorcode": 401, "errorname": "Unauthorized", "description": "unknown agent"}',
    });
    const { rows, total } = book.exchanges(0, 1);
    expect(total).toBeGreaterThan(1);
    expect(rows).toEqual([
      expect.objectContaining({ method: 'PUT', status: 401, gist: 'Unauthorized: wrong password' }),
    ]);
    // From the end: the last exchange.
    expect(book.exchanges(-1, 1).rows[0]!.request).toBe(book.exchanges(total - 1, 1).rows[0]!.request);
  });

  it('counts a run abandoned after it finished twice, as the real server does', () => {
    const overview = bookOf('09-run-level-cases').overview('nim-strong/carol');
    expect(overview.rating.totalRuns).toBe(overview.series.length);
    const runs = overview.series.map((p) => p.run);
    expect(new Set(runs).size).toBeLessThan(runs.length);
    expect(overview.counts.finished).toBe(new Set(runs).size);
  });

  it('reads version 0 sessions: runs and actions, without outcomes', () => {
    const book = bookOf('06-simple-v0');
    const overview = book.overview();
    expect(overview.agent).toBe('bob');
    expect(overview.rows.length).toBeGreaterThan(0);
    const run = book.run(overview.rows[0]!.id)!;
    expect(run.steps[0]!.actions.length).toBe(1);
  });
});

describe('the run book, on a session played here', () => {
  it('agrees with the emulated server on every rating', async () => {
    const session = new AisysSession({ env: 'nim', runs: 40, seed: 5, decide: localDecide(() => 1) });
    await session.run();
    const book = new AisysRunBook();
    book.add(session.transcript.messages);
    const overview = book.overview();
    const server = session.host.server.results.get('nim/agent')!;
    expect(overview.rating).toMatchObject({
      totalRuns: server.totalRuns,
      fullyEvaluated: server.fullyEvaluated,
      current: server.currentRating,
      best: server.bestRating,
      threshold: 10,
      settingsKnown: true,
    });
    expect(overview.counts.finished).toBe(server.totalRuns);
  });
});

describe('the run book, on long sessions', () => {
  it('thins the rating series evenly beyond 2,000 runs, keeping the last', async () => {
    const session = new AisysSession({ env: 'nim', runs: 4100, seed: 2, decide: localDecide(() => 1) });
    await session.run();
    const book = new AisysRunBook();
    book.add(session.transcript.messages);
    const overview = book.overview();
    expect(overview.rating.totalRuns).toBeGreaterThanOrEqual(4100);
    expect(overview.series.length).toBeLessThanOrEqual(2001);
    expect(overview.series.at(-1)!.totalRuns).toBe(overview.rating.totalRuns);
    expect(overview.rows.filter((r) => r.status === 'finished')).toHaveLength(TABLE_FINISHED_RUNS);
    expect(overview.omittedFinished).toBe(overview.counts.finished - TABLE_FINISHED_RUNS);
  });
});
