import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RddlModel, SimulatorOptions } from '../../../../src/core/envs/rddl/api';
import { parseServerMessage } from '../../../../src/core/protocols/rddlsim/codec';
import {
  RddlsimHost,
  rddlsimTaskRddl,
  rddlsimTaskText,
  type HostConnection,
  type HostEffect,
  type RddlsimHostOptions,
} from '../../../../src/core/protocols/rddlsim/host';
import type { RddlsimServerMessage } from '../../../../src/core/protocols/rddlsim/messages';
import { base64ToBytes } from '../../../../src/core/transcript/bytes';
import { loadRddl } from '../../../../src/core/envs/rddl';
import { createProbeModel, type ProbeOptions } from './probe-model';

const encoder = new TextEncoder();
const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A host serving the probe instances, with a clock the test moves. */
function probeHost(options: Partial<RddlsimHostOptions> & { probe?: ProbeOptions } = {}) {
  const clock = { now: 1_000_000 };
  const host = new RddlsimHost({
    rounds: 2,
    now: () => clock.now,
    resolveInstance: (name) =>
      name === 'probe_inst_1' || name === 'probe_term_1'
        ? {
            model: createProbeModel({ instance: name, ...options.probe }),
            task: 'domain probe_mdp {}\n\ninstance\n',
          }
        : undefined,
    ...options,
  });
  return { host, clock };
}

/** What a connection did in answer to some client messages. */
interface Reaction {
  sent: RddlsimServerMessage[];
  texts: string[];
  notes: string[];
  violations: string[];
  closed: boolean;
}

function react(effects: HostEffect[]): Reaction {
  const reaction: Reaction = { sent: [], texts: [], notes: [], violations: [], closed: false };
  for (const effect of effects) {
    if (effect.kind === 'send') {
      reaction.sent.push(effect.message);
      reaction.texts.push(effect.text);
      expect(new TextDecoder().decode(effect.bytes)).toBe(
        effect.framing === 'nul' ? `${effect.text}\0` : effect.text,
      );
    } else if (effect.kind === 'note')
      reaction.notes.push(`${effect.note.realServer}: ${effect.note.message}`);
    else if (effect.kind === 'violation') reaction.violations.push(effect.violation.rule);
    else if (effect.kind === 'close') reaction.closed = true;
  }
  return reaction;
}

/** Sends client message bodies (each with header and NUL) one by one; returns the reaction to the last. */
function send(connection: HostConnection, ...bodies: string[]): Reaction {
  let reaction = react([]);
  for (const body of bodies) reaction = react(connection.receive(encoder.encode(`${HEADER}${body}\0`)));
  return reaction;
}

const request = (problem = 'probe_inst_1', extra = '') =>
  `<session-request><problem-name>${problem}</problem-name><client-name>probe</client-name>${extra}</session-request>`;
const action = (name: string, value: string, ...args: string[]) =>
  `<action><action-name>${name}</action-name>${args.map((a) => `<action-arg>${a}</action-arg>`).join('')}<action-value>${value}</action-value></action>`;
const actions = (...list: string[]) => `<actions>${list.join('')}</actions>`;
const ROUND_REQUEST = '<round-request/>';
const NOOP = '<actions/>';

function fluentValue(message: RddlsimServerMessage, name: string, args: string[] = []): string | undefined {
  if (message.type !== 'turn' || !message.fluents) return undefined;
  return message.fluents.find((f) => f.name === name && f.args.join() === args.join())?.value;
}

describe('the session-init task read back', () => {
  const one =
    'domain d_mdp {\n  reward = 1.0;\n}\ninstance i1 { domain = d_mdp; horizon = 2; discount = 1.0; }';

  it('reads the file once when the server sent the one file holding domain and instance twice', () => {
    expect(rddlsimTaskRddl(rddlsimTaskText(one, one))).toBe(one);
    // A server on Windows separates with its own line separator.
    expect(rddlsimTaskRddl(`${one}\r\n\r\n${one}\r\n`)).toBe(one);
    expect(loadRddl([{ name: 'task', text: rddlsimTaskRddl(rddlsimTaskText(one, one)) }]).info.instance).toBe(
      'i1',
    );
    // Read whole, the doubled task defines its blocks twice.
    expect(() => loadRddl([{ name: 'task', text: rddlsimTaskText(one, one) }])).toThrow(/two domains named/);
  });

  it('reads any other task as it is', () => {
    const domain = 'domain d_mdp {\n  reward = 1.0;\n}';
    const instance = 'instance i1 { domain = d_mdp; horizon = 2; discount = 1.0; }';
    for (const task of [
      rddlsimTaskText(domain, instance),
      `${one}\n\n${one}`,
      '',
      '\n\n\n',
      `${one}\n\n${one} \n`,
    ])
      expect(rddlsimTaskRddl(task)).toBe(task);
  });
});

describe('host: session flow', () => {
  it('answers a session-request with session-init: base64 task, session id, rounds, time allowed', () => {
    const { host } = probeHost({
      resolveInstance: () => ({ model: createProbeModel(), task: rddlsimTaskText('dömain', 'inst') }),
    });
    const reaction = send(host.accept(), request());
    expect(reaction.texts[0]).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<session-init><task>/);
    const init = reaction.sent[0]!;
    expect(init).toMatchObject({ type: 'session-init', sessionId: 1, numRounds: 2, timeAllowed: 1_080_000 });
    const task = new TextDecoder().decode(base64ToBytes((init as { task: string }).task));
    expect(task).toBe('dömain\n\ninst\n');
    expect(reaction.texts[0]).toContain('<time-allowed>1080000.0</time-allowed>');
  });

  it('plays rounds: round-init then turn 1 with reward 0.0, every state grounding each turn', () => {
    const { host } = probeHost();
    const connection = host.accept();
    send(connection, request());
    const start = send(connection, ROUND_REQUEST);
    expect(start.sent.map((m) => m.type)).toEqual(['round-init', 'turn']);
    expect(start.sent[0]).toMatchObject({ roundNum: 1, roundLeft: 1 });
    expect(start.sent[1]).toMatchObject({ turnNum: 1, immediateReward: 0 });
    const fluents = (start.sent[1] as { fluents: unknown[] }).fluents;
    expect(fluents).toEqual([
      { name: 'mode', args: [], value: '@low' },
      { name: 'flag', args: ['a'], value: 'false' },
      { name: 'flag', args: ['b'], value: 'false' },
      { name: 'pos', args: [], value: '0.0' },
      { name: 'count', args: [], value: '1' },
    ]);
  });

  it('sends the last step’s reward only in round-end, sums discounted rewards, then ends the session', () => {
    const { host } = probeHost({
      resolveInstance: () => ({ model: createProbeModel({ instance: 'probe_term_1' }), task: 'x' }),
    });
    const connection = host.accept();
    send(connection, request('probe_term_1'), ROUND_REQUEST);
    const inc = actions(action('inc', '1'));
    expect(send(connection, inc).sent[0]).toMatchObject({ type: 'turn', turnNum: 2, immediateReward: 1 });
    // count reaches 3: terminate-when holds; round-reward = 1 + 0.5 * 2.
    const end = send(connection, inc);
    expect(end.sent).toEqual([
      expect.objectContaining({
        type: 'round-end',
        roundNum: 0,
        roundReward: 2,
        turnsUsed: 2,
        immediateReward: 2,
      }),
    ]);
    send(connection, ROUND_REQUEST, inc);
    const last = send(connection, inc);
    expect(last.sent.map((m) => m.type)).toEqual(['round-end', 'session-end']);
    expect(last.sent[0]).toMatchObject({ roundNum: 1 });
    expect(last.sent[1]).toMatchObject({ totalReward: 4, roundsUsed: 2, sessionId: 1, clientName: 'probe' });
    expect(last.closed).toBe(true);
    expect(connection.receive(encoder.encode(`${HEADER}${ROUND_REQUEST}\0`))).toEqual([]);
  });

  it('plays exactly the horizon when there is no terminate-when', () => {
    const { host } = probeHost();
    const connection = host.accept();
    send(connection, request(), ROUND_REQUEST);
    const turns = [NOOP, NOOP, NOOP].map((body) => send(connection, body).sent[0]!.type);
    expect(turns).toEqual(['turn', 'turn', 'turn']);
    expect(send(connection, NOOP).sent[0]).toMatchObject({ type: 'round-end', turnsUsed: 4 });
  });

  it('gives each connection the next session id and simulator seed seed + id - 1', () => {
    const seeds: number[] = [];
    const model = createProbeModel();
    const recording: RddlModel = {
      ...model,
      createSimulator: (options: SimulatorOptions) => {
        seeds.push(options.seed);
        return model.createSimulator(options);
      },
    };
    const { host } = probeHost({ seed: 10, resolveInstance: () => ({ model: recording, task: 'x' }) });
    host.accept();
    const second = host.accept();
    expect(second.sessionId).toBe(2);
    expect(send(second, request()).sent[0]).toMatchObject({ sessionId: 2 });
    expect(seeds).toEqual([11]);
  });

  it('sends the text null instead of session-init when the task cannot be read, and goes on', () => {
    const { host } = probeHost({ resolveInstance: () => ({ model: createProbeModel(), task: null }) });
    const connection = host.accept();
    const init = send(connection, request());
    expect(init.texts).toEqual(['null']);
    expect(init.notes[0]).toMatch(/^answers: the task files cannot be read/);
    expect(send(connection, ROUND_REQUEST).sent.map((m) => m.type)).toEqual(['round-init', 'turn']);
  });

  it('sends null for input-language pddl (there are no PDDL files)', () => {
    const { host } = probeHost();
    expect(
      send(host.accept(), request('probe_inst_1', '<input-language> pddl </input-language>')).texts,
    ).toEqual(['null']);
  });

  it('processes pipelined messages in order and ignores whatever follows a close', () => {
    const { host } = probeHost();
    const connection = host.accept();
    const both = react(
      connection.receive(encoder.encode(`${HEADER}${request()}\0${HEADER}${ROUND_REQUEST}\0`)),
    );
    expect(both.sent.map((m) => m.type)).toEqual(['session-init', 'round-init', 'turn']);
    const after = react(connection.receive(encoder.encode(`<round-request/>\0${NOOP}\0`)));
    expect(after.closed).toBe(true);
    expect(after.sent).toEqual([]);
  });
});

describe('host: time left', () => {
  it('writes time-left as a double in round-init, turn and resource-notification, as a long in round-end and session-end', () => {
    const { host, clock } = probeHost({ timeLimitSeconds: 20_000 });
    const connection = host.accept();
    send(connection, request());
    clock.now += 85;
    const start = send(connection, ROUND_REQUEST);
    expect(start.texts[0]).toContain('<time-left>1.9999915E7</time-left>');
    clock.now += 6;
    expect(send(connection, '<resource-request/>').texts[0]).toBe(
      `${HEADER}<resource-notification><time-left>1.9999909E7</time-left><memory-left>enough</memory-left></resource-notification>`,
    );
    for (let i = 0; i < 3; i++) send(connection, NOOP);
    const end = send(connection, NOOP);
    expect(end.texts[0]).toContain('<time-left>19999909</time-left>');
  });

  it('ends the round and the session when the limit has passed after a step (negative time-left)', () => {
    const { host, clock } = probeHost({ timeLimitSeconds: 3 });
    const connection = host.accept();
    send(connection, request(), ROUND_REQUEST);
    clock.now += 4143;
    const late = send(connection, NOOP);
    expect(late.sent.map((m) => m.type)).toEqual(['round-end', 'session-end']);
    expect(late.sent[0]).toMatchObject({ turnsUsed: 1, timeLeft: -1143, roundReward: 1 });
    expect(late.sent[1]).toMatchObject({ roundsUsed: 1, totalReward: 1 });
    expect(late.notes.some((note) => note.includes('time limit'))).toBe(true);
  });

  it('reports 1080 s but never enforces a limit of 0', () => {
    const { host, clock } = probeHost({ timeLimitSeconds: 0 });
    const connection = host.accept();
    expect(send(connection, request()).sent[0]).toMatchObject({ timeAllowed: 1_080_000 });
    send(connection, ROUND_REQUEST);
    clock.now += 2_000_000;
    expect(send(connection, NOOP).sent[0]).toMatchObject({ type: 'turn', timeLeft: -920_000 });
  });
});

describe('host: actions as the real server reads them', () => {
  function afterFirstTurn(probe: ProbeOptions = {}) {
    const { host } = probeHost({ probe });
    const connection = host.accept();
    send(connection, request(), ROUND_REQUEST);
    return connection;
  }

  it('matches names case-insensitively, strips $ from objects and reads values by the declared range', () => {
    const connection = afterFirstTurn();
    const next = send(
      connection,
      actions(
        action('INC', '2'),
        action('Move', ' 0.5 '),
        action('SETMODE', '@high'),
        action('toggle', 'TRUE', '$a'),
      ),
    ).sent[0]!;
    expect(fluentValue(next, 'count')).toBe('3');
    expect(fluentValue(next, 'pos')).toBe('0.5');
    expect(fluentValue(next, 'mode')).toBe('@high');
    expect(fluentValue(next, 'flag', ['a'])).toBe('true');
  });

  it('reads any bool text but true (any case) as false, and an enum value without @ as an object', () => {
    const connection = afterFirstTurn();
    const next = send(connection, actions(action('toggle', '1', 'a'), action('setmode', 'mid'))).sent[0]!;
    expect(fluentValue(next, 'flag', ['a'])).toBe('false');
    expect(fluentValue(next, 'mode')).toBe('mid');
  });

  it('lets any non-default entry win among duplicates', () => {
    const connection = afterFirstTurn();
    const next = send(connection, actions(action('toggle', 'true', 'a'), action('toggle', 'false', 'a')))
      .sent[0]!;
    expect(fluentValue(next, 'flag', ['a'])).toBe('true');
  });

  it('ignores wrong arity and unknown objects, but counts them against max-nondef-actions', () => {
    const connection = afterFirstTurn({ maxNondefActions: 1 });
    const ignored = send(connection, actions(action('toggle', 'true', 'z')));
    expect(ignored.sent[0]).toMatchObject({ type: 'turn', turnNum: 2 });
    expect(fluentValue(ignored.sent[0]!, 'flag', ['a'])).toBe('false');
    expect(ignored.notes[0]).toMatch(/^ignores: .*toggle\(z\): 'z' is not a obj/);
    const tooMany = send(connection, actions(action('toggle', 'true', 'a', 'b'), action('inc', '1')));
    expect(tooMany.sent[0]).toMatchObject({ type: 'round-end', turnsUsed: 1 });
    expect(tooMany.notes.some((note) => note.startsWith('ends-round: 2 non-default actions exceed 1'))).toBe(
      true,
    );
  });

  it('ends the round at once on a violated precondition; the next round-request starts the next round', () => {
    const connection = afterFirstTurn();
    send(connection, actions(action('inc', '1')));
    const illegal = send(connection, actions(action('inc', '9')));
    expect(illegal.sent).toEqual([
      expect.objectContaining({
        type: 'round-end',
        roundNum: 0,
        turnsUsed: 1,
        immediateReward: 1,
        roundReward: 1,
      }),
    ]);
    expect(illegal.closed).toBe(false);
    expect(send(connection, ROUND_REQUEST).sent[0]).toMatchObject({ type: 'round-init', roundNum: 2 });
  });

  it('treats a state fluent with a non-default value as not applicable: the round ends', () => {
    const connection = afterFirstTurn();
    const reaction = send(connection, actions(action('count', '5')));
    expect(reaction.sent).toEqual([
      expect.objectContaining({ type: 'round-end', turnsUsed: 0, roundReward: 0 }),
    ]);
    expect(reaction.notes[0]).toMatch(/^ends-round: count is a state-fluent/);
  });

  it('closes where the real server process exits: a state fluent with its default value', () => {
    const reaction = send(afterFirstTurn(), actions(action('count', '0')));
    expect(reaction.closed).toBe(true);
    expect(reaction.sent).toEqual([]);
    expect(reaction.notes[0]).toMatch(/^process-exits: 'count' is not an action fluent.*System\.exit\(1\)/);
  });

  const terminating: [string, string][] = [
    ['an unknown action name', actions(action('frobnicate', 'true', 'a'))],
    ['an int that does not parse', actions(action('inc', '1.0'))],
    ['an empty action-value', actions('<action><action-name>inc</action-name><action-value/></action>')],
    ['a missing action-name', actions('<action><action-value>1</action-value></action>')],
    ['malformed XML', '<actions>'],
    ['another root than actions', ROUND_REQUEST],
  ];

  it.each(terminating)('terminates the trial (closes, no message) on %s', (_what, body) => {
    const reaction = send(afterFirstTurn(), body);
    expect(reaction.sent).toEqual([]);
    expect(reaction.closed).toBe(true);
    expect(reaction.notes[0]).toMatch(/^closes-connection: .*terminates the trial/);
  });

  it('reports the rule a wrong message broke', () => {
    expect(send(afterFirstTurn(), ROUND_REQUEST).violations).toEqual(['rddlsim.actions.expected']);
  });

  it('answers resource-requests while waiting for actions', () => {
    const reaction = send(afterFirstTurn(), '<resource-request/>');
    expect(reaction.sent.map((m) => m.type)).toEqual(['resource-notification']);
  });
});

describe('host: where a round-request is expected', () => {
  function afterInit(options: Partial<RddlsimHostOptions> = {}) {
    const { host } = probeHost(options);
    const connection = host.accept();
    send(connection, request());
    return connection;
  }

  it('answers a malformed round-request with a resource-notification and keeps waiting', () => {
    const connection = afterInit();
    const reaction = send(connection, '<round-request>');
    expect(reaction.sent.map((m) => m.type)).toEqual(['resource-notification']);
    expect(reaction.violations).toEqual(['rddlsim.round-request.malformed']);
    expect(send(connection, ROUND_REQUEST).sent[0]!.type).toBe('round-init');
  });

  it('answers whitespace before the declaration the same way (a fatal xerces error)', () => {
    const connection = afterInit();
    const reaction = react(connection.receive(encoder.encode(`\n${HEADER}${ROUND_REQUEST}\0`)));
    expect(reaction.sent.map((m) => m.type)).toEqual(['resource-notification']);
  });

  it('closes where the real server process exits on another root', () => {
    const reaction = send(afterInit(), NOOP);
    expect(reaction.closed).toBe(true);
    expect(reaction.notes[0]).toMatch(/^process-exits: <actions> where a round-request is expected/);
    expect(reaction.violations).toEqual(['rddlsim.round-request.expected']);
  });

  it('ignores execute-policy outside monitor mode', () => {
    const reaction = send(afterInit(), '<round-request><execute-policy>no</execute-policy></round-request>');
    expect(reaction.sent[0]).toMatchObject({ roundNum: 1, roundLeft: 1 });
  });

  it('plays practice rounds in monitor mode: round-num 0 / -1, round-left unchanged, reward not counted', () => {
    const connection = afterInit({ monitorExecution: true });
    const practice = send(connection, '<round-request><execute-policy>no</execute-policy></round-request>');
    expect(practice.sent[0]).toMatchObject({ type: 'round-init', roundNum: 0, roundLeft: 2 });
    for (let i = 0; i < 3; i++) send(connection, NOOP);
    expect(send(connection, NOOP).sent[0]).toMatchObject({ type: 'round-end', roundNum: -1, roundReward: 4 });
    // A missing element means no: another practice round.
    expect(send(connection, ROUND_REQUEST).sent[0]).toMatchObject({ roundNum: 0, roundLeft: 2 });
    for (let i = 0; i < 4; i++) send(connection, NOOP);
    const counted = send(connection, '<round-request> <execute-policy>yes</execute-policy> </round-request>');
    expect(counted.sent[0]).toMatchObject({ roundNum: 1, roundLeft: 1 });
    for (let i = 0; i < 3; i++) send(connection, NOOP);
    expect(send(connection, NOOP).sent[0]).toMatchObject({ type: 'round-end', roundNum: 0 });
    send(connection, '<round-request><execute-policy>yes</execute-policy></round-request>');
    for (let i = 0; i < 3; i++) send(connection, NOOP);
    const end = send(connection, NOOP);
    expect(end.sent[1]).toMatchObject({ type: 'session-end', totalReward: 8, roundsUsed: 2 });
  });

  it('closes on an empty execute-policy in monitor mode (NullPointerException)', () => {
    expect(
      send(afterInit({ monitorExecution: true }), '<round-request><execute-policy/></round-request>').closed,
    ).toBe(true);
  });
});

describe('host: session-request failures close without a word', () => {
  const cases: [string, string][] = [
    ['an unknown instance', request('no_such_instance')],
    ['malformed XML', '<session-request><problem-name>probe_inst_1</problem-name>'],
    ['another root', ROUND_REQUEST],
    ['no client-name', '<session-request><problem-name>probe_inst_1</problem-name></session-request>'],
    [
      'an empty problem-name',
      '<session-request><problem-name/><client-name>c</client-name></session-request>',
    ],
  ];

  it.each(cases)('on %s', (_what, body) => {
    const { host } = probeHost();
    const reaction = send(host.accept(), body);
    expect(reaction.sent).toEqual([]);
    expect(reaction.closed).toBe(true);
    expect(reaction.notes).toHaveLength(1);
  });

  it('writes a client-name that holds no text as null, as Java concatenation does', () => {
    const { host } = probeHost({ rounds: 1 });
    const connection = host.accept();
    send(
      connection,
      '<session-request><problem-name>probe_inst_1</problem-name><client-name><b/></client-name></session-request>',
      ROUND_REQUEST,
    );
    for (let i = 0; i < 3; i++) send(connection, NOOP);
    expect(send(connection, NOOP).sent[0]).toMatchObject({ type: 'round-end', clientName: 'null' });
  });
});

describe('host: no-header mode', () => {
  it('drops declaration and NUL for every client of the process once one asks (the real global flag)', () => {
    const { host } = probeHost();
    const asking = host.accept();
    const other = host.accept();
    const init = react(asking.receive(encoder.encode(`${request('probe_inst_1', '<no-header/>')}\0`)));
    expect(init.texts[0]).toMatch(/^<session-init>/);
    expect(host.noHeaderMode).toBe(true);
    const otherInit = send(other, request());
    expect(otherInit.texts[0]).toMatch(/^<session-init>/);
    expect(parseServerMessage(otherInit.texts[0]!)).toMatchObject({ type: 'session-init', sessionId: 2 });
  });

  it('limits the flag to the asking connection when told to', () => {
    const { host } = probeHost({ noHeaderScope: 'connection' });
    send(host.accept(), request('probe_inst_1', '<no-header/>'));
    expect(send(host.accept(), request()).texts[0]!.startsWith(HEADER)).toBe(true);
  });

  it('closes instead of sending null in no-header mode (substring of null fails)', () => {
    const { host } = probeHost({ resolveInstance: () => ({ model: createProbeModel(), task: null }) });
    const reaction = send(host.accept(), request('probe_inst_1', '<no-header/>'));
    expect(reaction.sent).toEqual([]);
    expect(reaction.closed).toBe(true);
  });
});

describe('host: connection events', () => {
  it('closes when the client closes, with a note and the broken rule', () => {
    const { host } = probeHost();
    const connection = host.accept();
    send(connection, request(), ROUND_REQUEST);
    const reaction = react(connection.clientClosed());
    expect(reaction.closed).toBe(true);
    expect(reaction.violations).toEqual(['rddlsim.connection.client-closed']);
    expect(connection.closed).toBe(true);
  });

  it('cuts an oversize message like the real server and says so', () => {
    const { host } = probeHost({ maxMessageBytes: 64 });
    const connection = host.accept();
    const reaction = react(connection.receive(encoder.encode(`${HEADER}${request()}\0`)));
    expect(reaction.notes[0]).toMatch(/^cuts-message: a message exceeded 64 bytes/);
    expect(reaction.closed).toBe(true);
  });

  it('exposes the world of the running session for the world view', () => {
    const { host } = probeHost();
    const connection = host.accept();
    expect(connection.snapshot()).toBeUndefined();
    send(connection, request(), ROUND_REQUEST, actions(action('inc', '2')));
    const snapshot = connection.snapshot()!;
    expect(snapshot.round).toBe(1);
    expect(snapshot.step).toBe(1);
    expect(snapshot.stateFluents.find((f) => f.name === 'count')?.value).toBe(3);
    expect(snapshot.internalFluents).toEqual([{ name: 'total', args: [], value: 3, valueType: 'int' }]);
  });
});

describe('host: partially observed domains', () => {
  it('sends no-observed-fluents on turn 1 of every round, then the observation fluents only', () => {
    const { host } = probeHost({ probe: { partiallyObserved: true } });
    const connection = host.accept();
    send(connection, request());
    const first = send(connection, ROUND_REQUEST);
    expect(first.texts[1]).toContain('<no-observed-fluents/></turn>');
    const second = send(connection, actions(action('inc', '2')));
    expect((second.sent[0] as { fluents: unknown }).fluents).toEqual([
      { name: 'seen-count', args: [], value: '3' },
    ]);
    for (let i = 0; i < 3; i++) send(connection, NOOP);
    expect(send(connection, ROUND_REQUEST).texts[1]).toContain('<no-observed-fluents/>');
  });
});

describe('host: what the simulator lets pass as rddlsim does', () => {
  // The second case's probability is 0.3 - pressure, negative once pressure passes 0.3 (from step 2).
  const domain = `domain gauge_mdp {
  types { reading : {@ok, @warn, @alarm}; };
  pvariables {
    pressure : { state-fluent, real, default = 0.0 };
    shown : { state-fluent, reading, default = @ok };
    vent : { action-fluent, bool, default = false };
  };
  cpfs {
    pressure' = if (vent) then 0.0 else pressure + 0.2;
    shown' = Discrete(reading, @ok : 0.5, @warn : 0.3 - pressure, @alarm : otherwise);
  };
  reward = -pressure;
}`;
  const instance = `instance gauge_inst {
  domain = gauge_mdp;
  horizon = 6;
  discount = 1.0;
}`;
  const model = loadRddl([
    { name: 'gauge.rddl', text: domain },
    { name: 'gauge_inst.rddl', text: instance },
  ]);

  it('notes a negative Discrete probability once, where it happened, and plays on', () => {
    const { host } = probeHost({
      rounds: 1,
      resolveInstance: () => ({ model, task: rddlsimTaskText(domain, instance) }),
    });
    const connection = host.accept();
    send(connection, request('gauge_inst'), ROUND_REQUEST);
    const notes: string[] = [];
    let last = react([]);
    for (let turn = 1; turn <= 6; turn++) {
      last = send(connection, NOOP);
      notes.push(...last.notes);
    }
    expect(notes).toEqual([
      expect.stringMatching(
        /^ignores: the domain produced a negative probability: gauge\.rddl:10:14: Discrete probability -0\.1\d* is negative/,
      ),
    ]);
    expect(last.sent.map((m) => m.type)).toEqual(['round-end', 'session-end']);
    expect(last.sent[0]).toMatchObject({ turnsUsed: 6 });
  });
});

describe('host: vector-valued fluents', () => {
  it('sends a vector as rddlsim prints it: members with their labels, reals as Java doubles', () => {
    const domain = `domain span_mdp {
  types { pair : <@lo : int, @hi : real>; side : object; marks : [side] <? : bool>; };
  pvariables {
    span : { state-fluent, pair, default = < @lo : 1, @hi : 2.5 > };
    seen : { state-fluent, marks, default = < ? : false > };
  };
  cpfs {
    span' = < @lo : span.@lo + 1, @hi : span.@hi * 2.0 >;
    seen' = < $east : true, $west : seen.$east >;
  };
  reward = span.@lo;
}`;
    const instance = `instance span_inst {
  domain = span_mdp;
  objects { side : {east, west}; };
  horizon = 3;
  discount = 1.0;
}`;
    const model = loadRddl([
      { name: 'span.rddl', text: domain },
      { name: 'span_inst.rddl', text: instance },
    ]);
    const { host } = probeHost({ rounds: 1, resolveInstance: () => ({ model, task: 'x' }) });
    const connection = host.accept();
    const start = send(connection, request('span_inst'), ROUND_REQUEST);
    expect(fluentValue(start.sent[1]!, 'span')).toBe('< @lo: 1, @hi: 2.5 >');
    const next = send(connection, NOOP);
    expect(fluentValue(next.sent[0]!, 'span')).toBe('< @lo: 2, @hi: 5.0 >');
    expect(fluentValue(next.sent[0]!, 'seen')).toBe('< $east: true, $west: false >');
  });
});

describe('host: an instance rddlsim cannot order', () => {
  const convoy = readFileSync(
    join(import.meta.dirname, '..', '..', 'envs', 'rddl', 'rebinding', 'convoy.rddl'),
    'utf8',
  );
  const host = (quirks: boolean) =>
    new RddlsimHost({
      rounds: 1,
      rddlsimQuirks: quirks,
      resolveInstance: (name) => ({
        model: loadRddl([{ name: 'convoy.rddl', text: convoy }], { instance: name }),
        task: 'domain convoy {}\n\ninstance\n',
      }),
    });

  it('sends session-init, then closes at the first round-request where the real server process exits', () => {
    const connection = host(true).accept();
    expect(send(connection, request('convoy_two_trucks')).sent.map((m) => m.type)).toEqual(['session-init']);
    const reaction = send(connection, ROUND_REQUEST);
    expect(reaction.sent).toEqual([]);
    expect(reaction.closed).toBe(true);
    expect(reaction.notes[0]).toMatch(
      /^process-exits: convoy\.rddl:12:\d+: rddlsim cannot order .*blocked\(t1\).*System\.exit\(1\)/,
    );
  });

  it('plays it with the language semantics', () => {
    const connection = host(false).accept();
    send(connection, request('convoy_two_trucks'));
    expect(send(connection, ROUND_REQUEST).sent[0]).toMatchObject({ type: 'round-init' });
  });
});

describe('host: a vector-valued action on the wire', () => {
  const domain = `domain rovers {
  types { rover : object; motion : <@dx : real, @dy : int>; };
  pvariables {
    move(rover) : { action-fluent, motion, default = < @dx : 0.0, @dy : 0 > };
    x(rover) : { state-fluent, real, default = 0.0 };
  };
  cpfs { x'(?r) = x(?r) + move(?r).@dx * move(?r).@dy; };
  reward = sum_{?r : rover}[x(?r)];
}
instance rovers_two {
  domain = rovers;
  objects { rover : {r1, r2}; };
  max-nondef-actions = 1;
  horizon = 3;
  discount = 1.0;
}
`;
  const host = () =>
    new RddlsimHost({
      rounds: 1,
      resolveInstance: () => ({
        model: loadRddl([{ name: 'rovers.rddl', text: domain }]),
        task: 'domain rovers {}\n\ninstance\n',
      }),
    });

  it('reads the value as rddlsim prints and its client sends it (< @dx: 1.5, @dy: 2 >, escaped)', () => {
    const connection = host().accept();
    send(connection, request('rovers_two'), ROUND_REQUEST);
    // rddlsim's client writes STRUCT_VAL.toString() as a DOM text node: < and > escaped.
    const moved = send(connection, actions(action('move', '&lt; @dx: 1.5, @dy: 2 &gt;', '$r2'))).sent[0]!;
    expect(fluentValue(moved, 'x', ['r2'])).toBe('3.0');
    const turn = send(connection, NOOP).sent[0]!;
    expect(fluentValue(turn, 'x', ['r2'])).toBe('3.0');
    expect(fluentValue(turn, 'x', ['r1'])).toBe('0.0');
  });
});
