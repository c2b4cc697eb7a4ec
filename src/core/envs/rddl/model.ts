/**
 * A loaded instance: the static facts others read (`info`, fluent declarations, type values) and the
 * factory for simulators. Compiling happens once per evaluation mode (correct semantics, or rddlsim's
 * quirks) and is shared by every simulator of the model.
 */
import type {
  FluentDecl,
  InstanceInfo,
  RddlDiagnostic,
  RddlModel,
  RddlSimulator,
  RddlValue,
  SimulatorOptions,
  TypeInfo,
} from './api';
import type { ConstValue } from './ast';
import { ActionResolver } from './actions';
import { compileProgram, type CompiledProgram } from './compile';
import { CompileError } from './compile-expr';
import { ProtoplayError } from '../../errors';
import type { GroundedInstance } from './grounding';
import { canonicalFluentName } from './names';
import { CompiledSimulator } from './simulator';
import { describeType } from './value-types';

function constValue(value: ConstValue | undefined): RddlValue | undefined {
  if (!value || value.kind === 'struct') return undefined;
  return value.value;
}

/** The facts about an instance that consumers read. */
export function describeInstance(grounded: GroundedInstance): InstanceInfo {
  const { domain, instance } = grounded;
  const horizon = instance.horizon;
  const max = instance.maxNondefActions;
  const fluents: FluentDecl[] = domain.pvariableList.map((p) => ({
    name: p.name,
    kind: p.kind,
    paramTypes: [...p.params],
    range:
      p.range.kind === 'bool' || p.range.kind === 'int' || p.range.kind === 'real'
        ? p.range.kind
        : describeType(p.range),
    default: constValue(p.default),
    level: p.level,
    location: p.decl.loc,
  }));
  const types: TypeInfo[] = [...domain.types.values()]
    .filter((t) => t.kind !== 'struct')
    .map((t) => ({
      name: t.name,
      kind: t.kind as 'object' | 'enum',
      parent: t.parent,
      values: [...(grounded.typeValues.get(t.name) ?? [])],
    }));
  return {
    domain: domain.name,
    instance: instance.name,
    nonFluents: instance.nonFluents,
    horizon: horizon.kind === 'steps' ? horizon.steps : Infinity,
    terminateWhen: horizon.kind === 'terminate-when' || horizon.kind === 'terminal',
    discount: instance.discount,
    maxNondefActions: max === undefined || max === 'pos-inf' ? Infinity : max,
    partiallyObserved: domain.partiallyObserved,
    fluents,
    types,
  };
}

/** The RddlModel of a grounded, checked instance. */
export class CompiledModel implements RddlModel {
  readonly info: InstanceInfo;
  /** Advice found while loading that did not stop it (e.g. forms rddlsim would treat differently). */
  readonly warnings: readonly RddlDiagnostic[];
  readonly #grounded: GroundedInstance;
  readonly #programs = new Map<boolean, CompiledProgram>();
  readonly #resolver: ActionResolver;
  readonly #actionDefaults: Float64Array;
  readonly #fluents: Map<string, FluentDecl>;
  readonly #texts: ReadonlyMap<string, string>;

  constructor(
    grounded: GroundedInstance,
    program: CompiledProgram,
    texts: ReadonlyMap<string, string>,
    warnings: RddlDiagnostic[],
  ) {
    this.#grounded = grounded;
    this.#programs.set(false, program);
    this.#texts = texts;
    this.info = describeInstance(grounded);
    this.warnings = warnings;
    this.#resolver = new ActionResolver(grounded);
    this.#actionDefaults = this.#resolver.defaults(grounded.sizes.action);
    this.#fluents = new Map(this.info.fluents.map((f) => [canonicalFluentName(f.name), f]));
  }

  findFluent(name: string): FluentDecl | undefined {
    return this.#fluents.get(canonicalFluentName(name));
  }

  typeValues(type: string): readonly string[] | undefined {
    if (!this.#grounded.domain.types.has(type)) return undefined;
    return this.#grounded.typeValues.get(type) ?? [];
  }

  /** The compiled program for a mode (compiled on first use; compile errors were found at load time). */
  program(quirks: boolean): CompiledProgram {
    let program = this.#programs.get(quirks);
    if (!program) {
      try {
        program = compileProgram(this.#grounded, { quirks });
      } catch (error) {
        if (error instanceof CompileError)
          throw new ProtoplayError('rddl-compile', error.message, error.location);
        throw error;
      }
      this.#programs.set(quirks, program);
    }
    return program;
  }

  /** Ground facts for tools that look inside (benchmarks, tests of the grounder). */
  get grounded(): GroundedInstance {
    return this.#grounded;
  }

  createSimulator(options: SimulatorOptions): RddlSimulator {
    return new CompiledSimulator(
      {
        info: this.info,
        grounded: this.#grounded,
        program: this.program(options.rddlsimQuirks ?? false),
        resolver: this.#resolver,
        actionDefaults: this.#actionDefaults,
        texts: this.#texts,
      },
      options,
    );
  }
}
