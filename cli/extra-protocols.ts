/**
 * Protocols from outside `src/` on the command line: `PROTOPLAY_EXTRA_PROTOCOLS` names module files
 * (comma-separated; relative to the working directory), each exporting a `Protocol` as its default. They
 * join the registry at start-up, so `inspect` reads their recordings, and a protocol with `endpoints` gets
 * the generic `run`, `serve` and `connect`. The page takes the same variable at build time. The tests
 * use it for the tests-only counter protocol; it also serves anyone developing a protocol of their own.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Protocol } from '../src/core/protocols/contract';
import { addProtocols } from '../src/core/protocols/registry';
import { CliError, ExitCode } from './command-line/exit-codes';

/** The variable's name. */
export const EXTRA_PROTOCOLS_VARIABLE = 'PROTOPLAY_EXTRA_PROTOCOLS';

function looksLikeProtocol(value: unknown): value is Protocol {
  const candidate = value as Partial<Protocol> | undefined;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    typeof candidate.createReader === 'function' &&
    Array.isArray(candidate.machines)
  );
}

/** Loads and registers the modules the list names; a module that cannot be used stops the command. */
export async function loadExtraProtocols(list: string | undefined, cwd: string): Promise<Protocol[]> {
  const paths = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const loaded: Protocol[] = [];
  for (const path of paths) {
    let module: { default?: unknown };
    try {
      module = (await import(pathToFileURL(resolve(cwd, path)).href)) as { default?: unknown };
    } catch (error) {
      throw new CliError(
        ExitCode.usage,
        `${EXTRA_PROTOCOLS_VARIABLE}: cannot load '${path}': ${(error as Error).message}`,
      );
    }
    if (!looksLikeProtocol(module.default))
      throw new CliError(
        ExitCode.usage,
        `${EXTRA_PROTOCOLS_VARIABLE}: '${path}' has no Protocol as its default export`,
      );
    loaded.push(module.default);
  }
  addProtocols(loaded);
  return loaded;
}
