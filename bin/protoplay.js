#!/usr/bin/env node
// The `protoplay` command. The package runs the command line compiled when it was packed (lib/cli); a
// clone of the repository, which has the TypeScript sources and no build, runs the sources through tsx,
// so a change needs no build step.
import { existsSync } from 'node:fs';

if (existsSync(new URL('../cli/main.ts', import.meta.url))) await import('../cli/bin/protoplay.js');
else await import('../lib/cli/protoplay.js');
