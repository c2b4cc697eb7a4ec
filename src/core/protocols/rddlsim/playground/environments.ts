/** The RDDL a session plays, loaded for the emulated server: a built-in example, or texts from the page. */
import { EXAMPLE_DOMAINS, exampleSources, loadRddl, parseRddl, type RddlSource } from '../../../envs/rddl';
import type { RddlModel } from '../../../envs/rddl/api';
import { describeError } from '../../../errors';
import { rddlsimTaskText } from '../host';

/** RDDL texts sent with a session: the domain and instance as the learner edited or opened them. */
export interface RddlSessionSource {
  files: RddlSource[];
  /** The instance to play, when the texts define several. */
  instance?: string;
  /** Reproduce rddlsim's evaluation quirks in the simulator. */
  rddlsimQuirks: boolean;
}

/** A loaded environment: the model and the session-init task text the real server would send. */
export interface LoadedEnvironment {
  model: RddlModel;
  task: string;
}

/** Loaded texts by content, so running the same texts again does not parse and compile them again. */
const loaded = new Map<string, LoadedEnvironment>();
const CACHE_LIMIT = 8;

/**
 * The task the real server would send for these texts: the file holding the instance's domain, then the
 * file(s) holding the instance and its non-fluents (the server reads one domain file and one instance
 * file; texts holding neither are left out, as the server never reads them).
 */
function taskText(files: readonly RddlSource[], model: RddlModel): string {
  const { domain, instance, nonFluents } = model.info;
  const holds = (file: RddlSource, kind: string, name: string | undefined) =>
    name !== undefined &&
    parseRddl(file).file.blocks.some((block) => block.kind === kind && block.name === name);
  const domainFiles = files.filter((f) => holds(f, 'domain', domain));
  const instanceFiles = files.filter(
    (f) =>
      !domainFiles.includes(f) && (holds(f, 'instance', instance) || holds(f, 'non-fluents', nonFluents)),
  );
  const text = (list: RddlSource[]) => list.map((f) => f.text).join('\n\n');
  return rddlsimTaskText(text(domainFiles), text(instanceFiles));
}

/**
 * Loads the texts of a session (once per worker for the same texts); throws an Error whose message is
 * located (`file:line:column: ...`) for a broken one.
 */
export function loadSessionEnvironment(source: RddlSessionSource): LoadedEnvironment {
  const quirks = source.rddlsimQuirks ?? false;
  const key = JSON.stringify([source.files, source.instance ?? null, quirks]);
  const cached = loaded.get(key);
  if (cached) return cached;
  let model: RddlModel;
  try {
    model = loadRddl(source.files, {
      ...(source.instance ? { instance: source.instance } : {}),
      rddlsimQuirks: quirks,
    });
  } catch (error) {
    throw new Error(describeError(error), { cause: error });
  }
  const environment = { model, task: taskText(source.files, model) };
  if (loaded.size >= CACHE_LIMIT) loaded.delete(loaded.keys().next().value!);
  loaded.set(key, environment);
  return environment;
}

/** Loads the built-in example with this id (its texts as shipped). */
export function loadExampleEnvironment(id: string): LoadedEnvironment {
  const example = EXAMPLE_DOMAINS.find((e) => e.id === id);
  if (!example) throw new Error(`there is no built-in domain '${id}'`);
  return loadSessionEnvironment({ files: exampleSources(example), rddlsimQuirks: false });
}
