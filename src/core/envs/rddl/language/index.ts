/**
 * Language services for editing RDDL (the data a Monaco binding registers): highlighting rules,
 * diagnostics (`checkRddl`), completion, hover and folding. All pure functions of the texts, cheap enough
 * to run in a worker on every debounced edit.
 */
export { checkRddl as diagnose } from '../load';
export { completionsAt, type CompletionItem, type CompletionKind, type CompletionResult } from './completion';
export type { TextPosition, TextRange } from './cursor';
export { foldingRanges, type FoldingRange } from './folding';
export { hoverAt, type HoverInfo } from './hover';
export { RDDL_LANGUAGE_CONFIGURATION, RDDL_MONARCH, type MonarchLanguage, type MonarchRule } from './monarch';
export {
  RDDL_AGGREGATIONS,
  RDDL_BUILTIN_TYPES,
  RDDL_DISTRIBUTIONS,
  RDDL_FUNCTIONS,
  RDDL_KEYWORDS,
} from './vocabulary';
