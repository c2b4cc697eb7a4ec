/**
 * Reading the session setup (`--environment`, `--rounds`, `--seed`, and the protocol's own options) of a
 * generic command.
 */
import type { PlayOption, PlaySetup, Protocol } from '../../src/core/protocols/contract';
import { usageError } from '../command-line/exit-codes';
import type { OptionReader } from '../command-line/option-values';

/** The setup the options ask for; an unknown environment is a usage error naming the known ones. */
export function readPlaySetup(
  protocol: Protocol,
  options: OptionReader,
  sides: readonly PlayOption['side'][] = ['host', 'client'],
): PlaySetup {
  const environment = options.string('environment', protocol.defaultEnvironment);
  if (!protocol.environments.some((choice) => choice.id === environment))
    throw usageError(
      `unknown environment '${environment}'; ${protocol.id} offers ${protocol.environments.map((e) => e.id).join(', ')}`,
    );
  return {
    environment,
    rounds: options.integer('rounds', 1, { min: 1 }),
    seed: options.integer('seed', 0),
    ...protocolOptions(protocol, options, sides),
  };
}

/** The protocol's own options of these sides that were given (`PlaySetup.options`), none when none was. */
export function protocolOptions(
  protocol: Protocol,
  options: OptionReader,
  sides: readonly PlayOption['side'][],
): Pick<PlaySetup, 'options'> {
  const given: Record<string, string | number> = {};
  for (const option of protocol.endpoints?.options ?? []) {
    if (!sides.includes(option.side)) continue;
    if (options.string(option.name) === undefined) continue;
    given[option.name] =
      option.type === 'integer' ? options.integer(option.name, 0) : options.string(option.name, '');
  }
  return Object.keys(given).length > 0 ? { options: given } : {};
}

/** The setup as a transcript's meta (flat: the protocol's options beside the environment, rounds, seed). */
export function setupMeta(setup: PlaySetup): Record<string, string | number> {
  const { options, ...rest } = setup;
  return { ...options, ...rest };
}
