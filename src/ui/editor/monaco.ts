/**
 * The slim Monaco build the policy editor loads lazily: the editor core, the features an editing learner
 * uses (suggestions, hovers, signature help, find, folding, comments, error navigation), TypeScript and
 * JavaScript highlighting, and the TypeScript language service in its own worker. Nothing else of Monaco's
 * eighty languages is bundled. Imported only through `import()`, so the first paint never waits for it.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/codeEditor/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/gotoSymbol/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/parameterHints/register';
import 'monaco-editor/features/rename/register';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/suggest/register';
// That feature registers inline suggestions only: the suggestion widget (Ctrl+Space, completion as you
// type) is this controller.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/wordOperations/register';
// The TypeScript service's worker helper imports every editor contribution when it loads, after the
// editor services exist; an editor created after that (the RDDL editor) then needs the services of code
// lenses and drop-into-editor, which must be registered before the first editor: so they are, here.
import 'monaco-editor/features/codelens/register';
import 'monaco-editor/features/dropOrPasteInto/register';
import 'monaco-editor/languages/definitions/typescript/register';
import 'monaco-editor/languages/definitions/javascript/register';
import { javascriptDefaults, typescriptDefaults } from 'monaco-editor/languages/features/typescript/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TypeScriptWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';
import { languageService } from './language-service.svelte';

/**
 * The TypeScript service (a worker of 7 MB that compiles the standard library's declarations) starts
 * when a learner first reaches a policy editor: the pointer over it, or the focus in it (see
 * `startLanguageService`). Until then Monaco's requests for it wait: a page that only runs the sample, an
 * embedded view, an imported transcript never pay for it (about a quarter of a page load's CPU time).
 * (The gate itself is `language-service.svelte.ts`, which the page reads without loading Monaco.)
 */

/** Starts the TypeScript service, if it has not started: its diagnostics, hovers and completions follow. */
export function startLanguageService(): void {
  languageService.want();
}

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker | Promise<Worker> {
    return label === 'typescript' || label === 'javascript'
      ? languageService.whenWanted.then(() => new TypeScriptWorker())
      : new EditorWorker();
  },
};

/** Compiler settings for policies: modern targets, strict, no DOM (policies run in a worker). */
const compilerOptions = {
  target: 99 /* ESNext */,
  module: 99 /* ESNext */,
  lib: ['es2023', 'webworker'],
  strict: true,
  noEmit: true,
  allowNonTsExtensions: true,
  checkJs: true,
};
typescriptDefaults.setCompilerOptions(compilerOptions);
javascriptDefaults.setCompilerOptions(compilerOptions);
typescriptDefaults.setEagerModelSync(true);

export { monaco, javascriptDefaults, typescriptDefaults };
