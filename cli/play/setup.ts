/** Reading the session setup (`--environment`, `--rounds`, `--seed`) of a generic command. */
import type { PlaySetup, Protocol } from '../../src/core/protocols/contract';
import { usageError } from '../command-line/exit-codes';
import type { OptionReader } from '../command-line/option-values';

/** The setup the options ask for; an unknown environment is a usage error naming the known ones. */
export function readPlaySetup(protocol: Protocol, options: OptionReader): PlaySetup {
  const environment = options.string('environment', protocol.defaultEnvironment);
  if (!protocol.environments.some((choice) => choice.id === environment))
    throw usageError(
      `unknown environment '${environment}'; ${protocol.id} offers ${protocol.environments.map((e) => e.id).join(', ')}`,
    );
  return {
    environment,
    rounds: options.integer('rounds', 1, { min: 1 }),
    seed: options.integer('seed', 0),
  };
}
