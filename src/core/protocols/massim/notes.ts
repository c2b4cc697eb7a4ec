/**
 * The protocol notes the playground shows next to a MASSim session: how the emulated server behaves where
 * the real massim_2022 server does something an agent can notice, and which of its quirks are reproduced.
 */

/**
 * One decision about the real server's behaviour. `faithful`: done exactly as the real server does it;
 * `optional`: a real-server race, reproduced only with the host's `faithfulRaces` option; `simplified`:
 * done differently in a way agents cannot tell apart.
 */
export interface MassimProtocolNote {
  id: string;
  title: string;
  decision: 'faithful' | 'optional' | 'simplified';
  text: string;
  /** Shown first: the mistakes learners make most. */
  prominent?: boolean;
}

/** Every protocol note, most important first. */
export const MASSIM_PROTOCOL_NOTES: readonly MassimProtocolNote[] = [
  {
    id: 'dead-receiver',
    title: 'One malformed frame silences an agent until it reconnects',
    decision: 'faithful',
    prominent: true,
    text:
      'After a logged-in agent sends a frame that is not a JSON object, or an action without a "p" array, ' +
      'the server stops reading that connection for good. It keeps sending request-actions, but every ' +
      'answer is lost: the agent does no_action each step until it opens a new connection and logs in ' +
      'again. The session log marks that frame as fatal. Always send "p": [] when an action has no parameters.',
  },
  {
    id: 'ids',
    title: 'Action ids belong to the agent, not to the step',
    decision: 'faithful',
    prominent: true,
    text:
      "Every request-action carries an id from that agent's own counter: it starts at 0 and is never " +
      'reset, neither per step nor per simulation nor per match. Answer with the id of the request, never ' +
      'with the step number (they differ as soon as an agent misses a simulation).',
  },
  {
    id: 'first-action-wins',
    title: 'The first action for a request counts; later, stale and late ones are dropped silently',
    decision: 'faithful',
    text:
      'The server executes the first action it receives with the id of the open request. A second action ' +
      'with the same id, an id of an earlier request, or an action that arrives after the deadline is ' +
      'dropped without any reply; the outcome only shows in the next percept (lastAction, lastActionResult). ' +
      'A request left unanswered by its deadline counts as no_action with result success.',
  },
  {
    id: 'step-timing',
    title: 'A step runs as soon as every agent answered, else at the deadline',
    decision: 'faithful',
    text:
      'There is no fixed step duration: the step is executed once all agents of the simulation answered. ' +
      'One silent or disconnected agent makes every step last the full agentTimeout.',
  },
  {
    id: 'pacing',
    title: 'Deadlines and the first step come a little later on the real server',
    decision: 'optional',
    text:
      'The real server builds every percept before sending any, so deadline - time is agentTimeout plus 2 to ' +
      '34 ms, and it sends sim-start about 150 ms before the first request-action. The emulated server is exact ' +
      "(deadline - time = agentTimeout, step 0 at once) unless its pacing is set to the real server's " +
      '(pacing: "real-server" in the host options, --pacing real-server on serve massim). Agents that time ' +
      'their answers from "time" or expect a pause after sim-start should be tried with it.',
  },
  {
    id: 'front-desk',
    title: 'The first frame of a connection decides everything',
    decision: 'faithful',
    text:
      'A new connection must start with auth-request (or status-request). The server reads exactly that one ' +
      'frame there: a wrong login gets "fail" and the connection is closed; a status-request gets one ' +
      'status-response and nothing on that connection is read again; anything else gets no answer at all. ' +
      'status-request on a logged-in connection is ignored.',
  },
  {
    id: 'org-json',
    title: 'Frames are read by a lenient JSON library',
    decision: 'faithful',
    text:
      'The server reads frames with org.json: single-quoted strings, unquoted words, ";" between members and ' +
      'trailing commas are accepted, text after the closing brace is ignored, but a duplicate key is an error ' +
      '(and kills the reader). Parameters are read as strings: numbers come back as "1" in lastActionParams, ' +
      'null as "". An id given as a numeric string ("6") is accepted.',
  },
  {
    id: 'max-packet-length',
    title: 'Oversized frames are skipped',
    decision: 'faithful',
    text:
      'A frame longer than maxPacketLength bytes is discarded unread and the next frame is read normally. ' +
      "The count carries the real server's off-by-one: after the first frame the limit is one byte less, " +
      'and bytes skipped past the limit count against the next frame.',
  },
  {
    id: 'reconnect',
    title: 'Logging in again replaces the old connection',
    decision: 'faithful',
    text:
      "A successful login closes the agent's previous connection, if any, and re-sends the sim-start of the " +
      'running simulation (with its original time). An agent may still answer the open request with the id ' +
      'it got on the old connection. Messages for an agent that is not connected are lost.',
  },
  {
    id: 'lost-sim-start',
    title: 'The real server sometimes loses the re-sent sim-start',
    decision: 'optional',
    text:
      "On the real server the old connection's sender often grabs the re-sent sim-start and writes it to the " +
      'dead socket (measured: about half the time when the old connection was still open, a quarter when it ' +
      'had just been closed). With "faithful races" on, the emulated server loses it at those rates; agents ' +
      'must cope with a request-action that no sim-start preceded.',
  },
  {
    id: 'lost-bye',
    title: 'The real server sometimes loses bye',
    decision: 'optional',
    text:
      "With no pause after the last simulation, the real server's sender may stop before bye is queued " +
      '(measured: 2 of 8 agents). With "faithful races" on, the emulated server loses it at that rate when ' +
      'waitBetweenSimulations is 0. Agents should treat the connection closing after sim-end as the end.',
  },
  {
    id: 'ranking',
    title: 'Equal scores still get different ranks',
    decision: 'faithful',
    text: 'sim-end ranks teams by score; a tie still yields rank 1 for one team and rank 2 for the other.',
  },
  {
    id: 'accounts',
    title: 'Accounts are numbered from 1',
    decision: 'faithful',
    text:
      'Agents log in as prefix + team + i, for i from 1 to the largest team size over all simulations ' +
      "(agentA1, agentA2...), all with their team's password. A simulation with fewer agents uses the first " +
      'ones; the others receive nothing until a simulation needs them.',
  },
  {
    id: 'send-queue',
    title: 'Messages for absent agents are dropped at once',
    decision: 'simplified',
    text:
      'The real server queues up to five messages for an agent that is not connected and clears the queue ' +
      'when it logs in (except for the re-sent sim-start), so nothing queued ever arrives; the emulated ' +
      'server drops them straight away.',
  },
  {
    id: 'tournament',
    title: 'Tournament and launch',
    decision: 'simplified',
    text:
      'Round-robin matches (every combination of teamsPerMatch teams, in configuration order) and manual ' +
      'matches are played as configured; "random" mode picks one random match. The launch setting is up to ' +
      'whoever runs the server (the command line honours "key" and "<n>s").',
  },
  {
    id: 'charset-and-order',
    title: 'Encoding and key order',
    decision: 'simplified',
    text:
      'Frames are UTF-8 both ways (the real server writes its first replies in the platform charset, which ' +
      "only matters for non-ASCII names). Server messages use the real server's key order; arrays built from " +
      'Java sets (things, tasks) may be in another order: agents must not rely on either.',
  },
];
