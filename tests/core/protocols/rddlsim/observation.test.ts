import { describe, expect, it } from 'vitest';
import {
  decodeFluentValue,
  decodeObservation,
  fluentKey,
} from '../../../../src/core/protocols/rddlsim/observation';

describe('decodeFluentValue', () => {
  it('reads bools, numbers in Java notation, and keeps enum values and object names as text', () => {
    expect(decodeFluentValue('true')).toBe(true);
    expect(decodeFluentValue('false')).toBe(false);
    expect(decodeFluentValue('3')).toBe(3);
    expect(decodeFluentValue('-0.5')).toBe(-0.5);
    expect(decodeFluentValue('1.0E-4')).toBe(0.0001);
    expect(decodeFluentValue('@high')).toBe('@high');
    expect(decodeFluentValue('@1')).toBe('@1');
    expect(decodeFluentValue('c1')).toBe('c1');
  });
});

describe('decodeObservation', () => {
  it('gives the fluents in order and keyed by name(args)', () => {
    const observation = decodeObservation(
      {
        type: 'turn',
        turnNum: 3,
        timeLeft: 1079836,
        immediateReward: 9.25,
        fluents: [
          { name: 'running', args: ['c1'], value: 'true' },
          { name: 'at', args: ['e0', '@f1'], value: '2' },
          { name: 'mode', args: [], value: '@low' },
        ],
      },
      2,
    );
    expect(observation).toEqual({
      round: 2,
      turn: 3,
      reward: 9.25,
      timeLeft: 1079836,
      observed: true,
      fluents: [
        { name: 'running', args: ['c1'], value: true },
        { name: 'at', args: ['e0', '@f1'], value: 2 },
        { name: 'mode', args: [], value: '@low' },
      ],
      values: { 'running(c1)': true, 'at(e0,@f1)': 2, mode: '@low' },
    });
  });

  it('marks the first turn of a POMDP as not observed', () => {
    const observation = decodeObservation(
      { type: 'turn', turnNum: 1, timeLeft: 5, immediateReward: 0, fluents: null },
      1,
    );
    expect(observation.observed).toBe(false);
    expect(observation.fluents).toEqual([]);
  });

  it('keys 0-ary fluents by their bare name', () => {
    expect(fluentKey('count', [])).toBe('count');
    expect(fluentKey('CONNECTED', ['c1', 'c4'])).toBe('CONNECTED(c1,c4)');
  });
});
