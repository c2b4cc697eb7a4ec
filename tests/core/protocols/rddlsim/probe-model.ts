/**
 * A small hand-written RddlModel for host tests: the deterministic probe domain the rddlsim recordings were
 * made with (an int counter, a real position, an enum mode, a bool flag per object; an int, a real, an enum
 * and a bool action; preconditions 0 <= inc <= 5). It stands in for the RDDL environment so the host's
 * protocol logic is tested on its own, and the recorded probe sessions can be replayed against it.
 */
import type {
  FluentDecl,
  GroundAction,
  GroundFluent,
  InstanceInfo,
  RddlModel,
  RddlSimulator,
  RddlValue,
  StepOutcome,
} from '../../../../src/core/envs/rddl/api';

/** Which probe instance: a 4-step horizon, or `terminate-when (count >= 3)` with discount 0.5. */
export interface ProbeOptions {
  instance?: 'probe_inst_1' | 'probe_term_1';
  /** Adds an observation fluent `seen-count` (= count after the step): a POMDP. */
  partiallyObserved?: boolean;
  maxNondefActions?: number;
}

const OBJECTS = ['a', 'b'];
const LEVELS = ['@low', '@mid', '@high'];

function fluent(
  name: string,
  kind: FluentDecl['kind'],
  range: string,
  extra: Partial<FluentDecl> = {},
): FluentDecl {
  return { name, kind, range, paramTypes: [], ...extra };
}

/** Builds the probe model. */
export function createProbeModel(options: ProbeOptions = {}): RddlModel {
  const instance = options.instance ?? 'probe_inst_1';
  const terminating = instance === 'probe_term_1';
  const fluents: FluentDecl[] = [
    fluent('BONUS', 'non-fluent', 'real', { paramTypes: ['obj'], default: 1.5 }),
    fluent('count', 'state-fluent', 'int', { default: 0 }),
    fluent('pos', 'state-fluent', 'real', { default: 0 }),
    fluent('mode', 'state-fluent', 'lvl', { default: '@low' }),
    fluent('flag', 'state-fluent', 'bool', { paramTypes: ['obj'], default: false }),
    fluent('inc', 'action-fluent', 'int', { default: 0 }),
    fluent('move', 'action-fluent', 'real', { default: 0 }),
    fluent('setmode', 'action-fluent', 'lvl', { default: '@low' }),
    fluent('toggle', 'action-fluent', 'bool', { paramTypes: ['obj'], default: false }),
    fluent('total', 'interm-fluent', 'int'),
  ];
  if (options.partiallyObserved) fluents.push(fluent('seen-count', 'observ-fluent', 'int'));
  const info: InstanceInfo = {
    domain: 'probe_mdp',
    instance,
    horizon: terminating ? 40 : 4,
    terminateWhen: terminating,
    discount: terminating ? 0.5 : 1,
    maxNondefActions: options.maxNondefActions ?? Infinity,
    partiallyObserved: options.partiallyObserved ?? false,
    fluents,
    types: [
      { name: 'obj', kind: 'object', values: OBJECTS },
      { name: 'lvl', kind: 'enum', values: LEVELS },
    ],
  };
  const canonical = (name: string) => name.replace(/-/g, '_').toLowerCase();
  return {
    info,
    findFluent: (name) => fluents.find((decl) => canonical(decl.name) === canonical(name)),
    typeValues: (type) => info.types.find((t) => t.name === type)?.values,
    createSimulator: () => new ProbeSimulator(info, terminating),
  };
}

class ProbeSimulator implements RddlSimulator {
  count = 1;
  pos = 0;
  mode: string = '@low';
  flags = [false, false];
  lastObservation: number | undefined;

  constructor(
    readonly info: InstanceInfo,
    readonly terminating: boolean,
  ) {}

  reset(): void {
    this.count = 1;
    this.pos = 0;
    this.mode = '@low';
    this.flags = [false, false];
    this.lastObservation = undefined;
  }

  step(actions: readonly GroundAction[], options?: { nondefaultCount?: number }): StepOutcome {
    const value = (name: string, args: string[] = [], fallback: RddlValue) =>
      actions.find((a) => a.name === name && a.args.join() === args.join())?.value ?? fallback;
    const count = options?.nondefaultCount ?? actions.length;
    if (count > this.info.maxNondefActions)
      return {
        kind: 'illegal',
        illegal: {
          reason: 'max-nondef-actions',
          detail: `${count} non-default actions exceed ${this.info.maxNondefActions}`,
        },
      };
    const inc = value('inc', [], 0) as number;
    if (!(inc >= 0 && inc <= 5))
      return {
        kind: 'illegal',
        illegal: { reason: 'action-precondition', detail: `violated precondition on inc = ${inc}` },
      };
    const reward =
      this.count +
      this.pos +
      (this.mode === '@high' ? 100 : 0) +
      this.flags.reduce((sum, f) => sum + (f ? 1.5 : 0), 0);
    this.count += inc;
    this.pos += value('move', [], 0) as number;
    this.mode = value('setmode', [], '@low') as string;
    this.flags = this.flags.map((flag, i) => (value('toggle', [OBJECTS[i]!], false) ? !flag : flag));
    this.lastObservation = this.count;
    return { kind: 'ok', reward, rewardType: 'real', terminated: this.terminating && this.count >= 3 };
  }

  stateFluents(): GroundFluent[] {
    return [
      { name: 'mode', args: [], value: this.mode, valueType: this.mode.startsWith('@') ? 'enum' : 'object' },
      ...OBJECTS.map((o, i) => ({
        name: 'flag',
        args: [o],
        value: this.flags[i]!,
        valueType: 'bool' as const,
      })),
      { name: 'pos', args: [], value: this.pos, valueType: 'real' },
      { name: 'count', args: [], value: this.count, valueType: 'int' },
    ];
  }

  observations(): GroundFluent[] {
    if (!this.info.partiallyObserved || this.lastObservation === undefined) return [];
    return [{ name: 'seen-count', args: [], value: this.lastObservation, valueType: 'int' }];
  }

  internalFluents(): GroundFluent[] {
    return [{ name: 'total', args: [], value: this.count, valueType: 'int' }];
  }
}
