/**
 * The recorded traffic of a real aisysprojserver (`../shared/conformance/aisysprojserver`), read with the
 * protocol's own recording format, and what replaying it needs: the exchanges in order, and the random
 * draws the real server made (the starts of random Nim heaps and the random opponent's moves), worked out
 * from what its responses show, so the emulated server can make the same ones. Reading fails loudly when
 * the shared folder is missing.
 */
import { readFileSync } from 'node:fs';
import type { TranscriptMessage, Transcript } from '../../../../src/core/transcript/model';
import type { HttpMessage } from '../../../../src/core/protocols/contract';
import { actPathEnvironment, readResponse } from '../../../../src/core/protocols/aisys/codec';
import { aisysJsonlFormat } from '../../../../src/core/protocols/aisys/recording';
import { pythonInt } from '../../../../src/core/envs/aisys/python';
import { sharedPath } from '../../../cli/shared-folder';

/** Every recording, in the order they were made on one server. */
export const RECORDING_NAMES = [
  '01-admin-setup',
  '02-simple-v1-parallel',
  '03-simple-v1-serial-resume',
  '04-client-py-runlimit',
  '05-client-agent-abandon',
  '06-simple-v0',
  '07-errors-auth',
  '08-errors-body',
  '09-run-level-cases',
  '10-probe-plugin-cases',
  '11-admin-cases',
  '12-cors',
  '13-web-ui',
  '14-curl-canonical-serial',
] as const;

export type RecordingName = (typeof RECORDING_NAMES)[number];

/** The admin password of the recorded server (its test configuration). */
export const ADMIN_PASSWORD = 'test-admin-password';

/** One recorded exchange. */
export interface Exchange {
  recording: RecordingName;
  /** 1-based, as the recordings' INDEX.md numbers them. */
  number: number;
  /** The `X-Case` label, when the recording gave one. */
  label?: string;
  /** Seconds since the epoch when it was sent. */
  at: number;
  request: HttpMessage;
  response: HttpMessage;
}

/** The raw bytes of a recording file. */
export function recordingBytes(file: string): Uint8Array {
  return new Uint8Array(readFileSync(sharedPath(`conformance/aisysprojserver/transcripts/${file}`)));
}

/** A recording read with the `.jsonl` recording format. */
export function loadRecording(name: RecordingName): Transcript {
  const outcome = aisysJsonlFormat.read([{ name: `${name}.jsonl`, bytes: recordingBytes(`${name}.jsonl`) }]);
  if (outcome.problems.length) throw new Error(`${name}: ${JSON.stringify(outcome.problems)}`);
  return outcome.transcripts[0]!;
}

/** A transcript message as the HTTP message it carried. */
export function httpOf(message: TranscriptMessage): HttpMessage {
  const { exchange: _exchange, ...meta } = message.http!;
  return { meta, body: message.text ?? '' };
}

/** A recording's exchanges, in order. */
export function exchangesOf(name: RecordingName): Exchange[] {
  const transcript = loadRecording(name);
  const labels = new Map(
    transcript.annotations.map((note) => [
      note.index,
      (note.data as { text: string }).text.replace(/^case: /, ''),
    ]),
  );
  const exchanges: Exchange[] = [];
  for (const message of transcript.messages) {
    if (message.dir !== 'c2s') continue;
    const response = transcript.messages.find((m) => m.dir === 's2c' && m.http?.exchange === message.index)!;
    const label = labels.get(message.index);
    exchanges.push({
      recording: name,
      number: exchanges.length + 1,
      ...(label ? { label } : {}),
      at: (transcript.startedAt + message.t) / 1000,
      request: httpOf(message),
      response: httpOf(response),
    });
  }
  return exchanges;
}

/** How the recorded server's environments were configured (01-admin-setup). */
export const RECORDED_ENVIRONMENTS: Record<string, { strong: boolean; randomStart: boolean } | undefined> = {
  'nim-weak': { strong: false, randomStart: true },
  'nim-strong': { strong: true, randomStart: false },
};

/** One action of a request, in version 1 terms. */
interface SentAction {
  run: string;
  action: unknown;
}

function sentActions(body: string): { actions: SentAction[]; abandoned: string[] } {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { actions: [], abandoned: [] };
  }
  if (!value || typeof value !== 'object' || !Array.isArray(value.actions))
    return { actions: [], abandoned: [] };
  const actions = (value.actions as { run?: unknown; action?: unknown }[]).map((item) => ({
    run: String(item.run).split('#')[0]!,
    action: item.action,
  }));
  const abandoned = Array.isArray(value.to_abandon) ? value.to_abandon.map(String) : [];
  return { actions, abandoned };
}

/** A response's messages as (run, type, content), whatever the protocol version. */
function responseMessages(response: HttpMessage): { run: string; type: string; content: string }[] {
  const reading = readResponse(response);
  if (reading.kind === 'v1')
    return reading.response.messages.map((m) => ({ run: m.run ?? '', type: m.type, content: m.content }));
  if (reading.kind === 'v0') {
    return [...reading.errors, ...reading.messages].flatMap((line) => {
      const match = /^MessageType\.(\w+): Run (\S+): (.*)$/s.exec(line);
      return match ? [{ type: match[1]!, run: match[2]!, content: match[3]! }] : [];
    });
  }
  return [];
}

function actionRequests(response: HttpMessage): { run: string; act_no: number; percept: unknown }[] {
  const reading = readResponse(response);
  if (reading.kind === 'v1') return reading.response.action_requests;
  if (reading.kind === 'v0') return reading.requests;
  return [];
}

/**
 * The draws of `random.randint` the real server made for each run, as `nextInt` results: the start of a
 * random heap (9 + draw), and each random opponent move (1 + draw), worked out from the percepts and
 * messages of the exchanges, in order.
 */
export function recordedDraws(exchanges: readonly Exchange[]): Map<number, number[]> {
  const draws = new Map<number, number[]>();
  const push = (run: number, draw: number) => {
    const list = draws.get(run) ?? [];
    list.push(draw);
    draws.set(run, list);
  };
  const percepts = new Map<number, number>();
  const started = new Set<number>();
  for (const { request, response } of exchanges) {
    const env = actPathEnvironment(request.meta.path);
    const config = env === undefined ? undefined : RECORDED_ENVIRONMENTS[env];
    if (!config) continue;
    const { actions, abandoned } = sentActions(request.body);
    const messages = responseMessages(response);
    const nextMessage = (run: string) => {
      const at = messages.findIndex((m) => m.run === run);
      return at < 0 ? undefined : messages.splice(at, 1)[0];
    };
    for (const run of abandoned) nextMessage(run);
    for (const { run, action } of actions) {
      const message = nextMessage(run);
      const taken = /^Opponent removed (\d)/.exec(message?.content ?? '');
      if (message?.type !== 'info' || !taken) continue;
      const id = Number(run);
      const move = pythonInt(action);
      const left = percepts.get(id)! - (move.ok ? move.value : NaN);
      if (!config.strong || left % 4 === 0) push(id, Number(taken[1]) - 1);
    }
    for (const { run, act_no: actNo, percept } of actionRequests(response)) {
      const id = Number(run);
      percepts.set(id, percept as number);
      if (actNo === 0 && config.randomStart && !started.has(id)) push(id, (percept as number) - 9);
      started.add(id);
    }
  }
  return draws;
}
