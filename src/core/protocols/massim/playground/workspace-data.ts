/**
 * The MASSim workspace as plain data: both teams' policies and the match settings, as stored and as shared
 * in links. Anything read back (storage written by an older version, a hand-edited link) goes through
 * `sanitizeMassimWorkspace`, which keeps what is valid and fills the rest with defaults.
 */
import { compressToBase64Url, decompressFromBase64Url } from '../../../url-text';
import type { PolicyLanguage, PolicyLevel } from '../../../policy/types';
import { DEFAULT_MASSIM_SAMPLE, MASSIM_SAMPLES } from '../samples';
import type { MassimSemantics } from '../../../envs/massim/api';

/** A team policy written in the editor. */
export interface MassimTeamCode {
  code: string;
  language: PolicyLanguage;
  level: PolicyLevel;
}

/** What team B plays: a sample, or its own code in the second editor tab. */
export interface MassimOpponent extends MassimTeamCode {
  kind: 'sample' | 'own';
  sample: string;
}

/** How fast a match plays: a pause between steps to watch it, or as fast as possible. */
export type MassimSpeed = 'animated' | 'fast';

/** The match settings. */
export interface MassimSettingsData {
  /** The playground's match in the shape below, or the contest's sample match. */
  match: 'quick' | 'contest';
  /** Teams in the match (A, B, C...): the first plays team A's code, the others team B's. */
  teams: number;
  agentsPerTeam: number;
  steps: number;
  width: number;
  height: number;
  seed: number;
  /** Time each team's policy may take per step, in ms. */
  budgetMs: number;
  speed: MassimSpeed;
  /** Pause between steps when animated, in ms. */
  delayMs: number;
  /** Reproduce the real server's lossy races. */
  faithfulRaces: boolean;
  /** Whose random numbers: Protoplay's, or the real server's (its world for a configuration and seed). */
  semantics: MassimSemantics;
}

/** A real server configuration file loaded from disk, with the files it includes (by name). */
export interface MassimConfigFile {
  name: string;
  text: string;
  includes: Record<string, string>;
}

/** The whole MASSim workspace. */
export interface MassimWorkspaceData {
  teamA: MassimTeamCode;
  teamB: MassimOpponent;
  settings: MassimSettingsData;
  /** When set, matches use this configuration instead of the settings' shape. */
  configFile?: MassimConfigFile;
}

/** The playground's default match: 2 teams x 5 agents on 40 x 40, 200 steps. */
export const DEFAULT_MASSIM_SETTINGS: Readonly<MassimSettingsData> = {
  match: 'quick',
  teams: 2,
  agentsPerTeam: 5,
  steps: 200,
  width: 40,
  height: 40,
  seed: 1,
  budgetMs: 1000,
  speed: 'animated',
  delayMs: 60,
  faithfulRaces: false,
  semantics: 'protoplay',
};

/** Limits of each setting: [min, max]. */
export const MASSIM_SETTING_LIMITS = {
  teams: [2, 6],
  agentsPerTeam: [1, 50],
  steps: [1, 2000],
  width: [5, 200],
  height: [5, 200],
  seed: [0, 2 ** 31 - 1],
  budgetMs: [10, 60_000],
  delayMs: [0, 5000],
} as const satisfies Record<string, readonly [number, number]>;

function sampleCode(id: string): MassimTeamCode {
  const sample = MASSIM_SAMPLES.find((s) => s.id === id) ?? MASSIM_SAMPLES[0]!;
  return { code: sample.code, language: sample.language, level: sample.level };
}

/** A fresh workspace: the block fetcher against the random mover. */
export function defaultMassimWorkspace(): MassimWorkspaceData {
  const opponent = 'random-mover';
  return {
    teamA: sampleCode(DEFAULT_MASSIM_SAMPLE),
    teamB: { kind: 'sample', sample: opponent, ...sampleCode(opponent) },
    settings: { ...DEFAULT_MASSIM_SETTINGS },
  };
}

function integer(value: unknown, [min, max]: readonly [number, number], fallback: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
}

function teamCode(value: unknown, fallback: MassimTeamCode): MassimTeamCode {
  const data = (value ?? {}) as Partial<Record<keyof MassimTeamCode, unknown>>;
  if (typeof data.code !== 'string') return fallback;
  return {
    code: data.code,
    language: data.language === 'js' ? 'js' : 'ts',
    level: data.level === 'wire' ? 'wire' : 'policy',
  };
}

/** A workspace from untrusted data, every missing or invalid part replaced by its default. */
export function sanitizeMassimWorkspace(value: unknown): MassimWorkspaceData {
  const defaults = defaultMassimWorkspace();
  const data = (value && typeof value === 'object' ? value : {}) as Partial<Record<string, unknown>>;
  const b = (data.teamB ?? {}) as Partial<Record<keyof MassimOpponent, unknown>>;
  const sample = MASSIM_SAMPLES.some((s) => s.id === b.sample) ? String(b.sample) : defaults.teamB.sample;
  const teamB: MassimOpponent =
    b.kind === 'own'
      ? { kind: 'own', sample, ...teamCode(b, sampleCode(sample)) }
      : { kind: 'sample', sample, ...sampleCode(sample) };
  const s = (data.settings ?? {}) as Partial<Record<keyof MassimSettingsData, unknown>>;
  const d = DEFAULT_MASSIM_SETTINGS;
  const limits = MASSIM_SETTING_LIMITS;
  const settings: MassimSettingsData = {
    match: s.match === 'contest' ? 'contest' : 'quick',
    teams: integer(s.teams, limits.teams, d.teams),
    agentsPerTeam: integer(s.agentsPerTeam, limits.agentsPerTeam, d.agentsPerTeam),
    steps: integer(s.steps, limits.steps, d.steps),
    width: integer(s.width, limits.width, d.width),
    height: integer(s.height, limits.height, d.height),
    seed: integer(s.seed, limits.seed, d.seed),
    budgetMs: integer(s.budgetMs, limits.budgetMs, d.budgetMs),
    speed: s.speed === 'fast' ? 'fast' : 'animated',
    delayMs: integer(s.delayMs, limits.delayMs, d.delayMs),
    faithfulRaces: s.faithfulRaces === true,
    semantics: s.semantics === 'massim' ? 'massim' : 'protoplay',
  };
  const file = data.configFile as Partial<MassimConfigFile> | undefined;
  const configFile =
    file && typeof file.name === 'string' && typeof file.text === 'string'
      ? {
          name: file.name,
          text: file.text,
          includes: Object.fromEntries(
            Object.entries(file.includes ?? {}).filter(([, text]) => typeof text === 'string'),
          ),
        }
      : undefined;
  return {
    teamA: teamCode(data.teamA, defaults.teamA),
    teamB,
    settings,
    ...(configFile ? { configFile } : {}),
  };
}

/**
 * The value of the link fragment parameter carrying a MASSim workspace (`#m=...`): both teams' code and the
 * settings, as deflated base64url JSON. A loaded configuration file is not shared (it can be large).
 */
export function encodeMassimWorkspace(data: MassimWorkspaceData): string {
  const { configFile: _file, ...shared } = data;
  // A sample opponent is shared by its name only.
  const teamB =
    shared.teamB.kind === 'sample' ? { kind: 'sample', sample: shared.teamB.sample } : shared.teamB;
  return compressToBase64Url(JSON.stringify({ ...shared, teamB }));
}

/** Reads what `encodeMassimWorkspace` wrote; undefined when it is damaged. */
export function decodeMassimWorkspace(encoded: string): MassimWorkspaceData | undefined {
  try {
    return sanitizeMassimWorkspace(JSON.parse(decompressFromBase64Url(encoded)));
  } catch {
    return undefined;
  }
}

/** The link fragment parameter of a MASSim workspace: `#m=...`. */
export const massimLinkParameter = 'm';
