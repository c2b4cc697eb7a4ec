/**
 * The one policy thread of the command line, started for each registered protocol: it runs the runtime the
 * protocol's definition gives (what the page's policy worker runs), with the same located errors, console
 * capture and killing on overrun for every protocol. Real worker threads, through the shared entry.
 */
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeadlineTimer } from '../../../src/core/policy/deadline';
import { PolicySupervisor } from '../../../src/core/policy/supervisor';
import type { LoadOutcome, PolicySource } from '../../../src/core/policy/types';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import { spawnPolicyThread } from '../../../cli/policy/thread-endpoint';
import { COMPILED_BIN } from '../run-cli';

/**
 * The thread script the tests start: the compiled command line's, when the run compiled it
 * (tests/setup/compiled-cli.ts), which starts without loading the sources through tsx in every thread;
 * otherwise the sources' own. tests/cli/compiled-cli.test.ts compares the two.
 */
const THREAD_ENTRY = COMPILED_BIN
  ? new URL('policy-thread-entry.js', pathToFileURL(COMPILED_BIN))
  : undefined;

const playable = PROTOCOLS.filter((protocol) => protocol.playground);
const supervisors: PolicySupervisor[] = [];

/** Deadlines that run out only when the test says, so a slow machine never makes a call overrun. */
class ManualTimer implements DeadlineTimer {
  readonly #pending = new Set<() => void>();
  #waiters: (() => void)[] = [];

  start(_ms: number, expire: () => void): () => void {
    this.#pending.add(expire);
    for (const wake of this.#waiters.splice(0)) wake();
    return () => this.#pending.delete(expire);
  }

  /** Waits until a deadline runs, then lets every running one expire. */
  async expire(): Promise<void> {
    while (this.#pending.size === 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    const expiring = [...this.#pending];
    this.#pending.clear();
    for (const expire of expiring) expire();
  }
}

function supervise(protocol: (typeof PROTOCOLS)[number], timer = new ManualTimer()): PolicySupervisor {
  const spawn = () => spawnPolicyThread(protocol, THREAD_ENTRY);
  const supervisor = new PolicySupervisor({ spawn, budgetMs: 1000, deadlineTimer: timer });
  supervisors.push(supervisor);
  return supervisor;
}

function source(code: string): PolicySource {
  return { code, language: 'ts', fileName: 'mine.ts', level: 'policy', seed: 1 };
}

afterEach(() => {
  for (const supervisor of supervisors.splice(0)) supervisor.dispose();
});

describe('the policy thread', () => {
  it("loads each protocol's own runtime: a module without the entry is refused as that protocol words it", async () => {
    const code = 'export const nothing = 1;\n';
    const seen = new Map<string, LoadOutcome>();
    for (const protocol of playable) {
      const inThread = await supervise(protocol).load(source(code));
      const inProcess = await (await protocol.playground!.loadPolicyRuntime()).load(source(code));
      expect(inThread, protocol.id).toEqual(inProcess);
      expect(inThread.ok, protocol.id).toBe(false);
      seen.set(protocol.id, inThread);
    }
    // The protocols' runtimes word the missing entry differently, so the comparison above tells them apart.
    const messages = new Set([...seen.values()].map((outcome) => !outcome.ok && outcome.fault.message));
    expect(messages.size).toBeGreaterThan(1);
  });

  it.each(playable.map((protocol) => [protocol.id, protocol] as const))(
    '%s: prints, locates a throw in the file, and is killed and restarted on a runaway call',
    async (_id, protocol) => {
      const timer = new ManualTimer();
      const supervisor = supervise(protocol, timer);
      const loaded = await supervisor.load(
        source(
          [
            "console.log('loading');",
            'export function act() { return null; }',
            'export function probe(n: number) {',
            "  console.warn('probing', n);",
            "  if (n < 0) throw new Error('negative');",
            '  if (n === 0) while (true) {}',
            '  return n + 1;',
            '}',
          ].join('\n'),
        ),
      );
      expect(loaded).toMatchObject({ ok: true, logs: [{ level: 'log', text: 'loading' }] });
      // The runaway loop's deadline runs out: the supervisor kills the thread and starts another.
      const call = supervisor.call('probe', [0], {}, { round: 1, turn: 1 });
      await timer.expire();
      const runaway = await call;
      expect(runaway).toMatchObject({ ok: false, fault: { kind: 'timeout' } });
      expect(supervisor.restarts).toBe(1);
      const thrown = await supervisor.call('probe', [-1], {}, { round: 1, turn: 2 });
      expect(thrown).toMatchObject({
        ok: false,
        fault: { kind: 'call', message: expect.stringContaining('negative'), location: { line: 5 } },
        logs: [{ level: 'warn', text: 'probing -1' }],
      });
      const answered = await supervisor.call('probe', [41], {}, { round: 1, turn: 3 });
      expect(answered).toMatchObject({ ok: true, value: 42 });
    },
  );

  it('reports a protocol it cannot find as a stopped runtime, naming the protocol', async () => {
    const unknown = { ...PROTOCOLS[0]!, id: 'no-such-protocol' };
    const loaded = await supervise(unknown).load(source('export function act() { return null; }'));
    expect(loaded).toMatchObject({
      ok: false,
      fault: { kind: 'crash', message: expect.stringContaining("no protocol 'no-such-protocol'") },
    });
  });
});
