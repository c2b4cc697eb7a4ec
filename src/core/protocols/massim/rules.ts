/**
 * The rules of the MASSim protocol that the machines check and the host reports, each with what the real
 * server does when an agent breaks it. One registry, so a violation found in a pasted transcript and a
 * notice raised live by the emulated server read the same.
 */

/**
 * How much a broken rule costs the agent: `fatal` = the server stops reading the connection (every later
 * action is lost until the agent reconnects); `ignored` = this frame had no effect; `rejected` = the server
 * refused and closed; `server` = the server (not the agent) misbehaved.
 */
export type MassimRuleSeverity = 'fatal' | 'ignored' | 'rejected' | 'server';

/** One rule: stable id, its severity and what happens when it is broken. */
export interface MassimRule {
  severity: MassimRuleSeverity;
  /** What the real server does about it, as shown next to the violation. */
  consequence: string;
}

/** Every rule, by id. */
export const massimRules = {
  // The first frame of a connection (the server's "front desk").
  'massim.front-desk.invalid-json': {
    severity: 'ignored',
    consequence: 'The server does not answer and never reads this connection again.',
  },
  'massim.front-desk.no-content': {
    severity: 'ignored',
    consequence:
      'A message without a "content" object is dropped; the server never reads this connection again.',
  },
  'massim.front-desk.not-auth': {
    severity: 'ignored',
    consequence:
      'The first frame must be an auth-request (or a status-request); the server drops it and never reads this connection again.',
  },
  'massim.front-desk.unread': {
    severity: 'ignored',
    consequence:
      'The server reads only the first frame of a connection that did not log in; this frame is never read.',
  },
  'massim.auth.rejected': {
    severity: 'rejected',
    consequence: 'Unknown user or wrong password: the server answers "fail" and closes the connection.',
  },
  // After a successful login.
  'massim.receiver.invalid-json': {
    severity: 'fatal',
    consequence:
      'The server stops reading this connection for good: every later action is ignored and the agent does no_action until it reconnects.',
  },
  'massim.receiver.action-without-p': {
    severity: 'fatal',
    consequence:
      'An action without a "p" array crashes the server\'s reader for this connection: every later action is ignored and the agent does no_action until it reconnects.',
  },
  'massim.receiver.server-message': {
    severity: 'fatal',
    consequence:
      'The server tries to read this as one of its own messages and its reader for this connection crashes: the agent does no_action until it reconnects.',
  },
  'massim.receiver.dead': {
    severity: 'ignored',
    consequence:
      'The server no longer reads this connection (see the earlier fatal frame); this frame is lost.',
  },
  'massim.frame.oversized': {
    severity: 'ignored',
    consequence:
      "Frames longer than the server's maxPacketLength are discarded unread; the next frame is read normally.",
  },
  'massim.message.no-content': {
    severity: 'ignored',
    consequence: 'A message without a "content" object is dropped.',
  },
  'massim.message.unknown-type': {
    severity: 'ignored',
    consequence: 'The server drops messages of unknown type.',
  },
  'massim.message.ignored-type': {
    severity: 'ignored',
    consequence: 'The server drops this message type when an agent sends it.',
  },
  'massim.auth.after-login': {
    severity: 'ignored',
    consequence:
      'A second auth-request on a logged-in connection is dropped (reconnect on a new connection instead).',
  },
  'massim.status.after-login': {
    severity: 'ignored',
    consequence:
      'status-request is only answered as the first frame of a fresh connection; on a logged-in connection it is dropped.',
  },
  'massim.action.duplicate': {
    severity: 'ignored',
    consequence: 'The first action received for a request wins; later ones with the same id are dropped.',
  },
  'massim.action.late': {
    severity: 'ignored',
    consequence:
      'The action came after its deadline: the step already ran with no_action (result success) and this one is dropped.',
  },
  'massim.action.stale-id': {
    severity: 'ignored',
    consequence: 'The id belongs to an earlier request that was already answered; the action is dropped.',
  },
  'massim.action.unknown-id': {
    severity: 'ignored',
    consequence:
      'No request-action with this id was sent on this connection; the server drops the action (unless the id was sent on an earlier connection of the same agent and is still awaited).',
  },
  // What agents may rely on from a server.
  'massim.server.spoke-first': {
    severity: 'server',
    consequence: 'A MASSim server never sends anything before the first frame of the agent.',
  },
  'massim.server.unexpected-reply': {
    severity: 'server',
    consequence: 'The server sent a message its state does not allow here.',
  },
  'massim.server.after-end': {
    severity: 'server',
    consequence: 'The server sent a message after bye or after rejecting the login.',
  },
  'massim.server.bad-frame': {
    severity: 'server',
    consequence: 'Server frames are compact JSON objects {"type", "content"} of a server message type.',
  },
  'massim.request-action.id-order': {
    severity: 'server',
    consequence:
      'Action ids of an agent only grow (they are never reset, not per step and not per simulation).',
  },
  'massim.request-action.step-order': {
    severity: 'server',
    consequence: "Within a simulation, steps only grow and stay below the simulation's step count.",
  },
  // Real-server races, reproduced only with the host's `faithfulRaces` option.
  'massim.race.sim-start-lost': {
    severity: 'server',
    consequence:
      "The real server re-sends sim-start after a login, but its old connection's sender often takes it first and writes it to the dead socket: agents must cope with a request-action without sim-start.",
  },
  'massim.race.bye-lost': {
    severity: 'server',
    consequence:
      "With no pause after the last simulation, the real server's sender can stop before bye is queued: agents must treat the connection closing after sim-end as the end.",
  },
  'massim.request-action.deadline': {
    severity: 'server',
    consequence: "The deadline is the time of the request plus the server's agentTimeout.",
  },
} as const satisfies Record<string, MassimRule>;

/** The id of a MASSim rule. */
export type MassimRuleId = keyof typeof massimRules;
