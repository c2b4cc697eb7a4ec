/**
 * A MASSim team policy in its policy worker: the user's module, loaded by the ordinary policy runtime
 * (compilation, console capture, located errors), answering a whole step of the team in one call. The
 * session sends every agent's request-action of a step as one team batch; the runtime calls
 * `act(percept, agent, team, context)` for each agent in turn, with per-agent and per-team memory, and
 * returns every action at once, so a step costs one message each way however many agents play. At the
 * wire level it hands each connection event of an agent to `onConnect` / `onMessage` / `onClose`.
 */
import { PolicyRuntime, findNonData } from '../../policy/runtime';
import type { CallOutcome, LoadOutcome, PolicyFault, PolicyLogLine, PolicySource } from '../../policy/types';
import {
  createTeamBatchAnswerer,
  type MassimPolicyAction,
  type MassimStepPerceptInfo,
  type MassimAgentContext,
  type MassimTeamBatch,
  type MassimTeamBatchReply,
  type MassimTeamContext,
  type MassimWireEvent,
  type MassimWireReply,
} from './index';
import { MASSIM_TEAM_STEP, MASSIM_WIRE_EVENT } from './team-calls';

// Named here too, for the callers that load the runtime anyway.
export { MASSIM_TEAM_STEP, MASSIM_WIRE_EVENT };

/** The wire-level hook called for each kind of event. */
const WIRE_HOOKS: Record<MassimWireEvent['kind'], string> = {
  connected: 'onConnect',
  frame: 'onMessage',
  closed: 'onClose',
};

/** The faults and console lines of the step being answered. */
interface StepCall {
  logs: PolicyLogLine[];
  fault: PolicyFault | undefined;
}

/** One agent connection as a wire-level policy sees it. */
interface WireAgent {
  readonly name: string;
  readonly team: string;
  readonly password: string;
  readonly connection: number;
  memory: Record<string, unknown>;
}

/** The team policy runtime; the policy worker exposes it as it is (same shape as `PolicyRuntime`). */
export class MassimTeamRuntime {
  readonly #runtime = new PolicyRuntime();
  #answer: ((batch: MassimTeamBatch) => Promise<MassimTeamBatchReply>) | undefined;
  #step: StepCall | undefined;
  /** The agents' calls of a step, one after another: a call's console lines are its own. */
  #queue: Promise<unknown> = Promise.resolve();
  readonly #wireMemory = new Map<string, Record<string, unknown>>();

  /** Loads a team policy, forgetting every memory of the one before. */
  load(source: PolicySource): LoadOutcome {
    this.#answer = createTeamBatchAnswerer((percept, agent, team) => this.#act(percept, agent, team));
    this.#wireMemory.clear();
    const entrySignature = source.level === 'policy' ? 'act(percept, agent, team)' : undefined;
    return this.#runtime.load(entrySignature ? { ...source, entrySignature } : source);
  }

  /** Answers a team step or a wire event; any other hook goes to the policy as it is. */
  call(hook: string, args: readonly unknown[], context: Record<string, unknown>): Promise<CallOutcome> {
    if (hook === MASSIM_TEAM_STEP) return this.#answerStep(args[0] as MassimTeamBatch);
    if (hook === MASSIM_WIRE_EVENT) return this.#answerWire(args[0] as MassimWireEvent);
    return this.#runtime.call(hook, args, context);
  }

  async #answerStep(batch: MassimTeamBatch): Promise<CallOutcome> {
    const started = performance.now();
    const step: StepCall = { logs: [], fault: undefined };
    this.#step = step;
    let reply: MassimTeamBatchReply | undefined;
    try {
      if (!this.#answer) throw new Error('no policy is loaded');
      reply = await this.#answer(batch);
    } catch (error) {
      step.fault ??= { kind: 'crash', message: error instanceof Error ? error.message : String(error) };
    }
    const ms = performance.now() - started;
    if (step.fault || !reply) return { ok: false, fault: step.fault!, logs: step.logs, ms };
    return { ok: true, value: reply, logs: step.logs, ms };
  }

  #act(
    percept: MassimStepPerceptInfo,
    agent: MassimAgentContext,
    team: MassimTeamContext,
  ): Promise<MassimPolicyAction> {
    const step = this.#step!;
    const run = this.#queue.then(async () => {
      // Once an agent of the step failed, the step has failed: the others are not asked.
      if (step.fault) throw new Error(step.fault.message);
      const outcome = await this.#runtime.call('act', [percept, agent, team], {});
      for (const line of outcome.logs) step.logs.push({ ...line, text: `${agent.name}: ${line.text}` });
      step.fault = outcome.ok ? actionProblem(outcome.value, agent.name) : outcome.fault;
      if (!outcome.ok || step.fault) throw new Error(step.fault!.message);
      return outcome.value as MassimPolicyAction;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #answerWire(event: MassimWireEvent): Promise<CallOutcome> {
    const hook = WIRE_HOOKS[event.kind];
    let memory = this.#wireMemory.get(event.agent);
    if (!memory) this.#wireMemory.set(event.agent, (memory = {}));
    const agent: WireAgent = {
      name: event.agent,
      team: event.kind === 'connected' ? event.team : '',
      password: event.kind === 'connected' ? event.password : '',
      connection: event.connection,
      memory,
    };
    const args = event.kind === 'frame' ? [event.text, agent] : [agent];
    const outcome = await this.#runtime.call(hook, args, {});
    const logs = outcome.logs.map((line) => ({ ...line, text: `${event.agent}: ${line.text}` }));
    if (!outcome.ok) return { ...outcome, logs };
    const read = readWireReply(outcome.value);
    if ('problem' in read) {
      const fault: PolicyFault = { kind: 'result', message: `${hook} returned ${read.problem}`, hook };
      return { ok: false, fault, logs, ms: outcome.ms };
    }
    return { ok: true, value: read.reply, logs, ms: outcome.ms };
  }
}

/** Why a value `act` returned is not an action (undefined when it is one, or nothing). */
function actionProblem(value: unknown, agent: string): PolicyFault | undefined {
  if (value === undefined || value === null) return undefined;
  const problem =
    typeof value !== 'object' || Array.isArray(value)
      ? `${describe(value)}, not an action`
      : typeof (value as { type?: unknown }).type !== 'string'
        ? 'an action without a "type" string'
        : 'p' in value && value.p !== undefined && !Array.isArray(value.p)
          ? 'an action whose "p" is not an array'
          : findNonData(value);
  if (!problem) return undefined;
  return {
    kind: 'result',
    message: `act returned ${problem} for ${agent}; return { type, p: [...] }`,
    hook: 'act',
  };
}

/** A wire hook's value as the frames to send, or what is wrong with it. */
function readWireReply(value: unknown): { reply: MassimWireReply } | { problem: string } {
  if (value === undefined || value === null) return { reply: {} };
  if (typeof value === 'string') return { reply: { frames: [value] } };
  const isFrames = (list: unknown) => Array.isArray(list) && list.every((f) => typeof f === 'string');
  if (Array.isArray(value))
    return isFrames(value)
      ? { reply: { frames: value as string[] } }
      : { problem: 'a list with something other than strings' };
  if (typeof value === 'object') {
    const { frames, reconnect } = value as { frames?: unknown; reconnect?: unknown };
    if (frames !== undefined && !isFrames(frames))
      return { problem: '"frames" that are not a list of strings' };
    return {
      reply: {
        ...(frames ? { frames: frames as string[] } : {}),
        ...(reconnect === true ? { reconnect: true } : {}),
      },
    };
  }
  return { problem: `${describe(value)}; return a frame, a list of frames, or { frames, reconnect }` };
}

function describe(value: unknown): string {
  return typeof value === 'string' ? 'a string' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
