/**
 * RDDL in Monaco: the language is registered once, the first time an RDDL editor opens, with the engine's
 * Monarch highlighting and bracket configuration, and with completion, hover and folding answered by the
 * RDDL language worker. Diagnostics are not computed here: the documents' state checks the texts in the
 * worker and the editor shows them as markers (`showRddlDiagnostics`).
 */
import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { RddlDiagnostic, RddlSource } from '../../core/envs/rddl/api';
import type { CompletionKind } from '../../core/envs/rddl/language';
import { RDDL_LANGUAGE_CONFIGURATION, RDDL_MONARCH } from '../../core/envs/rddl/language/monarch';
import type { RddlLanguageClient } from '../../state/protocols/rddlsim/rddl-language-client';

type MonacoApi = typeof Monaco;

/** Monaco's id of the language. */
export const RDDL_LANGUAGE_ID = 'rddl';

/** The model URI of an RDDL text: its name is the path, so every text of the session has its own. */
export function rddlModelUri(monaco: MonacoApi, name: string): Monaco.Uri {
  return monaco.Uri.from({ scheme: 'rddl', path: `/${name}` });
}

/** The text name of an RDDL model (the inverse of `rddlModelUri`). */
function sourceName(model: Monaco.editor.ITextModel): string {
  return model.uri.path.replace(/^\//, '');
}

/** Every RDDL text open in the editor: completion and hover look across files (domain and instance). */
function openSources(monaco: MonacoApi): RddlSource[] {
  return monaco.editor
    .getModels()
    .filter((model) => model.getLanguageId() === RDDL_LANGUAGE_ID && !model.isDisposed())
    .map((model) => ({ name: sourceName(model), text: model.getValue() }));
}

function completionKind(monaco: MonacoApi, kind: CompletionKind): Monaco.languages.CompletionItemKind {
  const kinds = monaco.languages.CompletionItemKind;
  const table: Record<CompletionKind, Monaco.languages.CompletionItemKind> = {
    fluent: kinds.Field,
    type: kinds.Class,
    object: kinds.Constant,
    'enum-value': kinds.EnumMember,
    variable: kinds.Variable,
    keyword: kinds.Keyword,
    function: kinds.Function,
    distribution: kinds.Function,
    snippet: kinds.Snippet,
  };
  return table[kind];
}

let registered = false;
let service: RddlLanguageClient | undefined;

/**
 * Registers the RDDL language with Monaco (once; later calls only switch the service). A service failure
 * (a deadline missed) answers nothing rather than showing an error in the middle of typing.
 */
export function registerRddlLanguage(monaco: MonacoApi, client: RddlLanguageClient): void {
  service = client;
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: RDDL_LANGUAGE_ID, extensions: ['.rddl'], aliases: ['RDDL'] });
  // The engine's data is plain (core does not depend on Monaco); its shapes are Monarch's.
  monaco.languages.setMonarchTokensProvider(
    RDDL_LANGUAGE_ID,
    RDDL_MONARCH as unknown as Monaco.languages.IMonarchLanguage,
  );
  monaco.languages.setLanguageConfiguration(RDDL_LANGUAGE_ID, RDDL_LANGUAGE_CONFIGURATION);

  monaco.languages.registerCompletionItemProvider(RDDL_LANGUAGE_ID, {
    triggerCharacters: ['?', '@', '$', '(', ','],
    async provideCompletionItems(model, position) {
      if (!service) return { suggestions: [] };
      const result = await service
        .completions(openSources(monaco), sourceName(model), {
          line: position.lineNumber,
          column: position.column,
        })
        .catch(() => undefined);
      if (!result || model.isDisposed()) return { suggestions: [] };
      const range = new monaco.Range(
        result.replaceFrom.line,
        result.replaceFrom.column,
        position.lineNumber,
        position.column,
      );
      return {
        suggestions: result.items.map((item) => ({
          label: item.label,
          kind: completionKind(monaco, item.kind),
          insertText: item.insertText ?? item.label,
          ...(item.snippet
            ? { insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet }
            : {}),
          ...(item.detail ? { detail: item.detail } : {}),
          ...(item.documentation ? { documentation: { value: item.documentation } } : {}),
          range,
        })),
      };
    },
  });

  monaco.languages.registerHoverProvider(RDDL_LANGUAGE_ID, {
    async provideHover(model, position) {
      if (!service) return undefined;
      const hover = await service
        .hover(openSources(monaco), sourceName(model), {
          line: position.lineNumber,
          column: position.column,
        })
        .catch(() => undefined);
      if (!hover) return undefined;
      const { range } = hover;
      return {
        contents: hover.contents.map((value) => ({ value })),
        range: new monaco.Range(range.startLine, range.startColumn, range.endLine, range.endColumn),
      };
    },
  });

  monaco.languages.registerFoldingRangeProvider(RDDL_LANGUAGE_ID, {
    async provideFoldingRanges(model) {
      if (!service) return [];
      const ranges = await service.folding(model.getValue()).catch(() => []);
      return ranges.map((range) => ({
        start: range.startLine,
        end: range.endLine,
        ...(range.kind === 'comment' ? { kind: monaco.languages.FoldingRangeKind.Comment } : {}),
      }));
    },
  });
}

/**
 * Shows the diagnostics of one text as markers. A diagnostic without an end covers the word at its
 * position (or one character), so the squiggle sits exactly where the problem starts.
 */
export function showRddlDiagnostics(
  monaco: MonacoApi,
  model: Monaco.editor.ITextModel,
  diagnostics: readonly RddlDiagnostic[],
): void {
  const name = sourceName(model);
  const lineCount = model.getLineCount();
  const markers = diagnostics
    .filter((d) => (d.location.source ?? name) === name)
    .map((d): Monaco.editor.IMarkerData => {
      const line = Math.min(Math.max(1, d.location.line), lineCount);
      const column = Math.min(Math.max(1, d.location.column), model.getLineMaxColumn(line));
      const word = model.getWordAtPosition({ lineNumber: line, column });
      const endLine = d.location.endLine ?? line;
      const endColumn =
        d.location.endColumn ??
        (word && word.startColumn <= column
          ? word.endColumn
          : Math.min(column + 1, model.getLineMaxColumn(line)));
      return {
        severity: d.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
        message: d.message,
        startLineNumber: line,
        startColumn: column,
        endLineNumber: endLine,
        endColumn: endLine === line && endColumn <= column ? column + 1 : endColumn,
        source: 'rddl',
      };
    });
  monaco.editor.setModelMarkers(model, RDDL_LANGUAGE_ID, markers);
}
