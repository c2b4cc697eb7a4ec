import { describe, expect, it } from 'vitest';
import { checkRddlGrammar } from '../../../../src/core/envs/rddl/parser';

describe('the RDDL grammar', () => {
  // The shared lexer and parser skip chevrotain's definition checks to start faster; they run here.
  it('passes chevrotain checks of the token definitions and the grammar', () => {
    expect(() => checkRddlGrammar()).not.toThrow();
  });
});
