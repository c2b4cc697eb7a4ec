/**
 * Loads a `.svelte.ts` module compiled as the page runs it: for the browser, on Svelte's client runtime.
 * The unit tests run in Node, where Vite compiles such modules for the server (no effects at all) and
 * `svelte` resolves to its server build; a test of how a rune class behaves inside effects (their
 * cleanups, the order they run in) needs the client build. Each module is stripped of its types,
 * compiled with `generate: 'client'`, and written next to the others of the same test with its imports
 * of `svelte` pointing at the client runtime, so the module and the test share one runtime.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileModule } from 'svelte/compiler';
import ts from 'typescript';

const svelteRoot = dirname(createRequire(import.meta.url).resolve('svelte/package.json'));
/** Where the client build's entries are (the package's `browser` and `internal/client` exports). */
const CLIENT_ENTRIES: Record<string, string> = {
  svelte: pathToFileURL(join(svelteRoot, 'src/index-client.js')).href,
  'svelte/internal/client': pathToFileURL(join(svelteRoot, 'src/internal/client/index.js')).href,
  'svelte/internal/disclose-version': pathToFileURL(join(svelteRoot, 'src/internal/disclose-version.js'))
    .href,
};

/** The client runtime the compiled modules use (`flushSync`, `untrack`...). */
export async function svelteClient(): Promise<typeof import('svelte')> {
  return (await import(CLIENT_ENTRIES.svelte!)) as typeof import('svelte');
}

/** Compiled modules of one test, written to one folder so they can import one another by name. */
export class ClientModules {
  readonly #dir = mkdtempSync(join(tmpdir(), 'svelte-client-'));

  /**
   * Compiles `source` (TypeScript with runes) as `<name>.js`; `imports` rewrites its relative imports
   * (`'../state/x.svelte'` to `'./x.js'`). Returns the file's URL.
   */
  add(name: string, source: string, imports: Record<string, string> = {}): string {
    const js = ts.transpileModule(source, {
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        useDefineForClassFields: true,
        verbatimModuleSyntax: false,
      },
    }).outputText;
    const compiled = compileModule(js, { generate: 'client', filename: `${name}.svelte.js` }).js.code;
    const targets: Record<string, string> = { ...CLIENT_ENTRIES, ...imports };
    const linked = compiled.replace(
      /(from\s+|import\s+)(['"])([^'"]+)\2/g,
      (whole, keyword: string, quote: string, specifier: string) =>
        specifier in targets ? `${keyword}${quote}${targets[specifier]}${quote}` : whole,
    );
    const file = join(this.#dir, `${name}.js`);
    writeFileSync(file, linked);
    return pathToFileURL(file).href;
  }
}
