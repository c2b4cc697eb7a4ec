/**
 * The client role's machine: judges what the API server sends, as GAMA's scavengers see it. Every reply
 * must answer the request waiting, be addressed to its scavenger (on GAMA's shared socket every scavenger
 * reads every reply and keeps only its own) and name one of the eight actions; a request must not be left
 * unanswered when the server closes (GAMA's simulation would wait forever).
 */
import { isScavengerAction } from '../../envs/scavenger';
import type { TranscriptMessage } from '../../transcript/model';
import type { ProtocolMachine } from '../machine';
import { clip, readReply } from './codec';
import { outlineOfMessage } from './outline';
import { violation } from './violation';

/** State of the client machine (plain data; never mutated). */
export interface GamaClientMachineState {
  /** The scavenger whose request awaits its answer. */
  waiting: string | undefined;
}

/** Judges the API server's replies on one connection. */
export const gamaClientMachine: ProtocolMachine<GamaClientMachineState> = {
  role: 'client',

  initial: () => ({ waiting: undefined }),

  accept(state, message: TranscriptMessage) {
    const { index } = message;
    if (message.kind === 'close' || message.kind === 'error') {
      if (message.dir === 's2c' && state.waiting !== undefined) {
        const v = violation(
          index,
          'gama.reply.missing',
          `an answer to ${state.waiting}`,
          'the server closing the connection',
          state.waiting,
        );
        return { ok: false, violation: v, state: { waiting: undefined } };
      }
      return { ok: true, state };
    }
    if (message.kind !== 'data' || message.text === undefined) return { ok: true, state };
    if (message.dir === 'c2s') {
      const reading = outlineOfMessage(message);
      return {
        ok: true,
        state: reading.ok && reading.message.type === 'request' ? { waiting: reading.message.id } : state,
      };
    }
    const reading = readReply(message.text);
    if (!reading.ok) {
      const v = violation(
        index,
        'gama.reply.unreadable',
        "'<id>;<action>'",
        `'${clip(message.text)}'`,
        state.waiting,
      );
      return { ok: false, violation: v, state };
    }
    const { id, action } = reading.reply;
    if (state.waiting === undefined) {
      const v = violation(
        index,
        'gama.reply.unrequested',
        'no reply while no scavenger waits',
        `a reply for ${clip(id)}`,
        id,
      );
      return { ok: false, violation: v, state };
    }
    if (id !== state.waiting) {
      const quoted = id.startsWith('"') ? ' (in JSON quotes: send the bare text)' : '';
      const v = violation(
        index,
        'gama.reply.misaddressed',
        `a reply to ${state.waiting}`,
        `one addressed to '${clip(id)}'${quoted}; GAMA ignores it and keeps waiting`,
        state.waiting,
      );
      return { ok: false, violation: v, state };
    }
    if (!isScavengerAction(action)) {
      const v = violation(
        index,
        'gama.reply.unknown-action',
        'one of idle, tag, move_ahead, move_right, move_left, move_back, face_right, face_left',
        `'${clip(action)}' (GAMA does nothing)`,
        id,
      );
      return { ok: false, violation: v, state: { waiting: undefined } };
    }
    return { ok: true, state: { waiting: undefined } };
  },

  finish: () => null,
};
