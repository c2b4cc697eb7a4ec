/**
 * From RDDL texts to a runnable model: parse every text, collect the domain, non-fluents and instance
 * blocks (in any files), pick the instance, check the domain, ground the instance and compile it. Every
 * problem stops loading with a located ProtoplayError; `checkRddl` returns all problems instead.
 */
import { ProtoplayError } from '../../errors';
import type { RddlDiagnostic, RddlSource } from './api';
import type { DomainBlock, InstanceBlock, NonFluentsBlock, ObjectsDecl, RddlFile } from './ast';
import { CompileError } from './compile-expr';
import { compileProgram } from './compile';
import { buildDomain, type Domain } from './domain';
import { groundInstance, type GroundedInstance } from './grounding';
import { CompiledModel } from './model';
import { didYouMean } from './names';
import { compareDiagnostics, parseRddlText } from './parser';

/** The blocks of several texts, by name. */
export interface RddlWorkspace {
  files: RddlFile[];
  domains: Map<string, DomainBlock>;
  nonFluents: Map<string, NonFluentsBlock>;
  instances: Map<string, InstanceBlock>;
  diagnostics: RddlDiagnostic[];
}

/** Parses all texts and indexes their blocks; duplicate names are reported (rddlsim refuses them). */
export function readWorkspace(sources: readonly RddlSource[]): RddlWorkspace {
  const workspace: RddlWorkspace = {
    files: [],
    domains: new Map(),
    nonFluents: new Map(),
    instances: new Map(),
    diagnostics: [],
  };
  for (const source of sources) {
    const parsed = parseRddlText(source);
    workspace.files.push(parsed.file);
    workspace.diagnostics.push(...parsed.diagnostics);
    for (const block of parsed.file.blocks) {
      const table: Map<string, DomainBlock | NonFluentsBlock | InstanceBlock> =
        block.kind === 'domain'
          ? workspace.domains
          : block.kind === 'non-fluents'
            ? workspace.nonFluents
            : workspace.instances;
      if (table.has(block.name)) {
        workspace.diagnostics.push({
          severity: 'error',
          message: `there are two ${block.kind === 'non-fluents' ? 'non-fluents blocks' : `${block.kind}s`} named '${block.name}'`,
          location: block.nameLoc,
        });
        continue;
      }
      table.set(block.name, block);
    }
  }
  return workspace;
}

/** Names of the instances defined in the texts, in order of appearance. */
export function listInstances(sources: readonly RddlSource[]): string[] {
  return [...readWorkspace(sources).instances.keys()];
}

/** An instance resolved to its domain and non-fluents, with the problems found on the way. */
interface Resolved {
  domain?: Domain;
  grounded?: GroundedInstance;
  diagnostics: RddlDiagnostic[];
}

function resolveInstance(
  workspace: RddlWorkspace,
  instance: InstanceBlock,
  domainCache: Map<string, ReturnType<typeof buildDomain>>,
  rddlsimSemantics = false,
): Resolved {
  const diagnostics: RddlDiagnostic[] = [];
  const domainBlock = workspace.domains.get(instance.domain);
  if (!domainBlock) {
    diagnostics.push({
      severity: 'error',
      message: `instance '${instance.name}' uses domain '${instance.domain}', which is not in the loaded texts${didYouMean(instance.domain, workspace.domains.keys())}`,
      location: instance.domainLoc,
    });
    return { diagnostics };
  }
  let nonFluents: NonFluentsBlock | undefined;
  if (instance.nonFluents !== undefined) {
    nonFluents = workspace.nonFluents.get(instance.nonFluents);
    if (!nonFluents) {
      diagnostics.push({
        severity: 'error',
        message: `instance '${instance.name}' uses non-fluents '${instance.nonFluents}', which are not in the loaded texts${didYouMean(instance.nonFluents, workspace.nonFluents.keys())}`,
        location: instance.nonFluentsLoc ?? instance.nameLoc,
      });
      return { diagnostics };
    }
    if (nonFluents.domain !== instance.domain) {
      diagnostics.push({
        severity: 'error',
        message: `non-fluents '${nonFluents.name}' are for domain '${nonFluents.domain}', but instance '${instance.name}' is for '${instance.domain}'`,
        location: nonFluents.domainLoc,
      });
      return { diagnostics };
    }
  }
  const objectLists = [domainBlock.objects, nonFluents?.objects ?? [], instance.objects];
  let built = rddlsimSemantics ? undefined : domainCache.get(domainBlock.name);
  if (!built) {
    // Under rddlsim's semantics what the domain accepts depends on the instance's objects.
    built = buildDomain(
      domainBlock,
      rddlsimSemantics ? { rddlsim: { objectTypes: objectTypes(objectLists) } } : {},
    );
    if (!rddlsimSemantics) domainCache.set(domainBlock.name, built);
  }
  diagnostics.push(...explainObjectNames(built.diagnostics, objectLists));
  if (built.diagnostics.some((d) => d.severity === 'error')) return { domain: built.domain, diagnostics };
  const grounding = groundInstance(built.domain, instance, nonFluents, { rddlsimSemantics });
  diagnostics.push(...grounding.diagnostics);
  return { domain: built.domain, grounded: grounding.grounded, diagnostics };
}

/** Every listed object's type, by object name. */
function objectTypes(objectLists: ObjectsDecl[][]): Map<string, string> {
  const types = new Map<string, string>();
  for (const decl of objectLists.flat()) for (const object of decl.objects) types.set(object.name, decl.type);
  return types;
}

/**
 * A bare object name in an expression reads as a fluent name; when an "unknown fluent" is in fact an
 * object of the instance, say how to write it.
 */
function explainObjectNames(diagnostics: RddlDiagnostic[], objectLists: ObjectsDecl[][]): RddlDiagnostic[] {
  const objects = new Set(objectLists.flat().flatMap((decl) => decl.objects.map((o) => o.name)));
  return diagnostics.map((d) => {
    const name = /^unknown fluent '([^']+)'/.exec(d.message)?.[1];
    if (name === undefined || !objects.has(name)) return d;
    return {
      ...d,
      message: `'${name}' is an object: in expressions objects are written with $, as $${name}`,
    };
  });
}

/** Options for `checkRddl`. */
export interface CheckOptions {
  /**
   * Check as `loadRddl` with `rddlsimQuirks` loads (`--semantics rddlsim`, the playground's
   * "rddlsim-compatible quirks"): what rddlsim runs although its types do not fit is a warning, and
   * rddlsim's fluent ordering failures are errors.
   */
  rddlsimSemantics?: boolean;
}

/**
 * Every problem in a set of texts: syntax errors, domain errors, and for each instance its grounding and
 * compilation errors. Never throws; fast enough to run on each (debounced) edit.
 */
export function checkRddl(sources: readonly RddlSource[], options: CheckOptions = {}): RddlDiagnostic[] {
  const rddlsim = options.rddlsimSemantics ?? false;
  const workspace = readWorkspace(sources);
  const diagnostics = [...workspace.diagnostics];
  if (diagnostics.some((d) => d.severity === 'error')) return dedupe(diagnostics);
  const domainCache = new Map<string, ReturnType<typeof buildDomain>>();
  const used = new Set([...workspace.instances.values()].map((i) => i.domain));
  for (const block of workspace.domains.values()) {
    // A domain's problems are reported with each of its instances (which can explain object names).
    if (used.has(block.name) && rddlsim) continue;
    const built = buildDomain(
      block,
      rddlsim ? { rddlsim: { objectTypes: objectTypes([block.objects]) } } : {},
    );
    if (!rddlsim) domainCache.set(block.name, built);
    if (!used.has(block.name)) diagnostics.push(...built.diagnostics);
  }
  for (const instance of workspace.instances.values()) {
    const resolved = resolveInstance(workspace, instance, domainCache, rddlsim);
    diagnostics.push(...resolved.diagnostics);
    if (resolved.grounded) {
      try {
        compileProgram(resolved.grounded, { quirks: false });
        if (rddlsim) compileProgram(resolved.grounded, { quirks: true });
      } catch (error) {
        if (!(error instanceof CompileError)) throw error;
        diagnostics.push({ severity: 'error', message: error.message, location: error.location });
      }
    }
  }
  return dedupe(diagnostics);
}

/** Domain diagnostics repeat once per instance; keep each problem once, in text order. */
function dedupe(diagnostics: RddlDiagnostic[]): RddlDiagnostic[] {
  const seen = new Set<string>();
  const result: RddlDiagnostic[] = [];
  for (const d of diagnostics) {
    const key = `${d.location.source}:${d.location.line}:${d.location.column}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(d);
  }
  return result.sort(
    (a, b) => (a.location.source ?? '').localeCompare(b.location.source ?? '') || compareDiagnostics(a, b),
  );
}

/** Throws the first error (mentioning how many more there are). */
function throwFirstError(diagnostics: RddlDiagnostic[], code: string): void {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return;
  const first = errors[0]!;
  const more =
    errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  throw new ProtoplayError(code, `${first.message}${more}`, first.location);
}

/** Options for `loadRddl`. */
export interface LoadOptions {
  /** Which instance to load, when the texts define several. */
  instance?: string;
  /**
   * Also prepare rddlsim's semantics (`rddlsimQuirks`), so that what rddlsim's server fails on before it
   * simulates (its fluent ordering) fails the load, located, and what rddlsim runs although its types do
   * not fit loads with a warning (see `DomainOptions`) and is simulated as rddlsim evaluates it.
   */
  rddlsimQuirks?: boolean;
}

/**
 * Parses all sources (domain, non-fluents and instance blocks in any files), picks the instance (the only
 * one, or by name), checks, grounds and compiles it. Throws a ProtoplayError with a location on any error.
 */
export function loadRddl(sources: readonly RddlSource[], options: LoadOptions = {}): CompiledModel {
  const workspace = readWorkspace(sources);
  throwFirstError(workspace.diagnostics, 'rddl-syntax');
  const names = [...workspace.instances.keys()];
  let instance: InstanceBlock | undefined;
  if (options.instance !== undefined) {
    instance = workspace.instances.get(options.instance);
    if (!instance) {
      throw new ProtoplayError(
        'rddl-instance',
        names.length
          ? `no instance named '${options.instance}'${didYouMean(options.instance, names)}; the texts define ${names.join(', ')}`
          : `no instance named '${options.instance}': the texts define no instance`,
      );
    }
  } else if (names.length === 1) {
    instance = workspace.instances.get(names[0]!);
  } else {
    throw new ProtoplayError(
      'rddl-instance',
      names.length === 0
        ? 'the texts define no instance (an instance block names the domain, objects, horizon and discount)'
        : `the texts define several instances (${names.join(', ')}): choose one`,
    );
  }
  const resolved = resolveInstance(workspace, instance!, new Map(), options.rddlsimQuirks ?? false);
  throwFirstError(resolved.diagnostics, 'rddl-semantic');
  const grounded = resolved.grounded!;
  let program;
  try {
    program = compileProgram(grounded, { quirks: false });
  } catch (error) {
    if (error instanceof CompileError)
      throw new ProtoplayError('rddl-compile', error.message, error.location);
    throw error;
  }
  const texts = new Map(sources.map((s) => [s.name, s.text]));
  const model = new CompiledModel(
    grounded,
    program,
    texts,
    // The reader's advice (forms rddlsim would refuse) and the checker's, in the order of the texts.
    [...workspace.diagnostics, ...resolved.diagnostics].filter((d) => d.severity === 'warning'),
  );
  if (options.rddlsimQuirks) model.program(true);
  return model;
}
