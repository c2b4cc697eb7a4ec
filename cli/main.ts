/**
 * The composition root of the command line: the registered protocols, the real process streams and the
 * Ctrl-C handling. Everything else lives in `command-line/` (generic) and `protocols/<id>/`.
 */
import { runCommandLine } from './command-line/dispatch';
import { ExitCode } from './command-line/exit-codes';
import { processIo } from './command-line/io';
import { PROTOCOL_COMMANDS } from './protocols';
import { TOOL_COMMANDS } from './tools';

/**
 * Runs `protoplay` with the given arguments and resolves to the exit code. The first Ctrl-C (or SIGTERM)
 * asks the command to stop cleanly and keep what it recorded; a second one exits at once.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await runCommandLine(
      argv,
      PROTOCOL_COMMANDS,
      { io: processIo(), signal: controller.signal },
      TOOL_COMMANDS,
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
