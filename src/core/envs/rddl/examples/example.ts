/** The shape of a built-in example: an RDDL domain and one instance, written for learners. */
import type { RddlSource } from '../api';

/** A built-in example domain with one instance. */
export interface ExampleDomain {
  /** Stable identifier (also the file name stem). */
  id: string;
  title: string;
  /** Two or three sentences for the picker: what the agent controls and what it is rewarded for. */
  description: string;
  /** What the example shows about the language. */
  features: string[];
  /** Domain text. */
  domain: string;
  /** Non-fluents and instance text. */
  instance: string;
}

/** The example as named texts, ready for `loadRddl`. */
export function exampleSources(example: ExampleDomain): RddlSource[] {
  return [
    { name: `${example.id}.rddl`, text: example.domain },
    { name: `${example.id}_inst.rddl`, text: example.instance },
  ];
}
