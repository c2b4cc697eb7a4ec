/**
 * The RDDL language worker: the editor's checks, completions, hovers and folding, and the policy types of
 * the loaded domain, computed off the page so typing never waits for a parse or a grounding. A thin Comlink
 * shell over the core's RDDL services; the page wraps every call with a deadline.
 */
import * as Comlink from 'comlink';
import {
  listInstances,
  loadRddl,
  rddlLanguage,
  type CheckOptions,
  type RddlSource,
} from '../src/core/envs/rddl';
import { generatePolicyTypes } from '../src/core/protocols/rddlsim/policy-types';
import { starterPolicy } from '../src/core/protocols/rddlsim/starter-policy';
import { describeError } from '../src/core/errors';

const api = {
  /** Every problem of the texts (syntax, domain, each instance), located, in the semantics asked for. */
  diagnose: (sources: RddlSource[], options: CheckOptions = {}) => rddlLanguage.diagnose(sources, options),
  /** Names of the instances the texts define. */
  instances: (sources: RddlSource[]) => listInstances(sources),
  /**
   * The policy editor's declarations for an instance and a starting policy written against them; rejects
   * with the located load error.
   */
  policyTypes(
    sources: RddlSource[],
    instance?: string,
    options: CheckOptions = {},
  ): { types: string; starter: string } {
    try {
      const { info } = loadRddl(sources, {
        ...(instance ? { instance } : {}),
        ...(options.rddlsimSemantics ? { rddlsimQuirks: true } : {}),
      });
      return { types: generatePolicyTypes(info), starter: starterPolicy(info) };
    } catch (error) {
      // A plain Error crosses the worker boundary intact; the location goes into its message.
      throw new Error(describeError(error), { cause: error });
    }
  },
  completions: (sources: RddlSource[], sourceName: string, position: rddlLanguage.TextPosition) =>
    rddlLanguage.completionsAt(sources, sourceName, position),
  hover: (sources: RddlSource[], sourceName: string, position: rddlLanguage.TextPosition) =>
    rddlLanguage.hoverAt(sources, sourceName, position),
  folding: (text: string) => rddlLanguage.foldingRanges(text),
};

/** What the worker exposes. */
export type RddlLanguageWorkerApi = typeof api;

// The worker's global scope, named: test runners that emulate workers provide it as `self` only.
Comlink.expose(api, self as unknown as Comlink.Endpoint);
