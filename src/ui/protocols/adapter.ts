/**
 * The contract between the playground shell and a protocol's page side, like a game's adapter in a web
 * player: the shell owns the header (protocol picker, import, export, share), the notices, the decision
 * bar, the status line, storage of the common workspace and the keyboard; a protocol contributes its
 * state (made once), its header controls and its workbench (settings, editors, world and log views),
 * its share-link state and its shortcuts. Adding a protocol's page is one folder (`src/ui/protocols/<id>/`)
 * and one line in `registry.ts`; the shell names no protocol.
 */
import type { Component } from 'svelte';
import type { PolicyLanguage } from '../../core/policy/types';
import type { Protocol } from '../../core/protocols/contract';
import type { SessionConfig } from '../../core/protocols/session-contract';
import type { Evaluator } from '../../state/evaluation.svelte';
import type { Playback } from '../../state/playback.svelte';
import type { ProtocolViewState, Session } from '../../state/session.svelte';
import type { Settings } from '../../state/settings.svelte';
import type { Workspace } from '../../state/workspace.svelte';

/** What the shell gives a protocol's page. */
export interface Shell {
  /** The protocol picked. */
  readonly protocol: Protocol;
  readonly session: Session;
  /** The common workspace: protocol, environment and one policy (used by protocols with one agent). */
  readonly workspace: Workspace;
  /** Rounds, seed, speed and budget. */
  readonly settings: Settings;
  readonly playback: Playback;
  /** Evaluate and Compare (many seeds in workers), shared by every protocol's page. */
  readonly evaluator: Evaluator;
  /** Says something in the notice line (`undefined` clears it). */
  notify(message: string | undefined): void;
  /** What the notice line says now; the workbench shows it in its toolbar. */
  readonly notice: string | undefined;
  /**
   * Starts a session with what the shell knows (protocol, environment, rounds, seed, delay, budget, the
   * workspace's policy), completed by `config`.
   */
  run(config: Partial<SessionConfig> & { startPaused?: boolean }): Promise<void>;
  /** True once the stored state and the link have been restored. */
  readonly restored: boolean;
}

/** What the shell asks of a protocol's page state. */
export interface ProtocolPage {
  /** Restores the protocol's own stored state, then a shared link's (the URL fragment) on top. */
  restore(fragment: string): Promise<void>;
  /**
   * Stores the protocol's own state shortly after it changes. Called inside an effect: it reads what it
   * stores, and the returned cleanup cancels the pending write.
   */
  keep?(): (() => void) | void;
  /** Starts a session as the Run button (or Ctrl+Enter) does; `startPaused` for the Step button. */
  run(startPaused: boolean): Promise<void>;
  /** The protocol's part of the shareable link (`a=1&b=2`), or an empty string. */
  shareFragment(): string;
  /** What the link copied by Share opens, for the notice. */
  readonly shareDescription: string;
  /** A problem of the protocol's own settings for the status line (a broken RDDL file), if any. */
  readonly problem?: string | undefined;
  /** The latest note worth a glance (what a real server would do), for the status line. */
  readonly lastNote?: string | undefined;
  /** A key the protocol handles itself (returns true when it did). */
  onkeydown?(event: KeyboardEvent): boolean;
  /**
   * The rounds of the session on show that have ended, with the learner's reward, for the embedding API
   * (`roundEnd`, `sessionEnd`). Absent: the shell reads the rounds of the transcript on the page.
   */
  readonly roundResults?: readonly RoundResult[];
  /** Replaces the learner's policy code (the embedding API's `setCode`). Absent: the shell's workspace's. */
  setPolicyCode?(code: string, language?: PolicyLanguage): void;
  /** The learner's policy code now (the embedding API's `codeChanged`). Absent: the shell's workspace's. */
  readonly policyCode?: string;
  /**
   * What an evaluation plays (the protocol's `evaluation` settings: the environment as the learner set
   * it); rejects with a sentence when it cannot be played now (broken files...). Absent: no Evaluate.
   */
  evaluationSettings?(): Promise<unknown>;
  /**
   * Shows the message at a transcript index in the protocol's own views (the embedding API's `seek`):
   * selects it, and moves views that show one moment (a world, a step) to it. Absent: the shell's
   * playback selects it.
   */
  seek?(index: number): void;
  /** Opens text files the protocol reads (RDDL domains and instances), from the embedding API's `load`. */
  openTexts?(files: { name: string; text: string }[]): void;
}

/** A round that has ended, as the embedding API reports it. */
export interface RoundResult {
  /** The round's number, from 1. */
  round: number;
  /** What the learner's policy earned in it (a team's score at the end of a simulation for MASSim). */
  reward: number;
}

/** The props of a protocol's components. */
export interface ProtocolPageProps<P extends ProtocolPage = ProtocolPage> {
  shell: Shell;
  page: P;
}

/** A protocol's page side. */
export interface PageAdapter<P extends ProtocolPage = ProtocolPage> {
  /** The protocol it shows (its `Protocol.id`). */
  protocol: Protocol;
  /**
   * True when the protocol plays the shell's workspace (one policy, the environment, rounds and seed) and
   * its link carries them; false when it keeps a workspace of its own (MASSim's teams and match).
   */
  usesShellWorkspace: boolean;
  /** True when a link without a protocol (`#m=...`, from before the protocol was named) is this one's. */
  claimsLink?(fragment: string): boolean;
  /** Makes the protocol's page state, once, when the shell starts. */
  createPage(shell: Shell): P;
  /** Controls in the page header after the protocol picker (domain picker, protocol notes...). */
  Header?: Component<ProtocolPageProps<P>>;
  /** Everything below the header: settings, run controls, editors, the world and the logs. */
  Workbench: Component<ProtocolPageProps<P>>;
  /** The view state of a transcript the protocol's runner keeps in the worker (its news' reader). */
  createViewState?(): ProtocolViewState;
}

/** A page adapter with its page type forgotten, for the registry. */
export type AnyPageAdapter = PageAdapter<ProtocolPage>;

/** Registers an adapter: the shell sees every page only through `ProtocolPage`. */
export function pageAdapter<P extends ProtocolPage>(adapter: PageAdapter<P>): AnyPageAdapter {
  return adapter as unknown as AnyPageAdapter;
}
