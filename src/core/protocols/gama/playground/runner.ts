/** GAMA in the playground's session worker: emulated sessions, sessions through the bridge, and views. */
import type { BridgedPlaygroundRunner } from '../../../session/bridge-route';
import { startBridgedApiRun } from './bridged-api-run';
import { startGamaSession } from './session-run';
import { showGamaTranscript } from './shown-transcript';

/** The runner the session worker loads for GAMA. */
export const gamaPlaygroundRunner: BridgedPlaygroundRunner = {
  start: startGamaSession,
  show: showGamaTranscript,
  startBridged: (config, route, services, bridge) => {
    if (route.mode === 'inbound') return startBridgedApiRun(config, route.listen, services, bridge);
    return Promise.reject(
      new Error('playing the GAMA side against a real API server from the page is not available yet'),
    );
  },
};
