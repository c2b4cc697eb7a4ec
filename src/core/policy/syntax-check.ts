/**
 * Checking a policy's syntax where it is loaded from, before any runtime starts: a syntax error is then
 * reported as one, located, however long a runtime would take to start (a worker on a busy machine can take
 * longer than any load limit), and no runtime is started for code that cannot run.
 */
import { compilePolicy } from './compile';
import { describeThrown } from './evaluate';
import type { PolicyFault, PolicySource } from './types';

/** The syntax error of a policy source, or undefined when it parses (it may still fail when it runs). */
export function findSyntaxError(source: PolicySource): PolicyFault | undefined {
  const compiled = compilePolicy(source.code, source.language, source.fileName);
  if (!compiled.ok) return compiled.fault;
  try {
    // Parsed, never run: the engine rejects a few programs the compiler accepts (`let x` declared twice).
    new Function(compiled.compiled.code);
  } catch (error) {
    return { kind: 'compile', message: describeThrown(error) };
  }
  return undefined;
}
