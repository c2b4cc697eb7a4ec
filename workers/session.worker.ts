/**
 * The session worker: runs one session at a time (host, environment, and the policy in a nested policy
 * worker) and reports to the page in per-frame batches. A thin Comlink shell: starting a session picks the
 * protocol's runner; the controls go to the session under way.
 */
import * as Comlink from 'comlink';
import { massimWorkerApi, startMassimSession } from './massim-session';
import { prewarmPolicyWorker } from './policy-endpoint';
import { startRddlsimSession, type RunningSession } from './rddlsim-session';
import type { SessionUpdate, SessionWorkerApi } from './session-api';

let current: RunningSession | undefined;

const api: SessionWorkerApi = {
  async start(config, listener) {
    current?.abandon();
    current = undefined;
    try {
      current =
        config.protocol === 'massim'
          ? await startMassimSession(config, listener)
          : await startRddlsimSession(config, listener);
    } catch (error) {
      const update: SessionUpdate = {
        messages: [],
        annotations: [],
        status: 'failed',
        error: `The session could not start: ${error instanceof Error ? error.message : String(error)}`,
      };
      listener.update(JSON.stringify(update));
    }
  },
  pause: () => current?.gate.pause(),
  resume: () => current?.gate.resume(),
  step: () => current?.gate.step(),
  stop: () => current?.stop(),
  setDelay: (ms) => current?.gate.setDelay(ms),
  decide: (choice) => current?.decide(choice),
  massim: massimWorkerApi,
};

// The default endpoint is the worker global scope.
Comlink.expose(api);
prewarmPolicyWorker();
