/**
 * The configuration a MASSim command plays: a real server configuration file (`--config`, with its
 * `"$(file.json)"` includes read relative to the including file), or a quick one built from `--teams`,
 * `--agents`, `--steps` and `--grid`; then the few server settings the command line may override.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseMassimConfig, quickMassimConfig } from '../../../src/core/envs/massim/index';
import type { MassimServerConfig } from '../../../src/core/envs/massim/api';
import { usageError } from '../../command-line/exit-codes';
import type { OptionReader } from '../../command-line/option-values';
import { displayPath } from '../../command-line/display-path';

/** A resolved configuration and how to describe it. */
export interface ResolvedMatchConfig {
  config: MassimServerConfig;
  /** `SampleConfig.json`, or `2 x 5 agents, 40 x 40, 200 steps`. */
  description: string;
  /** True when it came from a file (its `launch` and `port` then count). */
  fromFile: boolean;
}

const QUICK_OPTIONS = ['teams', 'agents', 'steps', 'grid'] as const;
const TEAM_NAMES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Reads the configuration options. A configuration file with an error is reported as
 * `file:line:column: message` (a ProtoplayError from the parser).
 */
export function resolveMatchConfig(options: OptionReader, cwd: string): ResolvedMatchConfig {
  const file = options.string('config');
  let resolved: ResolvedMatchConfig;
  if (file !== undefined) {
    const mixed = QUICK_OPTIONS.filter((name) => options.string(name) !== undefined);
    if (mixed.length > 0)
      throw usageError(
        `--config and --${mixed[0]} do not go together: the file says how many teams, agents and steps`,
      );
    resolved = { config: readConfigFile(file, cwd), description: displayPath(file, cwd), fromFile: true };
  } else {
    const teams = options.integer('teams', 2, { min: 1, max: TEAM_NAMES.length });
    const agentsPerTeam = options.integer('agents', 5, { min: 1, max: 1000 });
    const steps = options.integer('steps', 200, { min: 1 });
    const [width, height] = readGrid(options.string('grid', '40x40'));
    const config = quickMassimConfig({
      teams: [...TEAM_NAMES.slice(0, teams)],
      agentsPerTeam,
      steps,
      width,
      height,
    });
    resolved = {
      config,
      description: `${teams} x ${agentsPerTeam} agents, ${width} x ${height}, ${steps} steps`,
      fromFile: false,
    };
  }
  return { ...resolved, config: withServerOverrides(resolved.config, options) };
}

/** Parses a configuration file, reading includes from the file system. */
export function readConfigFile(file: string, cwd: string): MassimServerConfig {
  const source = displayPath(file, cwd);
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw usageError(`cannot read the configuration '${file}': ${(error as NodeJS.ErrnoException).code}`);
  }
  return parseMassimConfig(text, {
    source,
    readInclude: (path) => {
      try {
        return readFileSync(resolve(cwd, path), 'utf8');
      } catch {
        return undefined;
      }
    },
  });
}

function readGrid(text: string): [number, number] {
  const match = /^(\d+)x(\d+)$/i.exec(text.trim());
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 5 || height < 5 || width > 1000 || height > 1000)
    throw usageError(`--grid must be WIDTHxHEIGHT between 5x5 and 1000x1000, got '${text}'`);
  return [width, height];
}

function withServerOverrides(config: MassimServerConfig, options: OptionReader): MassimServerConfig {
  const server = { ...config.server };
  server.agentTimeout = options.integer('agent-timeout', server.agentTimeout, { min: 1 });
  server.waitBetweenSimulations = options.integer('wait-between-simulations', server.waitBetweenSimulations, {
    min: 0,
  });
  return { ...config, server };
}

/** Team names in configuration order. */
export function teamNames(config: MassimServerConfig): string[] {
  return config.teams.map((team) => team.name);
}
