#!/usr/bin/env node
// The `protoplay` command in a clone of the repository (bin/protoplay.js starts it there): tsx compiles the
// TypeScript sources as they load, so a change needs no build step. The package runs the command line
// compiled at pack time instead (lib/cli, see scripts/build-package.ts).
import { register } from 'tsx/esm/api';

// Every module imported after `register()` is resolved through tsx's loader thread, one message each way.
// The RDDL parser's dependency pulls in hundreds of small modules, so it is loaded by Node's own loader
// first: that halves the start-up time of every command that reads RDDL.
await import('chevrotain');
register();
const { main } = await import('../main.ts');
const { processOutputFlushed } = await import('../command-line/io.ts');
const code = await main(process.argv.slice(2));
// Exit once the output has left (a pipe takes it asynchronously), but without waiting for anything else: a
// policy thread or socket left behind by a failure must not keep the process alive.
await processOutputFlushed();
process.exit(code);
