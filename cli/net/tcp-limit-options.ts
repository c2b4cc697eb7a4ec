/**
 * The options every `serve` command offers for the limits of the TCP server, and reading them.
 */
import type { OptionSpec } from '../command-line/command-spec';
import type { OptionReader } from '../command-line/option-values';
import { DEFAULT_TCP_SERVER_LIMITS, type TcpServerLimits } from './tcp-server';

const defaults = DEFAULT_TCP_SERVER_LIMITS;

/** `--max-connections` and `--idle-timeout`, for the help of a serve command. */
export const TCP_LIMIT_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'max-connections',
    type: 'string',
    valueName: 'N',
    description: `connections open at once; more are refused and logged (default ${defaults.maxConnections})`,
  },
  {
    name: 'idle-timeout',
    type: 'string',
    valueName: 'S',
    description: `close a connection with no traffic either way for S seconds; 0 = never (default ${defaults.idleTimeoutMs / 1000})`,
  },
];

/** The limits the options of `TCP_LIMIT_OPTIONS` set (only those given). */
export function readTcpLimits(options: OptionReader): Partial<TcpServerLimits> {
  const limits: Partial<TcpServerLimits> = {};
  if (options.string('max-connections') !== undefined)
    limits.maxConnections = options.integer('max-connections', defaults.maxConnections, { min: 1 });
  if (options.string('idle-timeout') !== undefined)
    limits.idleTimeoutMs = options.number('idle-timeout', 0, { min: 0 }) * 1000;
  return limits;
}
