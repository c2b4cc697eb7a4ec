import '@vitest/web-worker';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_DOMAINS, exampleSources } from '../../../../src/core/envs/rddl';
import {
  LanguageServiceTimeout,
  RddlLanguageClient,
} from '../../../../src/state/protocols/rddlsim/rddl-language-client';

/** The real language worker, run by @vitest/web-worker in this thread. */
function languageWorker(): Worker {
  return new Worker(new URL('../../../../workers/rddl-language.worker.ts', import.meta.url), {
    type: 'module',
  });
}

/**
 * Deadlines no answer of the real worker can miss, even on a busy machine that is still compiling the
 * worker's modules: these tests are about the answers (the deadline tests use a worker that never answers).
 */
const PATIENT = { check: 60_000, interactive: 60_000 };

/** A worker that takes calls and never answers: what a parse that runs away looks like from the page. */
class SilentWorker extends EventTarget {
  terminated = false;
  postMessage(): void {}
  terminate(): void {
    this.terminated = true;
  }
}

const [domain, instance] = exampleSources(EXAMPLE_DOMAINS[0]!);

/** Line and column (from 1) of the first occurrence of `needle` in `text`. */
function positionOf(text: string, needle: string, after = 0): { line: number; column: number } {
  const found = text.indexOf(needle);
  if (found < 0) throw new Error(`'${needle}' is not in the text`);
  const offset = found + after;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

describe('the RDDL language client over the real worker', () => {
  it('diagnoses a syntax error at its line and column', async () => {
    const client = new RddlLanguageClient(languageWorker, PATIENT);
    const broken = domain!.text.replace('reward =', 'reward');
    const expected = positionOf(broken, 'reward [');
    const diagnostics = await client.diagnose([{ ...domain!, text: broken }, instance!]);
    expect(diagnostics[0]).toMatchObject({
      severity: 'error',
      location: { source: domain!.name, line: expected.line },
    });
    client.dispose();
  });

  it('completes fluent names and shows a fluent declaration on hover', async () => {
    const client = new RddlLanguageClient(languageWorker, PATIENT);
    const text = domain!.text.replace(
      'reward = [sum_{?c : computer} running(?c)]',
      'reward = [sum_{?c : computer} runn(?c)]',
    );
    const sources = [{ ...domain!, text }, instance!];
    const completion = await client.completions(sources, domain!.name, positionOf(text, 'runn(?c)]', 4));
    expect(completion.items.map((i) => i.label)).toContain('running');
    const hover = await client.hover(sources, domain!.name, positionOf(text, "running'(?c) =", 1));
    expect(hover?.contents.join('\n')).toContain('state-fluent');
    const folds = await client.folding(text);
    expect(folds.some((f) => f.startLine === positionOf(text, 'cpfs {').line)).toBe(true);
    client.dispose();
  });

  it('generates the policy types and a starting policy of the loaded instance, and says where loading fails', async () => {
    const client = new RddlLanguageClient(languageWorker, PATIENT);
    const { types, starter } = await client.policyTypes([domain!, instance!]);
    expect(types).toContain('"reboot"');
    expect(starter).toContain('{ name: "reboot", args: [');
    const broken = instance!.text.replace('horizon', 'horizn');
    await expect(client.policyTypes([domain!, { ...instance!, text: broken }])).rejects.toThrow(
      new RegExp(`^${instance!.name.replace('.', '\\.')}:${positionOf(broken, 'horizn').line}:`),
    );
    client.dispose();
  });
});

describe('deadlines', () => {
  it('fails a call that misses its deadline, stops the worker and starts a fresh one for the next call', async () => {
    const workers: SilentWorker[] = [];
    const client = new RddlLanguageClient(
      () => {
        const worker = new SilentWorker();
        workers.push(worker);
        return worker as unknown as Worker;
      },
      { check: 50, interactive: 20 },
    );
    // The worker never answers: only the deadlines can end these calls (else the test times out).
    const slow = client.diagnose([domain!]);
    const waiting = client.instances([domain!]);
    await expect(slow).rejects.toBeInstanceOf(LanguageServiceTimeout);
    await expect(waiting).rejects.toThrow();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.terminated).toBe(true);
    await expect(client.hover([domain!], domain!.name, { line: 1, column: 1 })).rejects.toThrow(
      /took longer than 0.02 s/,
    );
    expect(workers).toHaveLength(2);
  });
});
