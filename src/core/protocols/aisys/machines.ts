/**
 * The machines of both roles, over the messages of one agent's conversation (the transcript's channel):
 * the server's judges what the client sends (requests the real server refuses, actions for runs it did
 * not ask for or with stale action numbers, two actions for one run), the client's judges what the server
 * sends (a response for every request, the shapes of answers and errors, the outstanding-first
 * scheduling, action numbers that follow what was applied, finished runs and messages only for runs the
 * request named). Both follow the same conversation (`conversation.ts`).
 */
import type { ProtocolMachine, Violation } from '../machine';
import {
  advanceConversation,
  aisysViolation,
  INITIAL_CONVERSATION,
  pendingRequests,
  type ConversationState,
} from './conversation';

/** Judges the client's requests, as the server would take them. */
export const aisysServerMachine: ProtocolMachine<ConversationState> = {
  role: 'server',
  initial: () => INITIAL_CONVERSATION,
  accept(state, message) {
    const step = advanceConversation(state, message);
    return step.requestViolation
      ? { ok: false, violation: step.requestViolation, state: step.state }
      : { ok: true, state: step.state };
  },
  // A client may stop whenever it likes: runs never expire on the server.
  finish: () => null,
};

/** Judges the server's responses, given what the client asked. */
export const aisysClientMachine: ProtocolMachine<ConversationState> = {
  role: 'client',
  initial: () => INITIAL_CONVERSATION,
  accept(state, message) {
    const step = advanceConversation(state, message);
    return step.responseViolation
      ? { ok: false, violation: step.responseViolation, state: step.state }
      : { ok: true, state: step.state };
  },
  finish(state, lastIndex): Violation | null {
    const open = pendingRequests(state).find((pending) => pending.act);
    if (!open) return null;
    return aisysViolation(
      lastIndex,
      'aisys.response.missing',
      `a response to the request at message ${open.exchange}`,
      'the end of the transcript',
    );
  },
};
