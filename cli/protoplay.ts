/**
 * Entry of the compiled command line (`lib/cli/protoplay.js` in the package, which `bin/protoplay.js`
 * starts). Each command's implementation is a chunk of its own, loaded when that command runs, so help and
 * a server's start read only what they use.
 */
import { processOutputFlushed } from './command-line/io';
import { main } from './main';

const code = await main(process.argv.slice(2));
// Exit once the output has left (a pipe takes it asynchronously), but without waiting for anything else: a
// policy thread or socket left behind by a failure must not keep the process alive.
await processOutputFlushed();
process.exit(code);
