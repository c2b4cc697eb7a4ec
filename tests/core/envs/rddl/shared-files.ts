/**
 * Test helpers for the shared reference material: IPPC benchmark files and rddlsim's recorded sessions.
 * They read from `../shared` beside the repository and throw (failing the test) when it is missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GroundAction, RddlSource } from '../../../../src/core/envs/rddl/api';

/** The shared folder beside the repository root. */
export const SHARED = resolve(process.cwd(), '../shared');
/** IPPC 2011 and 2014 benchmark folders. */
export const BENCHMARK_DIRS = ['ippc2011', 'ippc2014'].map((d) => join(SHARED, 'rddl', d));
/** rddlsim's recorded sessions. */
export const CONFORMANCE_DIR = join(SHARED, 'conformance', 'rddlsim');

/** The domain and instance files of an IPPC instance, e.g. `sysadmin_inst_mdp__1`. */
export function benchmarkSources(instance: string): RddlSource[] {
  const domain = instance.replace(/_inst_(mdp|pomdp)__\d+$/, '_$1');
  const dir = BENCHMARK_DIRS.find((d) => readdirSync(d).includes(`${instance}.rddl`));
  if (!dir) throw new Error(`benchmark ${instance} not found under ${SHARED}`);
  return [domain, instance].map((name) => ({
    name: `${name}.rddl`,
    text: readFileSync(join(dir, `${name}.rddl`), 'utf8'),
  }));
}

/** Every instance of the benchmark folders (name without `.rddl`). */
export function allBenchmarkInstances(): string[] {
  return BENCHMARK_DIRS.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => /_inst_(mdp|pomdp)__\d+\.rddl$/.test(f))
      .map((f) => f.replace(/\.rddl$/, '')),
  ).sort();
}

/** One message of a recorded session. */
export interface RecordedMessage {
  direction: 'C>S' | 'S>C';
  body: string;
}

/** Reads a `*.transcript` file: `@@ seq dir ms len\n` then `len` bytes and a newline, per message. */
export function readTranscript(path: string): RecordedMessage[] {
  const data = readFileSync(path);
  const messages: RecordedMessage[] = [];
  let i = 0;
  while (i < data.length) {
    const newline = data.indexOf(10, i);
    const [, , direction, , length] = data.subarray(i, newline).toString('latin1').split(' ');
    if (length === 'CLOSE' || length === 'ERROR') {
      i = newline + 1;
      continue;
    }
    const n = Number(length);
    messages.push({
      direction: direction as RecordedMessage['direction'],
      body: data.subarray(newline + 1, newline + 1 + n).toString('latin1'),
    });
    i = newline + 1 + n + 1;
  }
  return messages;
}

/** `name(arg,...)=value` for each observed fluent of a turn message, in order. */
export function turnFluents(body: string): string[] {
  return [
    ...body.matchAll(
      /<observed-fluent><fluent-name>([^<]*)<\/fluent-name>((?:<fluent-arg>[^<]*<\/fluent-arg>)*)<fluent-value>([^<]*)<\/fluent-value>/g,
    ),
  ].map((m) => `${m[1]}(${[...m[2]!.matchAll(/<fluent-arg>([^<]*)</g)].map((a) => a[1]).join(',')})=${m[3]}`);
}

/** The actions of an `actions` message (bool values, as the recorded policies send). */
export function messageActions(body: string): GroundAction[] {
  return [
    ...body.matchAll(
      /<action><action-name>([^<]*)<\/action-name>((?:<action-arg>[^<]*<\/action-arg>)*)<action-value>([^<]*)<\/action-value><\/action>/g,
    ),
  ].map((m) => ({
    name: m[1]!,
    args: [...m[2]!.matchAll(/<action-arg>([^<]*)</g)].map((a) => a[1]!),
    value: m[3] === 'true',
  }));
}

/** The text of one element, e.g. `<immediate-reward>`. */
export function elementText(body: string, element: string): string | undefined {
  return new RegExp(`<${element}>([^<]*)</${element}>`).exec(body)?.[1];
}
