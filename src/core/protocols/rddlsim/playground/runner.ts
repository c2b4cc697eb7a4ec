/** rddlsim in the playground's session worker: emulated sessions, sessions through the bridge, and views. */
import type { BridgedPlaygroundRunner } from '../../../session/bridge-route';
import { startBridgedClientRun } from './bridged-client-run';
import { startBridgedHostRun } from './bridged-host-run';
import { startRddlsimSession } from './session-run';
import { showRddlsimTranscript } from './shown-transcript';

/** The runner the session worker loads for rddlsim. */
export const rddlsimPlaygroundRunner: BridgedPlaygroundRunner = {
  start: startRddlsimSession,
  show: showRddlsimTranscript,
  startBridged: (config, route, services, bridge) => {
    if (route.mode === 'outbound') return startBridgedClientRun(config, route.target, services, bridge);
    return startBridgedHostRun(config, route.listen, services, bridge);
  },
};

export type { RddlSessionSource } from './environments';
