/**
 * `runSession`: one whole emulated rddlsim session with a policy function, for programs that use the
 * engine as a library. It is the session the playground and `protoplay run rddlsim` play (same host,
 * client adapter and simulator), so a seed and a policy give the same rewards and transcript everywhere.
 * The policy runs in the caller's thread, without a time budget: a program that runs untrusted code wants
 * the command line's worker threads instead.
 */
import type { RddlSource } from '../../envs/rddl/api';
import type { Transcript } from '../../transcript/model';
import { loadSessionEnvironment } from './playground/environments';
import type { ActFunction } from './policy-api';
import { EmulatedSession, type EmulatedSessionStatus } from './session';
import { createLocalPolicy, type RoundSummary } from './session-policy';

/** What `runSession` plays. */
export interface RunSessionOptions {
  /** RDDL texts holding the domain, the instance and its non-fluents (any split into texts). */
  rddl: readonly RddlSource[];
  /** The instance to play, when the texts define several. */
  instance?: string;
  /** Called once per turn with what the agent observes; returns the actions (null is a noop). */
  act: ActFunction;
  /** Rounds (default 30, as rddlsim). */
  rounds?: number;
  /** Seed of the simulator and of the policy's `context.random()` (default 0). */
  seed?: number;
  /** Reproduce rddlsim's evaluation quirks in the simulator (default false). */
  rddlsimQuirks?: boolean;
  /** Record the true world state at every turn in the transcript (default false; it is large). */
  recordWorld?: boolean;
}

/** How a session went. */
export interface SessionResult {
  /** `finished` when every round was played; `stopped` when the policy failed or the server closed. */
  status: EmulatedSessionStatus;
  /** Each round's reward (discounted sum, as the server reports it). */
  rounds: readonly RoundSummary[];
  /** The server's total over the counted rounds; undefined when the session ended early. */
  totalReward: number | undefined;
  /** Every wire message and annotation: save it with `serialiseTranscript`, open it in the playground. */
  transcript: Transcript;
}

/**
 * Plays a session against the emulated rddlsim server. RDDL that does not load throws an Error whose message
 * is located (`file:line:column: ...`); a policy that throws or returns bad actions ends the session (`status: 'stopped'`),
 * with the fault in the transcript's annotations.
 */
export async function runSession(options: RunSessionOptions): Promise<SessionResult> {
  const { model, task } = loadSessionEnvironment({
    files: [...options.rddl],
    ...(options.instance !== undefined ? { instance: options.instance } : {}),
    rddlsimQuirks: options.rddlsimQuirks ?? false,
  });
  const seed = options.seed ?? 0;
  const session = new EmulatedSession({
    model,
    task,
    policy: createLocalPolicy(options.act, { info: model.info, seed }),
    rounds: options.rounds ?? 30,
    seed,
    rddlsimQuirks: options.rddlsimQuirks ?? false,
    recordWorld: options.recordWorld ?? false,
    onPolicyFault: 'stop',
    meta: { tool: 'protoplay runSession' },
  });
  while (session.status === 'ready' || session.status === 'waiting') await session.step();
  return {
    status: session.status,
    rounds: session.rounds,
    totalReward: session.totalReward,
    transcript: session.transcript,
  };
}
