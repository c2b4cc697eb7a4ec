/** The commands that take no protocol word (inspect, replay and bridge work with every registered protocol). */
import type { ToolCommandSpec } from './command-line/command-spec';
import { bridgeCommand } from './bridge/bridge-command';
import { inspectCommand } from './inspect/inspect-command';
import { openCommand } from './open/open-command';
import { replayCommand } from './replay/replay-command';

export const TOOL_COMMANDS: readonly ToolCommandSpec[] = [
  inspectCommand,
  replayCommand,
  bridgeCommand,
  openCommand,
];
