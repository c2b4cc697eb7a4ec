// Entry of an evaluation thread. A worker thread does not inherit the TypeScript loader of the main
// thread, so it registers tsx itself before loading the TypeScript body (the policy compiler, plain
// JavaScript, is loaded by Node's own loader first: much faster than through tsx's loader thread).
import { register } from 'tsx/esm/api';

await import('sucrase');
register();
await import('./evaluation-thread.ts');
