/**
 * The options shared by `run gama` and `connect gama`, which both play the GAMA side: the scenario, the
 * episode's length, the observation, the seed and the original's behaviours.
 */
// The scavenger world's own modules, not its index: help lists the scenarios without loading the world.
import { observationWindow } from '../../../src/core/envs/scavenger/observation';
import { SCAVENGER_SCENARIOS, findScavengerScenario } from '../../../src/core/envs/scavenger/scenarios';
import type { GamaSimulationOptions } from '../../../src/core/protocols/gama';
import type { OptionSpec } from '../../command-line/command-spec';
import { usageError } from '../../command-line/exit-codes';
import type { OptionReader } from '../../command-line/option-values';

/** The options' specs, for help. */
export const SIMULATION_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'scenario',
    type: 'string',
    valueName: 'A-F|NAME',
    description: `scenario by letter or name (${SCAVENGER_SCENARIOS.map((s) => s.letter).join(', ')}; default C)`,
  },
  { name: 'cycles', type: 'string', valueName: 'N', description: 'cycles per episode (default 1000)' },
  {
    name: 'observation',
    type: 'string',
    valueName: 'legend|rgb',
    description: "integer legend 21 x 11 (default, the written protocol) or the original's RGB 3 x 21 x 21",
  },
  {
    name: 'view',
    type: 'string',
    valueName: 'AHEAD,SIDES[,BEHIND]',
    description:
      'observation window: rows ahead, columns to each side, rows behind (default 20,5,0; rgb 20,10,0)',
  },
  {
    name: 'seed',
    type: 'string',
    valueName: 'N',
    description: 'seed of the world, episode k playing seed + k - 1, and of the policy (default 0)',
  },
  {
    name: 'no-terminal',
    type: 'boolean',
    description: 'do not send the last requests with "terminal": true (the original never sent them)',
  },
  {
    name: 'faithful-quirks',
    type: 'boolean',
    description: "reproduce the original's quirks: ghost cells after tagging, displaced east/south beams",
  },
];

/** The simulation's options from the command line. */
export function readSimulationOptions(
  options: OptionReader,
): Omit<GamaSimulationOptions, 'onNote' | 'onEpisodeEnd'> {
  const scenarioArgument = options.string('scenario', 'C');
  const scenario = findScavengerScenario(scenarioArgument);
  if (!scenario) {
    const known = SCAVENGER_SCENARIOS.map((s) => `${s.letter} (${s.name})`).join(', ');
    throw usageError(`--scenario: no scenario '${scenarioArgument}'; choose one of ${known}`);
  }
  const kind = options.choice('observation', ['legend', 'rgb'] as const, 'legend');
  const view = options.string('view');
  let window: { ahead?: number; sides?: number; behind?: number } = {};
  if (view !== undefined) {
    const parts = view.split(',').map((part) => part.trim());
    if (parts.length < 2 || parts.length > 3 || parts.some((part) => !/^\d+$/.test(part)))
      throw usageError(`--view must be AHEAD,SIDES or AHEAD,SIDES,BEHIND (whole numbers), got '${view}'`);
    const [ahead, sides, behind = 0] = parts.map(Number) as [number, number, number?];
    window = { ahead, sides, behind };
  }
  try {
    observationWindow({ kind, ...window });
  } catch (error) {
    throw usageError(`--view: ${(error as Error).message}`);
  }
  return {
    scenario,
    seed: options.integer('seed', 0),
    maxCycles: options.integer('cycles', 1000, { min: 1 }),
    observation: { kind, ...window },
    sendTerminal: !options.flag('no-terminal'),
    faithfulQuirks: options.flag('faithful-quirks'),
  };
}
