/**
 * What an editor needs to know about the names in a set of RDDL texts, read from the (possibly partial)
 * syntax trees: pvariable declarations with their comments, types with their values, objects and enum
 * values. Tolerant of texts with syntax errors, since it runs while the user types.
 */
import type { SourceLocation } from '../../../errors';
import type { RddlSource } from '../api';
import type { PvarDecl, TypeDecl } from '../ast';
import { readWorkspace } from '../load';
import { canonicalFluentName } from '../names';

/** A pvariable declaration and the comment written with it. */
export interface PvarSymbol {
  decl: PvarDecl;
  /** Comment lines right above the declaration, or at the end of its line. */
  doc?: string;
  /** The declaration as written (one line). */
  text: string;
}

/** The declared names of a workspace. */
export interface SymbolIndex {
  /** By canonical name. */
  pvariables: Map<string, PvarSymbol>;
  types: Map<string, { decl: TypeDecl; text: string }>;
  /** Objects listed in any objects section, with their type. */
  objects: Map<string, { type: string; location: SourceLocation }>;
  /** Enum values with their type. */
  enumValues: Map<string, string>;
  /** Labels of vector types' named members (`@pos` of `<@pos : point, ...>`), with the types naming them. */
  memberLabels: Map<string, string[]>;
  /** Names of domains, non-fluents blocks and instances. */
  blocks: { kind: 'domain' | 'non-fluents' | 'instance'; name: string; location: SourceLocation }[];
}

/** The text of a span, on one line with spaces collapsed. */
function excerpt(text: string, location: SourceLocation): string {
  const lines = text.split('\n');
  const end = location.endLine ?? location.line;
  const parts = lines.slice(location.line - 1, end);
  if (parts.length === 0) return '';
  parts[parts.length - 1] = parts[parts.length - 1]!.slice(0, (location.endColumn ?? 1) - 1);
  parts[0] = parts[0]!.slice(location.column - 1);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** Comment lines directly above line `line` (1-based), or the comment at its end. */
function commentFor(lines: string[], line: number): string | undefined {
  const above: string[] = [];
  for (let i = line - 2; i >= 0; i--) {
    const m = /^\s*\/\/\s?(.*)$/.exec(lines[i]!);
    if (!m) break;
    above.unshift(m[1]!.trimEnd());
  }
  const trailing = /\/\/\s?(.*)$/.exec(lines[line - 1] ?? '')?.[1]?.trim();
  const text = [...above, ...(trailing ? [trailing] : [])].join('\n').trim();
  return text || undefined;
}

/** Indexes the declarations of all texts. */
export function indexSymbols(sources: readonly RddlSource[]): SymbolIndex {
  const workspace = readWorkspace(sources);
  const texts = new Map(sources.map((s) => [s.name, s.text]));
  const index: SymbolIndex = {
    pvariables: new Map(),
    types: new Map(),
    objects: new Map(),
    enumValues: new Map(),
    memberLabels: new Map(),
    blocks: [],
  };
  for (const file of workspace.files) {
    const text = texts.get(file.source) ?? '';
    const lines = text.split('\n');
    for (const block of file.blocks) {
      if (!block || block.name === '?') continue;
      index.blocks.push({ kind: block.kind, name: block.name, location: block.nameLoc });
      const objectSections = block.kind === 'domain' ? block.objects : block.objects;
      for (const decl of objectSections) {
        for (const object of decl.objects)
          index.objects.set(object.name, { type: decl.type, location: object.loc });
      }
      if (block.kind !== 'domain') continue;
      for (const decl of block.types) {
        if (!decl || decl.name === '?') continue;
        index.types.set(decl.name, { decl, text: excerpt(text, decl.loc) });
        if (decl.kind === 'enum') for (const v of decl.values) index.enumValues.set(v.value, decl.name);
        if (decl.kind === 'enum-range')
          for (let i = decl.from; i <= decl.to; i++) index.enumValues.set(`@${i}`, decl.name);
        if (decl.kind === 'struct' && decl.indexType === undefined) {
          for (const { label } of decl.members) {
            const owners = index.memberLabels.get(label) ?? [];
            index.memberLabels.set(label, [...owners, decl.name]);
          }
        }
      }
      for (const decl of block.pvariables) {
        if (!decl || decl.name === '?') continue;
        index.pvariables.set(canonicalFluentName(decl.name), {
          decl,
          doc: commentFor(lines, decl.loc.line),
          text: excerpt(text, decl.loc),
        });
      }
    }
  }
  return index;
}

/** Objects of a type (and of its subtypes) listed in the texts. */
export function objectsOfType(index: SymbolIndex, type: string): string[] {
  const subtypes = new Set([type]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, { decl }] of index.types) {
      if (decl.kind === 'object' && decl.parent && subtypes.has(decl.parent) && !subtypes.has(name)) {
        subtypes.add(name);
        grew = true;
      }
    }
  }
  return [...index.objects].filter(([, o]) => subtypes.has(o.type)).map(([name]) => name);
}
