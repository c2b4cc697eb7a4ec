/**
 * Steps per second of the compiled RDDL simulator on six IPPC 2011 instances, with a no-op policy and a cheap
 * random one (no-op or one random bool action, like the "cheaprandom" policy of the rddlsim measurements),
 * counting whole rounds with their reset as rddlsim's figures do. Beside it: the baseline measured in the
 * same run (a plain interpreter walking the syntax tree of the same grounded instance, drawing the same
 * random numbers) and rddlsim's in-process simulator figures (research §5.1, JDK 17 on this kind of
 * machine), with both ratios. Then the time to parse, check and ground, and compile each instance.
 *
 * The machine is shared, so besides the wall-clock rate (median batch) the table gives the rate per second
 * of this process's CPU time, which other processes' load does not lower.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadRddl } from '../../src/core/envs/rddl';
import type { GroundAction, RddlSource } from '../../src/core/envs/rddl/api';
import { compileProgram } from '../../src/core/envs/rddl/compile';
import { groundInstance } from '../../src/core/envs/rddl/grounding';
import { buildDomain } from '../../src/core/envs/rddl/domain';
import { readWorkspace } from '../../src/core/envs/rddl/load';
import type { CompiledModel } from '../../src/core/envs/rddl/model';
import { parseRddlText } from '../../src/core/envs/rddl/parser';
import { Rng } from '../../src/core/random';
import { formatNumber, measureRate, printTable } from '../lib';
import { AstInterpreter } from './ast-interpreter';

const BENCHMARKS = resolve(process.cwd(), '../shared/rddl/ippc2011');

/** rddlsim's in-process steps/s including the per-round reset (research §5.1). */
const INSTANCES: { name: string; rddlsim: { noop: number; random?: number } }[] = [
  { name: 'sysadmin_inst_mdp__10', rddlsim: { noop: 5_539, random: 4_767 } },
  { name: 'game_of_life_inst_mdp__10', rddlsim: { noop: 4_575, random: 4_127 } },
  { name: 'elevators_inst_mdp__9', rddlsim: { noop: 21_554, random: 21_169 } },
  { name: 'navigation_inst_mdp__10', rddlsim: { noop: 473 } },
  { name: 'crossing_traffic_inst_mdp__10', rddlsim: { noop: 2_715 } },
  { name: 'traffic_inst_mdp__10', rddlsim: { noop: 176 } },
];

function sources(instance: string): RddlSource[] {
  const domain = instance.replace(/_inst_(mdp|pomdp)__\d+$/, '_$1');
  return [domain, instance].map((name) => ({
    name: `${name}.rddl`,
    text: readFileSync(join(BENCHMARKS, `${name}.rddl`), 'utf8'),
  }));
}

/** No-op, or (with probability 1/2) one random grounding of a bool action, drawn from a fixed list. */
function cheapRandomPolicy(model: CompiledModel): () => GroundAction[] {
  const rng = new Rng(7);
  const choices: GroundAction[][] = [];
  for (const f of model.info.fluents) {
    if (f.kind !== 'action-fluent' || f.range !== 'bool') continue;
    let groundings: string[][] = [[]];
    for (const type of f.paramTypes) {
      groundings = groundings.flatMap((args) => model.typeValues(type)!.map((v) => [...args, v]));
    }
    for (const args of groundings) choices.push([{ name: f.name, args, value: true }]);
  }
  const noop: GroundAction[] = [];
  return () => (choices.length === 0 || rng.nextInt(2) === 0 ? noop : choices[rng.nextInt(choices.length)]!);
}

/** Something that plays rounds: the compiled simulator or the interpreter. */
interface Player {
  reset(): void;
  step(actions: GroundAction[]): unknown;
}

/**
 * Whole rounds per batch, so that a batch takes about `targetSeconds`, measured after `warmupSeconds` of
 * play so the engine has optimised the code first.
 */
function calibrate(
  player: Player,
  horizon: number,
  policy: () => GroundAction[],
  targetSeconds: number,
): number {
  const play = (seconds: number) => {
    const start = performance.now();
    let rounds = 0;
    while (performance.now() - start < seconds * 1000) {
      player.reset();
      for (let t = 0; t < horizon; t++) player.step(policy());
      rounds++;
    }
    return (performance.now() - start) / 1000 / rounds;
  };
  // Action paths get optimised later than no-op ones: a full second of play before measuring.
  play(Math.max(1, targetSeconds));
  return Math.max(1, Math.round(targetSeconds / play(targetSeconds / 2)));
}

async function rate(player: Player, horizon: number, policy: () => GroundAction[], targetSeconds: number) {
  const rounds = calibrate(player, horizon, policy, targetSeconds);
  let cpuMicros = 0;
  let steps = 0;
  const measured = await measureRate(`${rounds} rounds`, rounds * horizon, () => {
    const cpu = process.cpuUsage();
    for (let r = 0; r < rounds; r++) {
      player.reset();
      for (let t = 0; t < horizon; t++) player.step(policy());
    }
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    steps += rounds * horizon;
  });
  return { wall: measured.opsPerSecond, cpu: steps / (cpuMicros / 1e6) };
}

export default async function () {
  const rows: (string | number)[][] = [
    [
      'instance',
      'policy',
      'interpreter (CPU)',
      'compiled',
      'compiled (CPU)',
      'x interp. (CPU)',
      'rddlsim',
      'x rddlsim',
      'x rddlsim (CPU)',
    ],
  ];
  const loadRows: (string | number)[][] = [
    ['instance', 'grounded fluents', 'parse ms', 'check+ground ms', 'compile ms', 'loadRddl ms', 'code KB'],
  ];
  for (const { name, rddlsim } of INSTANCES) {
    const texts = sources(name);
    const model = loadRddl(texts);
    const horizon = model.info.horizon;
    for (const policyName of ['noop', 'random'] as const) {
      const policy = () => (policyName === 'noop' ? () => [] : cheapRandomPolicy(model));
      const interpreted = await rate(new AstInterpreter(model.grounded, 1), horizon, policy(), 0.3);
      const compiled = await rate(model.createSimulator({ seed: 1 }), horizon, policy(), 0.25);
      const reference = rddlsim[policyName];
      rows.push([
        name,
        policyName,
        interpreted.cpu,
        compiled.wall,
        compiled.cpu,
        `${formatNumber(compiled.cpu / interpreted.cpu)}x`,
        reference ?? '-',
        reference ? `${formatNumber(compiled.wall / reference)}x` : '-',
        reference ? `${formatNumber(compiled.cpu / reference)}x` : '-',
      ]);
    }

    const time = async (run: () => unknown) =>
      (await measureRate('', 1, run, { warmup: 2, repeats: 7 })).seconds * 1000;
    const parseMs = await time(() => texts.forEach((t) => parseRddlText(t)));
    const workspace = readWorkspace(texts);
    const instance = [...workspace.instances.values()][0]!;
    const groundMs = await time(() => {
      const domain = buildDomain(workspace.domains.get(instance.domain)!).domain;
      return groundInstance(domain, instance, workspace.nonFluents.get(instance.nonFluents ?? ''));
    });
    const compileMs = await time(() => compileProgram(model.grounded, { quirks: false }));
    const loadMs = await time(() => loadRddl(texts));
    const { sizes } = model.grounded;
    loadRows.push([
      name,
      sizes.state + sizes.action + sizes.interm + sizes.observ,
      parseMs,
      groundMs,
      compileMs,
      loadMs,
      model.program(false).sourceSize / 1024,
    ]);
  }
  printTable('RDDL simulator: steps/s over whole rounds (reset included), median batch', rows);
  printTable('RDDL loading: parse, check and ground, compile (median of 7)', loadRows);
}
