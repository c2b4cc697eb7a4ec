/**
 * The run controls of a session paced by a turn gate: Pause, Resume, Step and the delay between turns act
 * on the gate and nothing else, so every runner that has one (emulated or through the bridge) hands them
 * over the same way and keeps its own `start`, `stop` and questions.
 */
import { TurnGate, type GateState } from '../policy/turn-gate';
import type { PlaygroundSession, SessionConfig, SessionStatus } from '../protocols/session-contract';

/** The status the page shows for each state of the gate. */
const STATUS_OF_GATE: Record<GateState, SessionStatus> = {
  open: 'running',
  paused: 'paused',
  stopped: 'stopped',
};

/** The gate a session's settings ask for; `onStatus` hears the status each change of state stands for. */
export function pacingGate(
  config: Pick<SessionConfig, 'delayMs' | 'startPaused'>,
  onStatus: (status: SessionStatus) => void,
): TurnGate {
  return new TurnGate({
    delayMs: config.delayMs,
    startPaused: config.startPaused,
    onStateChange: (state) => onStatus(STATUS_OF_GATE[state]),
  });
}

/** A session whose run controls are its turn gate's. */
export abstract class GatedRun implements Pick<PlaygroundSession, 'pause' | 'resume' | 'step' | 'setDelay'> {
  protected abstract readonly gate: TurnGate;

  pause(): void {
    this.gate.pause();
  }

  resume(): void {
    this.gate.resume();
  }

  step(): void {
    this.gate.step();
  }

  setDelay(ms: number): void {
    this.gate.setDelay(ms);
  }
}

/**
 * A session its real peers pace (clients answered at once, agents on the wall clock): the run controls
 * have nothing to hold, so they do nothing.
 */
export abstract class UnpacedRun implements Pick<
  PlaygroundSession,
  'pause' | 'resume' | 'step' | 'setDelay'
> {
  pause(): void {}

  resume(): void {}

  step(): void {}

  setDelay(): void {}
}
