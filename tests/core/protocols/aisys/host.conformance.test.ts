/**
 * The emulated server against the real one: every recorded exchange of the conformance recordings is
 * replayed, in the order it was made, into one emulated server set up as the real one was (the same
 * environments and agents, the admin password, its random draws, its clock for the results cache). Each
 * answer must be the real answer: the same status, Content-Type and body, byte for byte, modulo the
 * passwords the server generates (the emulator makes its own; requests are rewritten to use them) and the
 * text of tracebacks (only their last line is compared). Run ids match exactly.
 *
 * Not replayed: plugin upload (Protoplay's environments are built in), the HTML web pages and the group
 * management routes (not emulated). One step the recordings skipped is replayed in between (see BRIDGE).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { NIM_CLASS } from '../../../../src/core/envs/aisys/nim';
import type { HttpMessage } from '../../../../src/core/protocols/contract';
import { AisysHost } from '../../../../src/core/protocols/aisys/host';
import { PROBE_CLASS } from './probe-env';
import {
  ADMIN_PASSWORD,
  RECORDING_NAMES,
  exchangesOf,
  recordedDraws,
  type Exchange,
  type RecordingName,
} from './recordings';

/** Exchanges of routes the emulator does not have, by recording and number (INDEX.md). */
const NOT_EMULATED: Partial<Record<RecordingName, readonly number[] | 'all'>> = {
  '01-admin-setup': [1, 2], // PUT /uploadplugin
  '10-probe-plugin-cases': [8], // GET /run/probe/48 (web page)
  '11-admin-cases': [12, 13, 14, 15], // /getenvs and /groupmanagement
  '13-web-ui': 'all',
};

/**
 * Between 04 and 09 the recorded server saw a request that was not recorded: carol answered her five
 * first action requests (taking 1, 1, 1, 1 and 2) without parallel runs, which left run 26 outstanding
 * and 27 to 30 waiting at their second move, as 09 starts. The strong opponent's replies to the first four
 * are forced; to run 30 (8 left) it drew 3.
 */
const BRIDGE = {
  before: { recording: '09-run-level-cases', number: 1 },
  body: {
    protocol_version: 1,
    agent: 'carol',
    pwd: 'o27gbNMLqI03O8bs76cB6_Xel6ikDC-O6O88mmk9bCk',
    actions: [26, 27, 28, 29, 30].map((run) => ({ run: String(run), act_no: 0, action: run === 30 ? 2 : 1 })),
    parallel_runs: false,
  },
  draws: [[30, 2]] as [number, number][],
};

interface Replayed {
  exchange: Exchange;
  answer: HttpMessage;
  /** The recorded response with the emulator's passwords in place of the real ones. */
  expected: HttpMessage;
}

const replayed: Replayed[] = [];
/** The real server's draws, run by run; the replay takes them as the emulator draws. */
let draws: Map<number, number[]>;

function isSkipped(exchange: Exchange): boolean {
  const skip = NOT_EMULATED[exchange.recording];
  return skip === 'all' || (skip?.includes(exchange.number) ?? false);
}

beforeAll(() => {
  const exchanges = RECORDING_NAMES.flatMap((name) => exchangesOf(name));
  draws = recordedDraws(exchanges);
  // The bridge comes before every recorded move of its runs.
  for (const [run, draw] of BRIDGE.draws) draws.set(run, [draw, ...(draws.get(run) ?? [])]);
  let clock = 0;
  const host = new AisysHost({
    adminPassword: ADMIN_PASSWORD,
    environmentClasses: [NIM_CLASS, PROBE_CLASS],
    now: () => clock,
    randomForRun: (run) => ({
      nextInt(n) {
        const draw = draws.get(run)?.shift();
        if (draw === undefined) throw new Error(`run ${run} drew a random number the real server did not`);
        if (draw >= n) throw new Error(`run ${run} drew from [0, ${n}), the real server drew ${draw}`);
        return draw;
      },
    }),
  });
  /** Real password -> the emulator's. */
  const passwords = new Map<string, string>();
  const ours = (text: string) => [...passwords].reduce((out, [real, own]) => out.replaceAll(real, own), text);
  for (const exchange of exchanges) {
    if (exchange.recording === BRIDGE.before.recording && exchange.number === BRIDGE.before.number) {
      const bridge = host.handle({
        meta: { method: 'PUT', path: '/act/nim-strong', headers: { 'content-type': 'application/json' } },
        body: ours(JSON.stringify(BRIDGE.body)),
      });
      expect(bridge.meta.status, bridge.body).toBe(200);
    }
    if (isSkipped(exchange)) continue;
    clock = exchange.at * 1000;
    const answer = host.handle({ meta: exchange.request.meta, body: ours(exchange.request.body) });
    const made = /^\/+makeagent\//.test(exchange.request.meta.path!) && answer.meta.status === 200;
    if (made) passwords.set(JSON.parse(exchange.response.body).pwd, JSON.parse(answer.body).pwd);
    replayed.push({
      exchange,
      answer,
      expected: { ...exchange.response, body: ours(exchange.response.body) },
    });
  }
});

/** A traceback's last line, whether the emulator's or a recording's redacted one. */
function lastTracebackLine(description: string): string {
  const redacted = /^\[traceback redacted: \d+ lines; last line: (.*)\]$/.exec(description);
  if (redacted) return redacted[1]!;
  return description.trimEnd().split('\n').at(-1)!;
}

/** A body with the descriptions of crashes (and the `/errors` list) reduced to their last lines. */
function comparable(replay: HttpMessage, path: string): string {
  if (path === '/errors') return JSON.stringify((JSON.parse(replay.body) as string[]).map(lastTracebackLine));
  if (replay.meta.status === 500 && replay.body.startsWith('{"description":')) {
    const body = JSON.parse(replay.body) as { description: string };
    return JSON.stringify({ ...body, description: lastTracebackLine(body.description) });
  }
  return replay.body;
}

describe('the emulated server answers every recorded request as the real server did', () => {
  it('draws exactly the random numbers the real server drew', () => {
    const left = [...draws].filter(([, list]) => list.length > 0);
    expect(left).toEqual([]);
    expect(draws.size).toBeGreaterThan(30);
  });

  for (const name of RECORDING_NAMES) {
    it(name, () => {
      const ofRecording = replayed.filter((r) => r.exchange.recording === name);
      if (NOT_EMULATED[name] === 'all') {
        expect(ofRecording).toEqual([]);
        return;
      }
      expect(ofRecording.length).toBeGreaterThan(0);
      for (const { exchange, answer, expected } of ofRecording) {
        const where = `${name} #${exchange.number} ${exchange.label ?? ''} ${exchange.request.meta.method} ${exchange.request.meta.path}`;
        expect(answer.meta.status, where).toBe(expected.meta.status);
        expect(answer.meta.headers?.['content-type'], where).toBe(expected.meta.headers?.['content-type']);
        expect(answer.meta.headers?.allow, where).toBe(expected.meta.headers?.allow);
        const path = exchange.request.meta.path!;
        expect(comparable(answer, path), where).toBe(comparable(expected, path));
      }
    });
  }
});
