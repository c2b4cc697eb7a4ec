/**
 * Protocols added to a build from outside `src/`: none in the product. A build made with
 * `PROTOPLAY_EXTRA_PROTOCOLS` set (a list of module files, each exporting a `Protocol` as its default)
 * replaces this module with one importing them (see `extraProtocolsPlugin` in `vite.config.ts`);
 * the end-to-end tests build the page so with the tests-only counter protocol. The command line loads the
 * same variable's modules when it starts (`cli/extra-protocols.ts`).
 */
import type { Protocol } from './contract';

export const EXTRA_PROTOCOLS: readonly Protocol[] = [];
