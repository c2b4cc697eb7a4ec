/**
 * The protocols the command line offers. A protocol with commands of its own adds its `ProtocolCommands`
 * here; every other registered protocol that gives `endpoints` gets the generic `run`, `serve` and
 * `connect` (`cli/play/`) with nothing added here.
 */
import { PROTOCOLS } from '../../src/core/protocols/registry';
import type { ProtocolCommands } from '../command-line/command-spec';
import { isPlayable, playCommands } from '../play/play-commands';
import { aisysCommands } from './aisys';
import { gamaCommands } from './gama';
import { massimCommands } from './massim';
import { rddlsimCommands } from './rddlsim';

/** The protocols with commands of their own, in the order help lists them. */
export const PROTOCOL_COMMANDS: readonly ProtocolCommands[] = [
  rddlsimCommands,
  massimCommands,
  aisysCommands,
  gamaCommands,
];

/** Every protocol of the command line: those with their own commands, then the registry's playable ones. */
export function commandLineProtocols(): ProtocolCommands[] {
  const generic = PROTOCOLS.filter(
    (protocol) => isPlayable(protocol) && !PROTOCOL_COMMANDS.some((own) => own.id === protocol.id),
  ).map((protocol) => playCommands(protocol as Parameters<typeof playCommands>[0]));
  return [...PROTOCOL_COMMANDS, ...generic];
}
