// Entry of every policy thread. A worker thread does not inherit the TypeScript loader of the main thread,
// so it registers tsx itself before loading the TypeScript body. The policy compiler (plain JavaScript,
// many modules) is loaded by Node's own loader first, which is much faster than through tsx's loader thread.
import { register } from 'tsx/esm/api';

await import('sucrase');
register();
await import('./policy-thread.ts');
