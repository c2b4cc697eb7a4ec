/**
 * The few host APIs src/core may use. Core compiles without DOM or Node typings, so any other platform API
 * is a type error: core runs unchanged in workers, in Node and in the browser's main thread.
 */
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare function btoa(data: string): string;
declare function atob(data: string): string;
declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function setInterval(callback: () => void, ms?: number): unknown;
declare function clearInterval(handle: unknown): void;
declare function queueMicrotask(callback: () => void): void;
declare const performance: { now(): number };
declare const console: {
  log(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
};
