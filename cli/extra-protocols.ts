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

/** The module file (absolute path) of each protocol loaded so far, for a policy thread to load it too. */
const loadedModules = new Map<Protocol, string>();

/** The module file (an absolute path) a protocol was loaded from, when it is an extra protocol. */
export function extraProtocolModuleOf(protocol: Protocol): string | undefined {
  return loadedModules.get(protocol);
}

/** Loads and registers the modules the list names; a module that cannot be used stops the command. */
export async function loadExtraProtocols(list: string | undefined, cwd: string): Promise<Protocol[]> {
  const paths = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return loadProtocolModules(
    paths.map((path) => ({ path, absolute: resolve(cwd, path) })),
    EXTRA_PROTOCOLS_VARIABLE,
  );
}

/**
 * Loads and registers protocol modules (`path` as the user named it, for messages): what
 * `loadExtraProtocols` does with the variable's list, and what a policy thread does with the module of the
 * extra protocol it runs.
 */
export async function loadProtocolModules(
  modules: readonly { path: string; absolute: string }[],
  origin: string,
): Promise<Protocol[]> {
  const loaded: { protocol: Protocol; absolute: string }[] = [];
  for (const { path, absolute } of modules) {
    let module: { default?: unknown };
    try {
      module = (await import(pathToFileURL(absolute).href)) as { default?: unknown };
    } catch (error) {
      throw new CliError(ExitCode.usage, `${origin}: cannot load '${path}': ${(error as Error).message}`);
    }
    if (!looksLikeProtocol(module.default))
      throw new CliError(ExitCode.usage, `${origin}: '${path}' has no Protocol as its default export`);
    loaded.push({ protocol: module.default, absolute });
  }
  addProtocols(loaded.map(({ protocol }) => protocol));
  for (const { protocol, absolute } of loaded) loadedModules.set(protocol, absolute);
  return loaded.map(({ protocol }) => protocol);
}
