// The baseline thread of bench/cli/policy-thread.bench.ts: the ordinary policy runtime alone, loaded as the
// command line's thread entry loads its body (sucrase by Node's loader, then tsx for the TypeScript).
import { register } from 'tsx/esm/api';

await import('sucrase');
register();
await import('./plain-thread.ts');
