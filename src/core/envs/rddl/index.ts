/**
 * The RDDL environment: parse RDDL texts, load an instance and simulate it with rddlsim's semantics.
 * Types of the contract live in `./api`.
 */
import type { RddlDiagnostic, RddlSource } from './api';
import type { RddlFile } from './ast';
import { parseRddlText } from './parser';

export type * from './api';
export { checkRddl, listInstances, loadRddl, type CheckOptions, type LoadOptions } from './load';
export type { CompiledModel } from './model';
export { RDDLSIM_QUIRKS, type RddlsimQuirk } from './quirks';
export { prepareRddlParser } from './parser';

/** Parses one text: its syntax tree (possibly partial) and its syntax errors, with line:column. */
export function parseRddl(source: RddlSource): { diagnostics: RddlDiagnostic[]; file: RddlFile } {
  const { file, diagnostics } = parseRddlText(source);
  return { file, diagnostics };
}
export { DEFAULT_EXAMPLE, EXAMPLE_DOMAINS, exampleSources, type ExampleDomain } from './examples';
export * as rddlLanguage from './language';
