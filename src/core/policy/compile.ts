import { transform } from 'sucrase';
import { SourceMapping } from './source-map';
import type { PolicyFault, PolicyLanguage } from './types';

/** A policy compiled to a CommonJS-style script body, with the mapping back to the user's lines. */
export interface CompiledPolicy {
  /** Script that fills `exports` and reads `require`; sucrase keeps every statement on its source line. */
  code: string;
  mapping: SourceMapping;
  fileName: string;
}

/** Result of compiling: the script, or a located syntax error. */
export type CompileOutcome = { ok: true; compiled: CompiledPolicy } | { ok: false; fault: PolicyFault };

/**
 * Compiles JS or TS policy source: strips types and turns ES `import`/`export` into `require`/`exports`
 * (sucrase: fast, small enough for a worker, and it keeps line numbers). Modern syntax is left alone since
 * every engine that runs the playground understands it. Syntax errors come back located at the user's
 * line and column.
 */
export function compilePolicy(code: string, language: PolicyLanguage, fileName: string): CompileOutcome {
  try {
    const result = transform(code, {
      transforms: language === 'ts' ? ['typescript', 'imports'] : ['imports'],
      disableESTransforms: true,
      filePath: fileName,
      sourceMapOptions: { compiledFilename: fileName.replace(/\.[jt]s$/, '') + '.compiled.js' },
    });
    return {
      ok: true,
      compiled: { code: result.code, mapping: new SourceMapping(result.sourceMap?.mappings ?? ''), fileName },
    };
  } catch (error) {
    return { ok: false, fault: syntaxFault(error, code, fileName) };
  }
}

/**
 * The JavaScript of a TypeScript policy, for a learner switching the editor's language: type annotations,
 * interfaces, type aliases and `as` casts removed, everything else (comments, blank lines, `import` and
 * `export`) as written. Undefined when the code does not parse as TypeScript (it is then left as it is).
 */
export function typeScriptToJavaScript(code: string): string | undefined {
  try {
    return transform(code, { transforms: ['typescript'], disableESTransforms: true }).code;
  } catch {
    return undefined;
  }
}

/** Turns sucrase's parse error (message "Unexpected token (3:5)" and a character offset `pos`) into a fault. */
function syntaxFault(error: unknown, code: string, fileName: string): PolicyFault {
  const raw = error instanceof Error ? error.message : String(error);
  // Sucrase words it "Error transforming policy.ts: Unexpected token (2:13)"; the location is ours to add.
  const message = raw.replace(/^Error transforming [^:]*: /, '').replace(/\s*\(\d+:\d+\)\s*$/, '');
  const pos = (error as { pos?: unknown }).pos;
  if (typeof pos !== 'number') return { kind: 'compile', message: `Syntax error: ${message}` };
  const before = code.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - (before.lastIndexOf('\n') + 1) + 1;
  return {
    kind: 'compile',
    message: `Syntax error: ${message}`,
    location: { source: fileName, line, column, offset: pos },
  };
}
