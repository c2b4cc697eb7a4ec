/**
 * `protoplay open`: serves the package's built playground (`dist/` beside `package.json`) with the static
 * file server, prints the address and waits for Ctrl-C.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../command-line/exit-codes';
import { OptionReader } from '../command-line/option-values';
import { isLoopbackHost } from '../bridge/bridge-config';
import { StaticSite } from './static-site';

/** Runs `protoplay open`; resolves to the exit code once stopped. */
export async function servePlayground(
  values: OptionValues,
  positionals: readonly string[],
  { io, signal }: CommandContext,
): Promise<number> {
  if (positionals.length > 0) throw usageError(`protoplay open takes no argument ('${positionals[0]}')`);
  const options = new OptionReader(values);
  const port = options.integer('port', 4173, { min: 0, max: 65535 });
  const host = options.string('host', '127.0.0.1');
  const root = playgroundFolder();
  if (!existsSync(join(root, 'index.html'))) {
    throw new CliError(
      ExitCode.failure,
      `the playground is not built: ${root} has no index.html (in a clone of the repository, run npm run build)`,
    );
  }
  if (!isLoopbackHost(host))
    io.stderr.write(
      `warning: the playground is served on ${host}, not only on this machine: anyone who can reach it can open it\n`,
    );
  let site: StaticSite;
  try {
    site = await StaticSite.start({ root, host, port });
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'the port is in use' : String(error);
    throw new CliError(
      ExitCode.connection,
      `cannot listen on ${host}:${port}: ${why} (choose one with --port)`,
    );
  }
  // The page's address as a browser should write it: `localhost` for this machine, which is also the
  // origin `protoplay bridge` admits by default.
  const shown = isLoopbackHost(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  io.stdout.write(`Protoplay playground on http://${shown}:${site.port}/ (Ctrl-C stops it)\n`);
  await new Promise<void>((stop) => {
    if (signal.aborted) stop();
    signal.addEventListener('abort', () => stop(), { once: true });
  });
  await site.close();
  return ExitCode.ok;
}

/**
 * The built playground: `dist/` in the folder of the package's `package.json`, found from this module
 * wherever it is (the compiled command line in `lib/cli/`, or the sources in `cli/open/`).
 */
function playgroundFolder(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return join(folder, 'dist');
}
