/**
 * Loading a user's policy for any protocol: read the file, pick the language from its extension, check its
 * syntax here, start a supervised policy thread running the protocol's policy runtime and load the module
 * there, so a syntax error or a top-level loop is reported (located in the user's file) before any session
 * starts. Every protocol's commands load their policies (files and samples alike) through `loadPolicy`.
 */
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { formatLocated } from '../../src/core/errors';
import { PolicySupervisor, type PolicyEndpoint } from '../../src/core/policy/supervisor';
import { findSyntaxError } from '../../src/core/policy/syntax-check';
import type {
  PolicyFault,
  PolicyLanguage,
  PolicyLevel,
  PolicyLogLine,
  PolicySource,
} from '../../src/core/policy/types';
import type { Protocol } from '../../src/core/protocols/contract';
import { displayPath } from '../command-line/display-path';
import { CliError, ExitCode, usageError } from '../command-line/exit-codes';
import { spawnPolicyThread } from './thread-endpoint';

/** Options of `readPolicySource`. */
export interface PolicyReadOptions {
  /** Directory the path is relative to. */
  cwd: string;
  /** Seed of the policy's `context.random()`. */
  seed: number;
  /** Policy level (default `policy`: the module exports `act`). */
  level?: PolicyLevel;
}

/** Options of `loadPolicy`. */
export interface PolicyLoadOptions {
  /** The protocol played: its policy runtime runs the policy. */
  protocol: Protocol;
  /** Time allowed per call, in ms. */
  budgetMs: number;
  /** Starts a policy runtime (default: a policy thread running the protocol's runtime). */
  spawn?: () => PolicyEndpoint;
}

/** Options of `loadPolicyFile`. */
export interface PolicyFileOptions extends PolicyReadOptions, PolicyLoadOptions {}

/** A policy module loaded in its supervised runtime. */
export interface LoadedPolicy {
  supervisor: PolicySupervisor;
  source: PolicySource;
  /** What the module's top-level code printed. */
  logs: PolicyLogLine[];
}

/** The languages of policy files, by extension. */
const LANGUAGES: Readonly<Record<string, PolicyLanguage>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
};

/** Whether the path names a policy file by its extension (a language `readPolicySource` reads). */
export function isPolicyFileName(path: string): boolean {
  return Object.hasOwn(LANGUAGES, extname(path).toLowerCase());
}

/** Reads a policy file into a policy source; its name in error locations is the path as the user wrote it. */
export async function readPolicySource(path: string, options: PolicyReadOptions): Promise<PolicySource> {
  const language = LANGUAGES[extname(path).toLowerCase()];
  if (!language) {
    throw usageError(`policy '${path}' must be a .ts or .js file (or a built-in policy name)`);
  }
  const absolute = resolve(options.cwd, path);
  let code: string;
  try {
    code = await readFile(absolute, 'utf8');
  } catch (error) {
    throw usageError(
      `cannot read policy '${path}': ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  return {
    code,
    language,
    fileName: displayPath(path, options.cwd),
    level: options.level ?? 'policy',
    seed: options.seed,
  };
}

/**
 * Loads a policy file into a fresh supervised runtime. A compile or load failure is a CliError with exit
 * code 3 and the located message; the runtime is stopped then.
 */
export async function loadPolicyFile(path: string, options: PolicyFileOptions): Promise<LoadedPolicy> {
  return loadPolicy(await readPolicySource(path, options), options);
}

/**
 * Loads a policy source (a file's or a sample's) into a fresh supervised runtime of its protocol, within
 * the load limit every protocol has (`POLICY_LOAD_LIMIT_MS`). A syntax error is reported before any
 * runtime starts; a compile or load failure is a CliError with exit code 3 and the located message, and
 * the runtime is stopped then.
 */
export async function loadPolicy(source: PolicySource, options: PolicyLoadOptions): Promise<LoadedPolicy> {
  checkPolicySyntax(source);
  const { protocol } = options;
  const supervisor = new PolicySupervisor({
    spawn: options.spawn ?? (() => spawnPolicyThread(protocol)),
    budgetMs: options.budgetMs,
  });
  const loaded = await supervisor.load(source);
  if (!loaded.ok) {
    supervisor.dispose();
    throw new CliError(ExitCode.policy, describePolicyFault(loaded.fault, source.fileName), {
      located: true,
    });
  }
  return { supervisor, source, logs: loaded.logs };
}

/**
 * Reports a syntax error in the source (a CliError with exit code 3 and the located message) before any
 * runtime starts, so it is never mistaken for a runtime too slow to load it.
 */
export function checkPolicySyntax(source: PolicySource): void {
  const fault = findSyntaxError(source);
  if (fault)
    throw new CliError(ExitCode.policy, describePolicyFault(fault, source.fileName), { located: true });
}

/** A policy fault as one line: `file:line:column: message` when located, else `file: message`. */
export function describePolicyFault(fault: PolicyFault, fileName: string): string {
  if (fault.location) return formatLocated(fault.message, { source: fileName, ...fault.location });
  return `${fileName}: ${fault.message}`;
}
