/** The built-in example domains, written for Protoplay (none is a copy of a competition file). */
import { CELL_LIFE } from './cell-life';
import type { ExampleDomain } from './example';
import { GRID_WALK } from './grid-walk';
import { MACHINE_MAINTENANCE } from './machine-maintenance';
import { NETWORK_ADMIN } from './network-admin';
import { RESERVOIRS } from './reservoirs';

export { exampleSources, type ExampleDomain } from './example';

/** Every built-in example; the first is the playground's default. */
export const EXAMPLE_DOMAINS: readonly ExampleDomain[] = [
  NETWORK_ADMIN,
  CELL_LIFE,
  GRID_WALK,
  RESERVOIRS,
  MACHINE_MAINTENANCE,
];

/** The example the playground opens with. */
export const DEFAULT_EXAMPLE: ExampleDomain = NETWORK_ADMIN;
