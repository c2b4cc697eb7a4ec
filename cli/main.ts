/**
 * The composition root of the command line: the registered protocols, the real process streams and the
 * Ctrl-C handling. Everything else lives in `command-line/` (generic), `play/` (the generic commands of a
 * protocol that gives its endpoints) and `protocols/<id>/` (the commands a protocol writes itself).
 */
import { runCommandLine } from './command-line/dispatch';
import { ExitCode } from './command-line/exit-codes';
import { processIo } from './command-line/io';
import { EXTRA_PROTOCOLS_VARIABLE, loadExtraProtocols } from './extra-protocols';
import { commandLineProtocols } from './protocols';

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
  const io = processIo();
  try {
    // Before the commands are read: their help lists the registered protocols.
    await loadExtraProtocols(process.env[EXTRA_PROTOCOLS_VARIABLE], io.cwd);
    const { TOOL_COMMANDS } = await import('./tools');
    return await runCommandLine(
      argv,
      commandLineProtocols(),
      { io, signal: controller.signal },
      TOOL_COMMANDS,
    );
  } catch (error) {
    io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof Error && 'exitCode' in error ? Number(error.exitCode) : ExitCode.failure;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
