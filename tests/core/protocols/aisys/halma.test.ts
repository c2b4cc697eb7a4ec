/**
 * The Halma-like game served by the emulated course server: whole games over `/act` requests, an illegal
 * move answered as the server answers run-level problems (a 200 with an error message, the same request
 * offered again), and the greedy sample playing each ready-made Halma environment through the session the
 * playground and `protoplay run` use.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../../src/core/envs/aisys/api';
import { createHalmaBoard, legalMoves, type Cell } from '../../../../src/core/envs/aisys/halma';
import { AisysHost } from '../../../../src/core/protocols/aisys/host';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import { AisysPolicyRuntime } from '../../../../src/core/protocols/aisys/policy-runtime';
import { supervisedDecide } from '../../../../src/core/protocols/aisys/decide';
import { AisysSession } from '../../../../src/core/protocols/aisys/session';
import { validate } from '../../../../src/core/protocols/machine';
import { localDecide } from '../../../../src/core/protocols/aisys/decide';
import { readAisysRunHistory } from '../../../../src/core/protocols/aisys/run-history';
import type { AisysResponse } from '../../../../src/core/protocols/aisys/messages';

type Percept = Record<string, Cell[]>;

function setUp(config: JsonValue = {}) {
  const host = new AisysHost({ seed: 2 });
  host.addEnvironment('halma', 'halma', config);
  const pwd = host.addAgent('halma', 'ann');
  const act = (actions: { run: string; act_no: number; action: unknown }[]) => {
    const response = host.handle({
      meta: { method: 'PUT', path: '/act/halma', headers: { 'content-type': 'application/json' } },
      body: JSON.stringify({ protocol_version: 1, agent: 'ann', pwd, actions, parallel_runs: false }),
    });
    expect(response.meta.status).toBe(200);
    return JSON.parse(response.body) as AisysResponse;
  };
  return { host, act };
}

/** The first legal move of A (in cell order): a simple policy that always moves. */
function firstMove(percept: Percept): Cell[] {
  const board = createHalmaBoard('star', 3, 2);
  const occupancy = new Uint8Array(board.cells.length);
  ['A', 'B'].forEach((player, i) => {
    for (const [x, y] of percept[player]!) occupancy[board.indexOf(x, y)] = i + 1;
  });
  const [path] = legalMoves(board, occupancy, 1);
  return [board.cells[path![0]!]!, board.cells[path![path!.length - 1]!]!];
}

describe('Halma on the emulated server', () => {
  it('plays a whole game over /act until the run finishes with its outcome', () => {
    const { act } = setUp({ opponent: 'random', max_moves: 40 });
    let response = act([]);
    const [request] = response.action_requests;
    const run = request!.run;
    let actions = 0;
    while (!(run in response.finished_runs)) {
      const asked = response.action_requests.find((r) => r.run === run)!;
      expect(asked.act_no).toBe(actions);
      expect(Object.keys(asked.percept as Percept)).toEqual(['A', 'B']);
      response = act([{ run, act_no: asked.act_no, action: firstMove(asked.percept as Percept) }]);
      actions++;
      expect(response.messages.filter((m) => m.type === 'error')).toEqual([]);
    }
    expect([0, 0.5, 1]).toContain(response.finished_runs[run]);
    expect(actions).toBeLessThanOrEqual(40);
    // Without parallel runs the next request is a new run, from the start.
    expect(response.action_requests[0]).toMatchObject({ act_no: 0 });
    expect(response.action_requests[0]!.run).not.toBe(run);
  });

  it('answers an illegal move with an error message and offers the same request again', () => {
    const { act } = setUp();
    const first = act([]).action_requests[0]!;
    const refused = act([
      {
        run: first.run,
        act_no: 0,
        action: [
          [-3, 6],
          [-3, 5],
        ],
      },
    ]);
    expect(refused.messages).toEqual([
      { content: 'Invalid move: [-3, 5] is not empty', run: first.run, type: 'error' },
    ]);
    expect(refused.action_requests).toEqual([first]);
    expect(refused.finished_runs).toEqual({});
    const malformed = act([{ run: first.run, act_no: 0, action: 'up' }]);
    expect(malformed.messages[0]).toMatchObject({
      type: 'error',
      content: expect.stringMatching(/^Invalid action/),
    });
    expect(malformed.action_requests).toEqual([first]);
    const played = act([
      {
        run: first.run,
        act_no: 0,
        action: [
          [-1, 4],
          [-1, 3],
        ],
      },
    ]);
    expect(played.messages[0]).toMatchObject({
      type: 'info',
      content: expect.stringMatching(/^B (moved|jumped)/),
    });
    expect(played.action_requests[0]).toMatchObject({ run: first.run, act_no: 1 });
  });

  it('refuses a bad config when the environment is made', () => {
    const host = new AisysHost();
    expect(() => host.addEnvironment('h', 'halma', { board: 'rhombus', players: 3 })).toThrow(
      'config players must be 2 on the rhombus board, not 3',
    );
  });
});

describe('the greedy Halma sample', () => {
  const code = aisysProtocol.samples.find((sample) => sample.id === 'halma-greedy')!.code;

  async function play(env: string, runs: number, seed: number) {
    const runtime = new AisysPolicyRuntime();
    expect(
      runtime.load({ code, language: 'ts', fileName: 'greedy.ts', level: 'policy', seed }),
    ).toMatchObject({
      ok: true,
    });
    const session = new AisysSession({
      env,
      runs,
      seed,
      now: () => 0,
      decide: supervisedDecide({ call: (hook, args, context) => runtime.call(hook, args, context) }, { env }),
    });
    const outcome = await session.run();
    return { session, outcome };
  }

  for (const env of ['halma', 'halma-3', 'halma-rhombus'])
    it(`plays ${env} to the end of every run, never refused, and wins some`, async () => {
      const { session, outcome } = await play(env, 12, 1);
      expect(outcome.kind).toBe('finished');
      expect(session.finished.length).toBeGreaterThanOrEqual(12);
      const outcomes = session.finished.map((run) => run.outcome);
      for (const value of outcomes) expect([0, 0.5, 1]).toContain(value);
      expect(outcomes).toContain(1);
      const errors = session.transcript.messages
        .filter((message) => message.dir === 's2c')
        .flatMap((message) => (JSON.parse(message.text!) as AisysResponse).messages)
        .filter((message) => message.type === 'error');
      expect(errors).toEqual([]);
      for (const machine of aisysProtocol.machines)
        expect(validate(machine, session.transcript.messages).violations).toEqual([]);
    });

  it('plays the same games for the same seed', async () => {
    const first = await play('halma', 6, 4);
    const again = await play('halma', 6, 4);
    expect(again.session.transcript.messages).toEqual(first.session.transcript.messages);
  });
});

describe('a Halma run read back from the transcript', () => {
  it('has every request with its percept, the move applied, refusals and replies, and the outcome', async () => {
    const session = new AisysSession({
      env: 'halma',
      runs: 2,
      seed: 3,
      now: () => 0,
      decide: localDecide((percept, run) => {
        // The first answer of every run is refused; then the first legal move.
        if (!run.memory.refused) {
          run.memory.refused = true;
          return 'forward';
        }
        return firstMove(percept as Percept);
      }),
    });
    await session.run();
    const [finished] = session.finished;
    const history = readAisysRunHistory(session.transcript.messages, finished!.run);
    expect(history.outcome).toBe(finished!.outcome);
    expect(history.steps.length).toBe(finished!.actions);
    expect(history.steps.map((step) => step.actNo)).toEqual(history.steps.map((_, i) => i));
    const [first, second] = history.steps;
    expect(first!.messages[0]).toMatchObject({
      type: 'error',
      content: expect.stringMatching(/^Invalid action/),
    });
    expect(first!.messages[1]).toMatchObject({
      type: 'info',
      content: expect.stringMatching(/^B (moved|jumped)/),
    });
    expect(first!.action).toEqual(firstMove(first!.percept as Percept));
    // The next percept is the first one with A's move and B's reply applied.
    const moved = first!.action as Cell[];
    expect(second!.percept).toMatchObject({ A: expect.arrayContaining([moved[moved.length - 1]]) });
    expect((second!.percept as Percept).A).not.toContainEqual(moved[0]);
    expect(history.steps.at(-1)!.messages.at(-1)!.content).toMatch(/won|lost|draw/);
  });
});
