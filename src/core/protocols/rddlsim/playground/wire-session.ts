/**
 * A wire-level rddlsim session: the emulated server (the core's RddlsimHost) talks directly to a policy
 * that writes the protocol itself. The policy's `onSessionStart(context)` returns the first message(s) to
 * send; `onMessage(message, context)` receives each server message, exactly as sent (without the NUL
 * terminator), and returns the replies (a string, a list, or nothing). Each reply goes out NUL-terminated.
 * The host's machine judges every message, so a learner sees precisely which rule a message broke.
 */
import type { RddlModel } from '../../../envs/rddl/api';
import type { CallOutcome, CallSite } from '../../../policy/types';
import { encodeFrame } from '../framing';
import { RddlsimHost, type HostConnection, type HostEffect } from '../host';
import { EXPLAINED_CLOSE_RULES } from '../session';
import type { Transcript } from '../../../transcript/model';
import { TranscriptRecorder } from '../../../transcript/recorder';

/** How the wire session reaches the policy: the policy worker's hooks, with a time budget. */
export type WireCall = (
  hook: 'onSessionStart' | 'onMessage',
  args: readonly unknown[],
  site: CallSite,
) => Promise<CallOutcome>;

/** Options of a wire-level session. */
export interface WireSessionOptions {
  model: RddlModel;
  task: string | null;
  call: WireCall;
  rounds: number;
  seed: number;
  /** Reproduce rddlsim's evaluation quirks in the simulator. */
  rddlsimQuirks?: boolean;
  meta?: Transcript['meta'];
}

const CONNECTION = 'session-1';

/** One wire-level session, advanced one policy call at a time like the policy-level EmulatedSession. */
export class RddlsimWireSession {
  readonly recorder: TranscriptRecorder;
  #status: 'ready' | 'waiting' | 'finished' | 'stopped' = 'ready';
  readonly #connection: HostConnection;
  readonly #call: WireCall;
  /** Server messages the policy has not seen yet, with their transcript index. */
  readonly #inbox: { text: string; index: number }[] = [];
  #round = 0;
  #turn = 0;

  constructor(options: WireSessionOptions) {
    const { model } = options;
    this.#call = options.call;
    this.recorder = new TranscriptRecorder({
      protocol: 'rddlsim',
      meta: {
        source: 'emulated',
        level: 'wire',
        instance: model.info.instance,
        domain: model.info.domain,
        seed: options.seed,
        rounds: options.rounds,
        ...options.meta,
      },
    });
    this.recorder.addConnection(CONNECTION, 'session 1');
    const host = new RddlsimHost({
      resolveInstance: (name) => (name === model.info.instance ? { model, task: options.task } : undefined),
      rounds: options.rounds,
      seed: options.seed,
      rddlsimQuirks: options.rddlsimQuirks ?? false,
    });
    this.#connection = host.accept();
  }

  get transcript(): Transcript {
    return this.recorder.transcript;
  }

  get status(): 'ready' | 'waiting' | 'finished' | 'stopped' {
    return this.#status;
  }

  /** Lets the policy speak first, or hands it the next server message; delivers its replies. */
  async step(): Promise<{ observation?: { round: number; turn: number } }> {
    await this.#exchange();
    return this.#status === 'waiting' && this.#round > 0
      ? { observation: { round: this.#round, turn: this.#turn } }
      : {};
  }

  async #exchange(): Promise<void> {
    if (this.#status === 'finished' || this.#status === 'stopped') return;
    const site = { round: this.#round, turn: this.#turn };
    let outcome: CallOutcome;
    if (this.#status === 'ready') {
      this.#status = 'waiting';
      outcome = await this.#call('onSessionStart', [], site);
    } else {
      const next = this.#inbox.shift();
      if (!next) return this.#finishIfQuiet();
      outcome = await this.#call('onMessage', [next.text], site);
    }
    if (this.#status !== 'waiting') return; // stopped while the policy was thinking
    for (const line of outcome.logs) this.recorder.annotate('policy-log', { ...line, ...site });
    if (!outcome.ok) {
      this.recorder.annotate('error', { source: 'policy', ...outcome.fault, ...site });
      this.stop(`the policy failed: ${outcome.fault.message}`);
      return;
    }
    const replies = outcome.value === null || outcome.value === undefined ? [] : [outcome.value].flat();
    for (const reply of replies) {
      if (typeof reply !== 'string') {
        this.recorder.annotate('error', {
          source: 'policy',
          message: `onMessage must return message text (a string or a list of strings), not ${typeof reply}`,
          ...site,
        });
        this.stop('the policy returned something other than message text');
        return;
      }
      this.#sendToHost(reply);
    }
    this.#finishIfQuiet();
  }

  /** Closes the client side; the host reacts as the real server does. */
  stop(reason = 'stopped by the user'): void {
    if (this.#status === 'finished' || this.#status === 'stopped') return;
    this.#status = 'stopped';
    this.recorder.annotate('note', { code: 'rddlsim.session.stopped', message: reason });
    this.recorder.event(CONNECTION, 'c2s', 'close');
    if (!this.#connection.closed) this.#apply(this.#connection.clientClosed(), true);
  }

  #sendToHost(text: string): void {
    if (this.#connection.closed) {
      // Sent into a closed connection: it crossed nothing, but the learner should see they sent it.
      this.recorder.text(CONNECTION, 'c2s', text);
      return;
    }
    this.#apply(this.#connection.receive(encodeFrame(text, 'nul')));
  }

  /** Records what the host did; `closeExplained` drops the broken rules of a close already reported. */
  #apply(effects: HostEffect[], closeExplained = false): void {
    for (const effect of effects) {
      switch (effect.kind) {
        case 'received':
          if (effect.text !== undefined) this.recorder.text(CONNECTION, 'c2s', effect.text);
          else this.recorder.bytes(CONNECTION, 'c2s', effect.bytes);
          break;
        case 'send': {
          const record = this.recorder.text(
            CONNECTION,
            's2c',
            effect.text,
            effect.framing === 'none' ? 'none' : undefined,
          );
          if (effect.message.type === 'round-init') {
            this.#round = effect.message.roundNum;
            this.#turn = 0;
          }
          if (effect.message.type === 'turn') {
            this.#turn = effect.message.turnNum;
            const snapshot = this.#connection.snapshot();
            if (snapshot)
              this.recorder.annotate('world', {
                round: snapshot.round,
                turn: this.#turn,
                state: snapshot.stateFluents,
              });
          }
          this.#inbox.push({ text: effect.text, index: record.index });
          break;
        }
        case 'close':
          this.recorder.event(CONNECTION, 's2c', 'close');
          break;
        case 'note':
          this.recorder.annotate('note', effect.note);
          break;
        case 'violation':
          if (closeExplained && EXPLAINED_CLOSE_RULES.has(effect.violation.rule)) break;
          this.recorder.annotate('violation', { role: 'server', ...effect.violation });
          break;
        case 'step':
          break;
      }
    }
  }

  /** Ends the session when nothing is left to say: the server closed, or both sides wait for each other. */
  #finishIfQuiet(): void {
    if (this.#status !== 'waiting' || this.#inbox.length > 0) return;
    if (this.#connection.closed) {
      this.#status = 'finished';
      this.recorder.event(CONNECTION, 'c2s', 'close');
      return;
    }
    this.recorder.annotate('note', {
      code: 'rddlsim.wire.deadlock',
      message: 'the server is waiting for the client, which sent nothing: a real server would wait forever',
    });
    this.stop('nothing more to say on either side');
  }
}
