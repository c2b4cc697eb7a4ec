// The comparison thread of bench/cli/policy-thread.bench.ts (every protocol's definition loaded), loaded as
// the command line's thread entry loads its body (sucrase by Node's loader, then tsx for the TypeScript).
import { register } from 'tsx/esm/api';

await import('sucrase');
register();
await import('./registry-thread.ts');
