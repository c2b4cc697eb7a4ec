/**
 * When `serve massim` starts the tournament: as soon as every agent of the first match is logged in
 * (`connected`, the default without a configuration file), or as the real server's `launch` setting says
 * (`key`: on ENTER; `5s`: after a delay; `14:30`: at a time of day). The console also takes the real
 * server's `pause` and `continue` between steps.
 */
import { createInterface } from 'node:readline';
import type { MassimServerConfig } from '../../../src/core/envs/massim/api';
import { massimAccountNames } from '../../../src/core/envs/massim/index';
import { ProtoplayError } from '../../../src/core/errors';
import {
  msUntilLaunch,
  parseMassimLaunch,
  type MassimLaunch,
} from '../../../src/core/protocols/massim/launch';
import { usageError } from '../../command-line/exit-codes';

/** A launch setting: the real server's, or `connected`. */
export type LaunchSetting = MassimLaunch | { kind: 'connected' };

/** Reads `--launch` or the configuration's `launch` value. */
export function readLaunchSetting(text: string): LaunchSetting {
  if (text === 'connected') return { kind: 'connected' };
  try {
    return parseMassimLaunch(text);
  } catch (error) {
    if (error instanceof ProtoplayError)
      throw usageError(`launch must be connected, key, a delay like 5s or a time like 14:30, got '${text}'`);
    throw error;
  }
}

/** The agents the first simulation needs: the first `agentsPerTeam` accounts of every team. */
export function agentsOfFirstSimulation(config: MassimServerConfig): string[] {
  const size = config.match[0]!.agentsPerTeam;
  return config.teams.flatMap((team) => massimAccountNames(config, team).slice(0, size));
}

/** Options of a launch control. */
export interface LaunchControlOptions {
  setting: LaunchSetting;
  /** Agents that must be logged in for `connected`. */
  expected: readonly string[];
  /** Lines typed by the operator (ENTER, pause, continue); absent: no console. */
  console?: NodeJS.ReadableStream;
  start(): void;
  pause(): void;
  resume(): void;
  log(line: string): void;
  now(): number;
}

/** Starts the tournament once, at the moment the setting says. */
export class LaunchControl {
  readonly #options: LaunchControlOptions;
  #started = false;
  #disposed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #console: ReturnType<typeof createInterface> | undefined;

  constructor(options: LaunchControlOptions) {
    this.#options = options;
    const { setting, log } = options;
    if (options.console) {
      this.#console = createInterface({ input: options.console });
      this.#console.on('line', (line) => this.#command(line.trim()));
      this.#console.on('close', () => {
        if (setting.kind === 'key' && !this.#started && !this.#disposed) {
          log('launch is "key" but the console is closed: starting now');
          this.#start();
        }
      });
    }
    switch (setting.kind) {
      case 'key':
        log('press ENTER to start the tournament');
        return;
      case 'connected':
        log(`waiting for ${options.expected.length} agents to log in`);
        return;
      default: {
        const ms = msUntilLaunch(setting, new Date(options.now()));
        log(`the tournament starts in ${Math.round(ms / 1000)} s`);
        this.#timer = setTimeout(() => this.#start(), ms);
      }
    }
  }

  /** Whether the tournament was started. */
  get started(): boolean {
    return this.#started;
  }

  /** The logged-in agents changed; with `connected`, starts once every expected agent is in. */
  agentsChanged(loggedIn: ReadonlySet<string>): void {
    if (this.#options.setting.kind !== 'connected' || this.#started) return;
    if (this.#options.expected.every((agent) => loggedIn.has(agent))) {
      this.#options.log(`all ${this.#options.expected.length} agents are logged in: starting`);
      this.#start();
    }
  }

  /** Stops listening to the console and cancels a pending start. */
  dispose(): void {
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#console?.close();
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#options.start();
  }

  #command(line: string): void {
    const { log } = this.#options;
    if (line === '' && this.#options.setting.kind === 'key' && !this.#started) this.#start();
    else if (line === 'pause') {
      log('pausing before the next step (type continue)');
      this.#options.pause();
    } else if (line === 'continue') {
      log('continuing');
      this.#options.resume();
    } else if (line !== '')
      log(`unknown command '${line}' (pause, continue${this.#started ? '' : ', ENTER to start'})`);
  }
}
