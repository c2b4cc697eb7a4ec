/**
 * Evaluates a compiled policy as a module: runs its top-level code once with its own `exports`, `require`
 * and `console`, and turns anything it throws into a fault located in the user's source.
 */
import type { SourceLocation } from '../errors';
import type { CompiledPolicy } from './compile';
import { findScriptFrame } from './stack-location';
import type { PolicyFault } from './types';

/** The parameters the module body sees; `console` shadows the global so output becomes policy logs. */
const MODULE_PARAMETERS = ['exports', 'require', 'module', 'console'] as const;

/** A console as the policy sees it: every method records one log line. */
export type PolicyConsole = Record<'log' | 'info' | 'warn' | 'error' | 'debug', (...args: unknown[]) => void>;

/** An evaluated policy module. */
export interface EvaluatedPolicy {
  /** The module's exports (named exports, or the members of a default-exported object). */
  exports: Record<string, unknown>;
  /** Maps an error thrown later by one of the exports to the user's source. */
  locate(error: unknown): SourceLocation | undefined;
}

let scriptCounter = 0;
let wrapperLines: number | undefined;

/**
 * How many lines the engine's `Function` wrapper adds before the body (V8 adds two:
 * `function anonymous(a,b\n) {\n`). Measured rather than assumed, so other engines map correctly too.
 */
function functionWrapperLines(): number {
  if (wrapperLines === undefined) {
    const name = 'protoplay-wrapper-probe.js';
    const probe = new Function(...MODULE_PARAMETERS, `return new Error().stack;\n//# sourceURL=${name}`);
    const frame = findScriptFrame(probe() as string | undefined, name);
    wrapperLines = frame ? frame.line - 1 : 0;
  }
  return wrapperLines;
}

/**
 * Runs the module body. Throws nothing: a failure comes back as a `load` fault (with the location of the
 * throwing line when the engine reports it).
 */
export function evaluatePolicy(
  compiled: CompiledPolicy,
  policyConsole: PolicyConsole,
): { ok: true; module: EvaluatedPolicy } | { ok: false; fault: PolicyFault } {
  const scriptName = `protoplay-policy-${++scriptCounter}.js`;
  const offset = functionWrapperLines();
  const locate = (error: unknown): SourceLocation | undefined => {
    const stack = error instanceof Error ? error.stack : undefined;
    const frame = findScriptFrame(stack, scriptName);
    if (!frame) return undefined;
    const original = compiled.mapping.originalPosition({ line: frame.line - offset, column: frame.column });
    return { source: compiled.fileName, ...original };
  };

  const module = { exports: {} as Record<string, unknown> };
  const require = (specifier: string) => {
    throw new Error(
      `policies cannot import modules (import of '${specifier}'); write everything in this file`,
    );
  };
  let body: (...args: unknown[]) => unknown;
  try {
    body = new Function(...MODULE_PARAMETERS, `${compiled.code}\n//# sourceURL=${scriptName}`) as typeof body;
  } catch (error) {
    // The compiler accepts a few programs the engine rejects (e.g. `let x` declared twice); engines give
    // no position for those.
    return { ok: false, fault: { kind: 'compile', message: describeThrown(error) } };
  }
  try {
    body(module.exports, require, module, policyConsole);
  } catch (error) {
    return { ok: false, fault: { kind: 'load', message: describeThrown(error), location: locate(error) } };
  }
  return { ok: true, module: { exports: moduleExports(module.exports), locate } };
}

/** Named exports; a default export that is an object contributes its members (`export default { act }`). */
function moduleExports(exports: Record<string, unknown>): Record<string, unknown> {
  const fallback = exports.default;
  if (fallback && typeof fallback === 'object')
    return { ...(fallback as Record<string, unknown>), ...exports };
  return exports;
}

/** "TypeError: x is not a function" for errors, the value itself for anything else thrown. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `uncaught ${typeof error === 'string' ? JSON.stringify(error) : String(error)}`;
}
