/** The counter game's machines: what each side may send when. */
import type { ProtocolMachine, Step, Violation } from '../../../src/core/protocols/machine';
import type { TranscriptMessage } from '../../../src/core/transcript/model';
import { readCounterMessage } from './messages';

type Phase = 'fresh' | 'awaiting-move' | 'awaiting-state' | 'ended';

function violation(message: TranscriptMessage, rule: string, expected: string, got: string): Violation {
  return { index: message.index, rule, expected, got, message: `expected ${expected}, got ${got}` };
}

function describe(message: TranscriptMessage): string {
  return (
    readCounterMessage(message.text)?.type ?? `unreadable ${JSON.stringify(message.text ?? '').slice(0, 30)}`
  );
}

/** One machine per role, both following the same phases; each judges the other side's messages. */
function counterMachine(role: 'client' | 'server'): ProtocolMachine<Phase> {
  const judged = role === 'server' ? 'c2s' : 's2c';
  return {
    role,
    initial: () => 'fresh',
    accept(phase, message): Step<Phase> {
      if (message.kind !== 'data') return { ok: true, state: message.kind === 'close' ? 'ended' : phase };
      const type = describe(message);
      const next = transition(phase, message.dir, type);
      if (message.dir !== judged) return { ok: true, state: next ?? phase };
      if (next) return { ok: true, state: next };
      const expected = expectedOf(phase, message.dir);
      return {
        ok: false,
        state: phase,
        violation: violation(
          message,
          `counter.${expected.replace(/[^a-z]+/g, '-')}.expected`,
          expected,
          type,
        ),
      };
    },
    finish: () => null,
  };
}

function transition(phase: Phase, dir: 'c2s' | 's2c', type: string): Phase | undefined {
  if (dir === 's2c') {
    if ((phase === 'fresh' || phase === 'ended') && type === 'start') return 'awaiting-state';
    if (phase === 'awaiting-state' && type === 'state') return 'awaiting-move';
    if (phase === 'awaiting-state' && type === 'end') return 'ended';
    return undefined;
  }
  return phase === 'awaiting-move' && type === 'add' ? 'awaiting-state' : undefined;
}

function expectedOf(phase: Phase, dir: 'c2s' | 's2c'): string {
  if (dir === 'c2s') return 'add';
  return phase === 'fresh' ? 'start' : 'state or end';
}

export const counterClientMachine = counterMachine('client');
export const counterServerMachine = counterMachine('server');
