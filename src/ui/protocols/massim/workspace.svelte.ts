/** The MASSim workspace, reactive: both teams' policies and the match settings. Persisted and shareable. */
import { codeForLanguage } from '../../../state/policy-language';
import type { MassimQuickSetup } from '../../../core/envs/massim/api';
import type { PolicySource } from '../../../core/policy/types';
import type { MassimMatchSetup } from '../../../core/protocols/massim/playground/options';
import { MASSIM_SAMPLES } from '../../../core/protocols/massim/samples';
import {
  defaultMassimWorkspace,
  type MassimConfigFile,
  type MassimOpponent,
  type MassimSettingsData,
  type MassimTeamCode,
  type MassimWorkspaceData,
} from '../../../core/protocols/massim/playground/workspace-data';

/** Which team's code the editor shows. */
export type MassimEditorTab = 'A' | 'B';

export class MassimWorkspace {
  teamA = $state<MassimTeamCode>(defaultMassimWorkspace().teamA);
  teamB = $state<MassimOpponent>(defaultMassimWorkspace().teamB);
  settings = $state<MassimSettingsData>(defaultMassimWorkspace().settings);
  configFile = $state.raw<MassimConfigFile | undefined>();
  tab = $state<MassimEditorTab>('A');
  /** Bumped when a team's code is replaced from outside the editor (a sample, storage, a link). */
  replaced = $state(0);

  /** The code the editor shows (team A's, or team B's own). */
  get editing(): MassimTeamCode {
    return this.tab === 'B' && this.teamB.kind === 'own' ? this.teamB : this.teamA;
  }

  /** The pause between steps the session should use now. */
  get effectiveDelayMs(): number {
    return this.settings.speed === 'fast' ? 0 : this.settings.delayMs;
  }

  /** Replaces the edited team's code (from the editor). */
  setCode(code: string): void {
    if (this.tab === 'B' && this.teamB.kind === 'own') this.teamB = { ...this.teamB, code };
    else this.teamA = { ...this.teamA, code };
  }

  /** Switches the edited team's language, converting its code (see `codeForLanguage`). */
  async setLanguage(language: MassimTeamCode['language']): Promise<void> {
    const editingB = this.tab === 'B' && this.teamB.kind === 'own';
    const before = this.editing;
    if (before.language === language) return;
    const converted = await codeForLanguage(before.code, before.language, language);
    // The learner may have typed or switched tabs while the converter loaded: convert only what was asked.
    const now = editingB && this.teamB.kind === 'own' ? this.teamB : this.teamA;
    const code = now.code === before.code ? converted : now.code;
    if (editingB && this.teamB.kind === 'own') this.teamB = { ...this.teamB, code, language };
    else this.teamA = { ...this.teamA, code, language };
    this.replaced++;
  }

  setLevel(level: MassimTeamCode['level']): void {
    if (this.tab === 'B' && this.teamB.kind === 'own') this.teamB = { ...this.teamB, level };
    else this.teamA = { ...this.teamA, level };
  }

  /** Puts a sample into the edited team's code. */
  useSample(id: string): void {
    const sample = MASSIM_SAMPLES.find((s) => s.id === id);
    if (!sample) return;
    const code = { code: sample.code, language: sample.language, level: sample.level };
    if (this.tab === 'B' && this.teamB.kind === 'own') this.teamB = { ...this.teamB, ...code };
    else this.teamA = code;
    this.replaced++;
  }

  /** Team B plays a sample as it is. */
  opponentSample(id: string): void {
    const sample = MASSIM_SAMPLES.find((s) => s.id === id);
    if (!sample) return;
    this.teamB = {
      kind: 'sample',
      sample: id,
      code: sample.code,
      language: sample.language,
      level: sample.level,
    };
    if (this.tab === 'B') this.tab = 'A';
  }

  /** Team B gets its own code, starting from the sample it played, in the second editor tab. */
  opponentOwnCode(): void {
    if (this.teamB.kind !== 'own') this.teamB = { ...this.teamB, kind: 'own' };
    this.tab = 'B';
    this.replaced++;
  }

  toData(): MassimWorkspaceData {
    return {
      teamA: { ...this.teamA },
      teamB: { ...this.teamB },
      settings: { ...this.settings },
      ...(this.configFile ? { configFile: this.configFile } : {}),
    };
  }

  /** Replaces everything (from storage or a link; sanitised by the caller). */
  apply(data: MassimWorkspaceData): void {
    this.teamA = data.teamA;
    this.teamB = data.teamB;
    this.settings = data.settings;
    this.configFile = data.configFile;
    if (this.tab === 'B' && this.teamB.kind !== 'own') this.tab = 'A';
    this.replaced++;
  }

  /** The match a run plays: the loaded configuration file, or the settings' shape. */
  matchSetup(): MassimMatchSetup {
    if (this.configFile) return { kind: 'file', ...this.configFile };
    if (this.settings.match === 'contest') return { kind: 'contest' };
    const { teams, agentsPerTeam, steps, width, height } = this.settings;
    const names = [...'ABCDEF'].slice(0, teams);
    const setup: MassimQuickSetup = { teams: names, agentsPerTeam, steps, width, height };
    return { kind: 'quick', setup };
  }

  /** A team's policy as the session loads it. */
  policySource(team: MassimTeamCode, name: string): PolicySource {
    return {
      code: team.code,
      language: team.language,
      level: team.level,
      fileName: `${name}.${team.language}`,
      seed: this.settings.seed,
    };
  }
}
