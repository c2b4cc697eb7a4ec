/**
 * Why a real rddlsim server ended a round before its horizon, as far as its client can tell. The server's
 * round-end says only how many turns were used; its console names the constraint ("TRIAL ERROR -- ACTION
 * NOT APPLICABLE"), which the client never sees. A client that saw the whole state (a fully observed
 * instance) and knows the model checks the actions it sent in that state as the server did, and names what
 * they broke; otherwise it says what rddlsim ends rounds for. The command line's `connect` and the page's
 * bridged sessions both use it.
 */
import type { RddlModel, RddlSimulator } from '../../envs/rddl/api';
import type { WireAction } from './messages';
import type { Observation } from './policy-api';
import { readWireActions } from './server-reading';

/** Follows one client's turns and the actions it sent, to explain a round the server ended early. */
export class EarlyRoundEnds {
  readonly #model: RddlModel;
  /** A simulator of the model, made the first time a round ends early (only its checks are used). */
  #checker: RddlSimulator | undefined;
  #values: Observation['values'] | undefined;
  #actions: readonly WireAction[] | undefined;

  /** `model` is the instance played: its horizon, and the constraints the actions are checked against. */
  constructor(model: RddlModel) {
    this.#model = model;
  }

  /**
   * A turn's observation (call for every turn, before the actions for it are sent); undefined when the
   * round has shown none.
   */
  observed(observation: Observation | undefined): void {
    this.#values = observation?.values;
    this.#actions = undefined;
  }

  /** The actions sent for the last turn observed. */
  sent(actions: readonly WireAction[]): void {
    this.#actions = actions;
  }

  /**
   * Why the server ended a round before its horizon: undefined for a round that used its horizon, or when
   * the instance ends by a condition (`terminate-when`). The same words for every round ended
   * the same way, so that a report can refer back to the first.
   */
  explain(end: { turnsUsed: number; timeLeft: number }): string | undefined {
    if (!this.endsEarly(end.turnsUsed)) return undefined;
    const info = this.#model.info;
    const before = `before its horizon of ${info.horizon} turns`;
    if (end.timeLeft <= 0) return `the server ended the round ${before}: the session's time ran out`;
    const broken = this.#broken();
    if (broken)
      return `the server ended the round ${before}: ${broken}, checked here for the actions sent in the state observed then`;
    return (
      `the server ended the round ${before}: rddlsim does so when it finds the actions sent not ` +
      'applicable (a false action precondition or state-action constraint, too many non-default actions, ' +
      'a state fluent sent as an action); its console names the constraint'
    );
  }

  /**
   * Whether a round that used `turnsUsed` turns ended before its horizon, as `explain` tells them apart
   * (never for an instance that ends by a condition).
   */
  endsEarly(turnsUsed: number): boolean {
    const info = this.#model.info;
    return !info.terminateWhen && Number.isFinite(info.horizon) && turnsUsed < info.horizon;
  }

  /** What the last actions sent break in the last state observed, as the server checks them. */
  #broken(): string | undefined {
    const model = this.#model;
    if (!this.#values) return undefined;
    try {
      const reading = readWireActions(this.#actions ?? [], model);
      if (reading.kind === 'not-applicable')
        return `${reading.reason}: rddlsim finds the action not applicable`;
      if (reading.kind !== 'actions') return undefined;
      this.#checker ??= model.createSimulator({ seed: 0 });
      return this.#checker.illegalIn?.(this.#values, reading.actions, {
        nondefaultCount: reading.nondefaultCount,
      })?.detail;
    } catch {
      return undefined;
    }
  }
}
