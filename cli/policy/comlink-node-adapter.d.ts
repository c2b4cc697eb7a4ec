// Comlink ships the types of its Node adapter as `node-adapter.d.ts` beside `node-adapter.mjs`, where
// TypeScript does not look for a `.mjs` import; this points it there.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  export { default } from 'comlink/dist/esm/node-adapter';
}
