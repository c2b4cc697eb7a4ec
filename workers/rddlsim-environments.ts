/** The built-in RDDL examples, loaded for the emulated server. */
import { EXAMPLE_DOMAINS, exampleSources, loadRddl } from '../src/core/envs/rddl';
import type { RddlModel } from '../src/core/envs/rddl/api';
import { rddlsimTaskText } from '../src/core/protocols/rddlsim/host';

/** A loaded example: the model and the session-init task text the real server would send. */
export interface LoadedEnvironment {
  model: RddlModel;
  task: string;
}

const loaded = new Map<string, LoadedEnvironment>();

/** Loads (once per worker) the example with this id; throws a located error for a broken one. */
export function loadExampleEnvironment(id: string): LoadedEnvironment {
  const cached = loaded.get(id);
  if (cached) return cached;
  const example = EXAMPLE_DOMAINS.find((e) => e.id === id);
  if (!example) throw new Error(`there is no built-in domain '${id}'`);
  const environment = {
    model: loadRddl(exampleSources(example)),
    task: rddlsimTaskText(example.domain, example.instance),
  };
  loaded.set(id, environment);
  return environment;
}
