import { describe, expect, it } from 'vitest';
import {
  readActions,
  readExecutePolicy,
  readSessionRequest,
} from '../../../../src/core/protocols/rddlsim/server-reading';
import { parseXml } from '../../../../src/core/protocols/rddlsim/xml';
import { createProbeModel } from './probe-model';

const model = createProbeModel({ partiallyObserved: true });
const root = (xml: string) => parseXml(xml).root;
const action = (name: string, value: string, ...args: string[]) =>
  `<action><action-name>${name}</action-name>${args.map((a) => `<action-arg>${a}</action-arg>`).join('')}<action-value>${value}</action-value></action>`;
const read = (...actions: string[]) => readActions(root(`<actions>${actions.join('')}</actions>`), model);

describe('readActions', () => {
  it('gives the simulator the non-default actions, with the declared names and values by range', () => {
    expect(
      read(
        action('INC', '+3'),
        action('Move', '1e3'),
        action('toggle', 'True', '$b'),
        action('setmode', '@low'),
      ),
    ).toEqual({
      kind: 'actions',
      actions: [
        { name: 'inc', args: [], value: 3 },
        { name: 'move', args: [], value: 1000 },
        { name: 'toggle', args: ['b'], value: true },
      ],
      nondefaultCount: 3,
      ignored: [],
    });
  });

  it('counts every non-default entry, keeps the last non-default of duplicates and ignores bad groundings', () => {
    const reading = read(
      action('inc', '1'),
      action('inc', '0'),
      action('inc', '4'),
      action('toggle', 'true', 'a', 'b'),
      action('toggle', 'true', '@a'),
    );
    expect(reading).toMatchObject({
      kind: 'actions',
      actions: [{ name: 'inc', args: [], value: 4 }],
      nondefaultCount: 4,
      ignored: [
        { name: 'toggle', args: ['a', 'b'], reason: 'toggle takes 1 argument(s), got 2' },
        { name: 'toggle', args: ['@a'], reason: "'@a' is not a obj" },
      ],
    });
  });

  it('reads -0.0 as differing from a 0.0 default, as Double.equals does', () => {
    expect(read(action('move', '-0.0'))).toMatchObject({ nondefaultCount: 1 });
  });

  it('fails on the first unreadable action before applying anything (the trial is terminated)', () => {
    expect(read(action('inc', '1'), action('nothing', '1'))).toEqual({
      kind: 'terminate',
      reason: "no pvariable is named 'nothing' (NullPointerException)",
    });
    expect(read(action("inc'", '1')).kind).toBe('terminate');
    expect(read(action('toggle', 'true', '$')).kind).toBe('terminate');
    expect(
      read('<action><action-name>inc</action-name><action-value><x/></action-value></action>').kind,
    ).toBe('terminate');
    expect(
      read('<action><action-name>inc</action-name><action-arg/><action-value>1</action-value></action>').kind,
    ).toBe('terminate');
  });

  it('reads a bool value that holds no text as false, as Boolean.valueOf(null) does', () => {
    expect(
      read(
        '<action><action-name>toggle</action-name><action-arg>a</action-arg><action-value><x/></action-value></action>',
      ),
    ).toMatchObject({
      kind: 'actions',
      actions: [],
      nondefaultCount: 0,
    });
  });

  it('applies non-action fluents in order, as setPVariables does: failing on a non-default first, exiting at the end', () => {
    // count with its default: remembered as fatal, loop goes on; the observation fluent then fails at once.
    expect(read(action('count', '0'), action('seen-count', '2')).kind).toBe('not-applicable');
    // Only defaults and interm fluents: the loop ends and the server process exits.
    expect(read(action('count', '0'), action('total', '2'))).toMatchObject({ kind: 'exit' });
    expect(read(action('count', '7'))).toMatchObject({
      kind: 'not-applicable',
      reason: expect.stringContaining('state-fluent'),
    });
  });
});

describe('readSessionRequest', () => {
  it('reads the fields in the server’s order and the no-header flag', () => {
    expect(
      readSessionRequest(
        root(
          '<session-request><client-name><b/></client-name><problem-name>p</problem-name><input-language> pddl\n</input-language><no-header>x</no-header></session-request>',
        ),
      ),
    ).toEqual({ ok: true, problemName: 'p', clientName: null, inputLanguage: 'pddl', noHeader: true });
  });

  it('fails where the real server throws', () => {
    expect(readSessionRequest(root('<round-request/>'))).toMatchObject({ ok: false });
    expect(
      readSessionRequest(root('<session-request><client-name>c</client-name></session-request>')),
    ).toEqual({
      ok: false,
      reason: 'there is no <problem-name>',
    });
    // An empty element anywhere in a field's list is a NullPointerException, even a second one.
    expect(
      readSessionRequest(
        root(
          '<session-request><problem-name>p</problem-name><problem-name/><client-name>c</client-name></session-request>',
        ),
      ),
    ).toEqual({ ok: false, reason: '<problem-name> is empty (NullPointerException)' });
  });
});

describe('readExecutePolicy', () => {
  it('counts a round for yes after trimming, and for nothing else', () => {
    expect(
      readExecutePolicy(root('<round-request><execute-policy> yes </execute-policy></round-request>')),
    ).toEqual({
      ok: true,
      execute: true,
    });
    expect(
      readExecutePolicy(root('<round-request><execute-policy>YES</execute-policy></round-request>')),
    ).toEqual({
      ok: true,
      execute: false,
    });
    expect(readExecutePolicy(root('<round-request/>'))).toEqual({ ok: true, execute: false });
    expect(readExecutePolicy(root('<round-request><execute-policy/></round-request>'))).toMatchObject({
      ok: false,
    });
  });
});
