/**
 * Entry of the compiled command line (`lib/cli/protoplay.js` in the package, which `bin/protoplay.js`
 * starts). Each command's implementation is a chunk of its own, loaded when that command runs, so help and
 * a server's start read only what they use.
 */
import { main } from './main';

const code = await main(process.argv.slice(2));
// Exit at once: a policy thread or socket left behind by a failure must not keep the process alive. Writes
// to terminals, files and pipes are synchronous on Linux and macOS, so no output is lost.
process.exit(code);
