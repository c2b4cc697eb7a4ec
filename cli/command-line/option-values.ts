/**
 * Typed access to parsed option values. `util.parseArgs` yields strings and booleans; these readers turn
 * them into numbers, lists and choices, and report a malformed value as a usage error naming the option.
 */
import { usageError } from './exit-codes';
import type { OptionValues } from './command-spec';

/** Reads the options of one command. */
export class OptionReader {
  constructor(readonly values: OptionValues) {}

  /** A string option, or `fallback` when absent. */
  string(name: string): string | undefined;
  string(name: string, fallback: string): string;
  string(name: string, fallback?: string): string | undefined {
    const value = this.values[name];
    if (value === undefined) return fallback;
    if (typeof value !== 'string') throw usageError(`--${name} needs a value`);
    return value;
  }

  /** A string option that must be given. */
  required(name: string, what: string): string {
    const value = this.string(name);
    if (value === undefined || value === '') throw usageError(`--${name} is required (${what})`);
    return value;
  }

  /** Every value of a repeatable option (empty when absent). */
  list(name: string): string[] {
    const value = this.values[name];
    if (value === undefined) return [];
    return (Array.isArray(value) ? value : [value]).map(String);
  }

  /** A boolean flag. */
  flag(name: string): boolean {
    return this.values[name] === true;
  }

  /** An integer option within [min, max]. */
  integer(name: string, fallback: number, { min = -Infinity, max = Infinity } = {}): number {
    const text = this.string(name);
    if (text === undefined) return fallback;
    const value = /^[+-]?\d+$/.test(text.trim()) ? Number(text) : NaN;
    if (!Number.isSafeInteger(value)) throw usageError(`--${name} must be a whole number, got '${text}'`);
    return checkRange(name, value, min, max);
  }

  /** A number option within [min, max]. */
  number(name: string, fallback: number, { min = -Infinity, max = Infinity } = {}): number {
    const text = this.string(name);
    if (text === undefined) return fallback;
    const value = text.trim() === '' ? NaN : Number(text);
    if (!Number.isFinite(value)) throw usageError(`--${name} must be a number, got '${text}'`);
    return checkRange(name, value, min, max);
  }

  /** One of a fixed set of words. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const text = this.string(name);
    if (text === undefined) return fallback;
    if (!(choices as readonly string[]).includes(text))
      throw usageError(`--${name} must be one of ${choices.join(', ')}, got '${text}'`);
    return text as T;
  }
}

function checkRange(name: string, value: number, min: number, max: number): number {
  if (value < min) throw usageError(`--${name} must be at least ${min}, got ${value}`);
  if (value > max) throw usageError(`--${name} must be at most ${max}, got ${value}`);
  return value;
}
