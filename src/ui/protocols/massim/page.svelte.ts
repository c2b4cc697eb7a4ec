/**
 * MASSim's page state: its own workspace (both teams' code and the match settings), kept in storage and in
 * the link as `m=...`, what the views show (a step, an agent, a message), and how a match is started.
 * The transcript stays in the session worker; the views read the reading it reports (`MassimReading`).
 */
import type { MassimSessionOptions } from '../../../core/protocols/massim/playground/options';
import { loadProtocolState, storeProtocolState } from '../../../storage/workspace-storage';
import { MassimReading } from './reading.svelte';
import {
  encodeMassimWorkspace,
  massimLinkParameter,
  sanitizeMassimWorkspace,
} from '../../../core/protocols/massim/playground/workspace-data';
import { MassimWorkspace } from './workspace.svelte';
import { massimWorkspaceFromLink } from './link';
import { storeActivity } from '../../../state/store-activity.svelte';
import type { PolicyLanguage } from '../../../core/policy/types';
import type { EvaluatedPolicySource } from '../../../core/protocols/evaluation-contract';
import type { MassimEvaluationSettings } from '../../../core/protocols/massim/evaluation';
import type { ProtocolPage, RoundResult, Shell } from '../adapter';
import type { Playback } from '../../../state/playback.svelte';
import { massimProtocol } from '../../../core/protocols/massim/protocol';

/** Nothing shown yet: an empty reading for the views. */
const EMPTY_READING = new MassimReading();

/** The MASSim page. */
export class MassimPage implements ProtocolPage {
  readonly workspace = new MassimWorkspace();
  readonly shareDescription = 'it opens both teams’ code and the match settings.';
  readonly #shell: Shell;

  constructor(shell: Shell) {
    this.#shell = shell;
  }

  /** Where the learner is looking (a step, an agent, a message): the shell's, as for every protocol. */
  get playback(): Playback {
    return this.#shell.playback;
  }

  /** The reading of the MASSim transcript on show (empty when another protocol's is). */
  get reading(): MassimReading {
    const views = this.#shell.session.views;
    return views instanceof MassimReading ? views : EMPTY_READING;
  }

  get lastNote(): string | undefined {
    return this.reading.notes.findLast((n) => n.kind === 'note' || n.kind === 'violation')?.text;
  }

  /**
   * Every simulation that has ended (a later one began, or the match is over), with team A's score at
   * its last step: a simulation is MASSim's round.
   */
  get roundResults(): RoundResult[] {
    const { frames, teams } = this.reading;
    const team = teams[0];
    if (team === undefined) return [];
    const over = !this.#shell.session.active;
    const results: RoundResult[] = [];
    frames.forEach((frame, i) => {
      const next = frames[i + 1];
      const last = next ? next.simulation !== frame.simulation : over;
      if (last) results.push({ round: frame.simulation + 1, reward: frame.scores[team] ?? 0 });
    });
    return results;
  }

  get policyCode(): string {
    return this.workspace.teamA.code;
  }

  /** Replaces team A's code (the learner's team). */
  setPolicyCode(code: string, language?: PolicyLanguage): void {
    this.workspace.teamA = { ...this.workspace.teamA, code, ...(language ? { language } : {}) };
    this.workspace.replaced++;
  }

  /** Selects a message and shows the step it belongs to (the world, the timeline, the agent's view). */
  seek(index: number): void {
    this.playback.select(index);
    const frame = this.reading.rows.frame[index];
    if (frame !== undefined && frame >= 0) this.playback.frame = frame;
  }

  /** Stored workspace, then a link's on top (a configuration file picked here is kept). */
  async restore(fragment: string): Promise<void> {
    const stored = await loadProtocolState(massimProtocol.id, 'workspace');
    if (stored) this.workspace.apply(sanitizeMassimWorkspace(stored));
    const shared = massimWorkspaceFromLink(fragment);
    const configFile = this.workspace.configFile;
    if (shared) this.workspace.apply({ ...shared, ...(configFile ? { configFile } : {}) });
  }

  keep(): () => void {
    const data = $state.snapshot(this.workspace.toData());
    const protocol = massimProtocol.id;
    return storeActivity.later(() => storeProtocolState(protocol, 'workspace', data), 400);
  }

  async run(startPaused: boolean): Promise<void> {
    this.playback.reset();
    const { settings, teamA, teamB } = this.workspace;
    const options: MassimSessionOptions = {
      match: this.workspace.matchSetup(),
      otherTeams: this.workspace.policySource(teamB, 'team-b'),
      faithfulRaces: settings.faithfulRaces,
      semantics: settings.semantics,
    };
    await this.#shell.run(
      $state.snapshot({
        startPaused,
        rounds: 1,
        seed: settings.seed,
        delayMs: this.workspace.effectiveDelayMs,
        budgetMs: settings.budgetMs,
        policy: this.workspace.policySource(teamA, 'team-a'),
        options,
      }),
    );
  }

  /**
   * What Evaluate plays: the match as set (its configuration must have two teams), team B's code as the
   * opponent; team A's code is the policy evaluated (`evaluatedPolicy`).
   */
  evaluationSettings(): Promise<MassimEvaluationSettings> {
    const match = this.workspace.matchSetup();
    if (match.kind === 'quick' && match.setup.teams?.length !== 2)
      return Promise.reject(new Error('Evaluate plays team A against team B: set the match to 2 teams.'));
    const { seed: _seed, ...opponent } = this.workspace.policySource(this.workspace.teamB, 'team-b');
    return Promise.resolve($state.snapshot({ match, opponent }) as MassimEvaluationSettings);
  }

  /** The policy Evaluate plays: team A's code. */
  evaluatedPolicy(): EvaluatedPolicySource {
    const { seed: _seed, ...source } = this.workspace.policySource(this.workspace.teamA, 'team-a');
    return $state.snapshot(source);
  }

  shareFragment(): string {
    return `${massimLinkParameter}=${encodeMassimWorkspace(this.workspace.toData())}`;
  }
}
