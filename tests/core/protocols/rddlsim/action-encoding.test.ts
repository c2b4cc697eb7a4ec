import { describe, expect, it } from 'vitest';
import {
  encodeActions,
  encodeValue,
  instanceSummary,
} from '../../../../src/core/protocols/rddlsim/action-encoding';
import { loadRddl } from '../../../../src/core/envs/rddl';
import { createProbeModel } from './probe-model';

const { info } = createProbeModel();

describe('encodeActions', () => {
  it('accepts one action, a list, or null/undefined/[] for a noop; value defaults to true', () => {
    expect(encodeActions(null).actions).toEqual([]);
    expect(encodeActions(undefined).actions).toEqual([]);
    expect(encodeActions([]).actions).toEqual([]);
    expect(encodeActions({ name: 'toggle', args: ['a'] }, { info }).actions).toEqual([
      { name: 'toggle', args: ['a'], value: 'true' },
    ]);
  });

  it('writes values as rddlsim’s Java client: ints plain, reals as Java doubles, enums and objects as text', () => {
    const { actions, problems } = encodeActions(
      [
        { name: 'inc', value: 2 },
        { name: 'move', value: 1 },
        { name: 'move', value: 0.0001 },
        { name: 'setmode', value: '@high' },
        { name: 'toggle', args: ['$b'], value: false },
      ],
      { info },
    );
    expect(problems).toEqual([]);
    expect(actions.map((a) => a.value)).toEqual(['2', '1.0', '1.0E-4', '@high', 'false']);
  });

  it('reports unknown names, non-actions, wrong arity, unknown objects and wrong value types, and drops them', () => {
    const returned = [
      { name: 'reboot', args: ['c1'] },
      { name: 'count', value: 3 },
      { name: 'toggle' },
      { name: 'toggle', args: ['z'] },
      { name: 'inc', value: 1.5 },
      { name: 'setmode', value: 'high' },
      { name: 'toggle', args: ['a'], value: 'yes' },
      { name: 'INC', value: 1 },
    ];
    const { actions, problems, dropped } = encodeActions(returned, { info });
    expect(problems.map((p) => [p.index, p.code])).toEqual([
      [0, 'unknown-action'],
      [1, 'not-an-action'],
      [2, 'arity'],
      [3, 'unknown-argument'],
      [4, 'value-type'],
      [5, 'value-type'],
      [6, 'value-type'],
    ]);
    expect(problems[0]!.message).toBe("unknown action 'reboot'; the actions are inc, move, setmode, toggle");
    expect(problems[5]!.message).toContain("enum values need '@': '@high'");
    expect(dropped).toBe(7);
    // The server matches names case-insensitively, so INC is fine.
    expect(actions).toEqual([{ name: 'INC', args: [], value: '1' }]);
  });

  it('sends invalid actions anyway when asked, still reporting them', () => {
    const { actions, problems } = encodeActions(
      { name: 'reboot', args: ['c1'] },
      { info, sendInvalid: true },
    );
    expect(actions).toEqual([{ name: 'reboot', args: ['c1'], value: 'true' }]);
    expect(problems).toHaveLength(1);
  });

  it('always drops what cannot be encoded at all', () => {
    const { actions, problems } = encodeActions(
      [42, { args: [] }, { name: 'inc', args: [1] }, { name: 'inc', value: NaN }],
      {
        info,
        sendInvalid: true,
      },
    );
    expect(actions).toEqual([]);
    expect(problems.map((p) => p.code)).toEqual(['shape', 'shape', 'shape', 'shape']);
  });

  it('checks only the shape without domain facts', () => {
    expect(encodeActions({ name: 'anything', args: ['x'], value: 2.5 }).actions).toEqual([
      { name: 'anything', args: ['x'], value: '2.5' },
    ]);
  });
});

describe('encodeActions with a vector-valued action', () => {
  const rovers = loadRddl([
    {
      name: 'rovers.rddl',
      text: `domain rovers {
  types { rover : object; motion : <@dx : real, @dy : int>; };
  pvariables {
    move(rover) : { action-fluent, motion, default = < @dx : 0.0, @dy : 0 > };
    x(rover) : { state-fluent, real, default = 0.0 };
  };
  cpfs { x'(?r) = x(?r) + move(?r).@dx; };
  reward = 0;
}
instance rovers_one { domain = rovers; objects { rover : {r1}; }; horizon = 2; discount = 1.0; }`,
    },
  ]).info;

  it('sends the text a policy returns, < @dx: 1.5, @dy: 2 >, and refuses another kind of value', () => {
    const { actions, problems } = encodeActions(
      [
        { name: 'move', args: ['r1'], value: '< @dx: 1.5, @dy: 2 >' },
        { name: 'move', args: ['r1'], value: 1.5 },
      ],
      { info: rovers },
    );
    expect(actions).toEqual([{ name: 'move', args: ['r1'], value: '< @dx: 1.5, @dy: 2 >' }]);
    expect(problems.map((p) => p.message)).toEqual([
      'move takes a motion vector, written < @member: value, ... >, got 1.5',
    ]);
  });
});

describe('encodeValue', () => {
  it('follows the range when known and the value otherwise', () => {
    expect(encodeValue(3, 'real')).toBe('3.0');
    expect(encodeValue(3, 'int')).toBe('3');
    expect(encodeValue(3)).toBe('3');
    expect(encodeValue(2.5)).toBe('2.5');
    expect(encodeValue(true)).toBe('true');
  });
});

describe('instanceSummary', () => {
  it('lists action fluents with parameter types, defaults and allowed values, and every type’s values', () => {
    const summary = instanceSummary(info);
    expect(summary.actions.find((a) => a.name === 'setmode')).toEqual({
      name: 'setmode',
      params: [],
      range: 'lvl',
      default: '@low',
      values: ['@low', '@mid', '@high'],
    });
    expect(summary.actions.find((a) => a.name === 'toggle')).toMatchObject({
      params: ['obj'],
      range: 'bool',
      default: false,
    });
    expect(summary.objects).toEqual({ obj: ['a', 'b'], lvl: ['@low', '@mid', '@high'] });
    expect(summary.stateFluents.map((f) => f.name)).toEqual(['count', 'pos', 'mode', 'flag']);
    expect(summary).toMatchObject({
      horizon: 4,
      discount: 1,
      maxNondefActions: Infinity,
      partiallyObserved: false,
    });
  });
});
