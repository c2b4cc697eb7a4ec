/**
 * The protocols the command line offers. Adding one is adding its `ProtocolCommands` here; the generic
 * layer needs nothing else.
 */
import type { ProtocolCommands } from '../command-line/command-spec';
import { aisysCommands } from './aisys';
import { gamaCommands } from './gama';
import { massimCommands } from './massim';
import { rddlsimCommands } from './rddlsim';

/** Every registered protocol, in the order help lists them. */
export const PROTOCOL_COMMANDS: readonly ProtocolCommands[] = [
  rddlsimCommands,
  massimCommands,
  aisysCommands,
  gamaCommands,
];
