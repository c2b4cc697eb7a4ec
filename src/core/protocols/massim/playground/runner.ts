/** MASSim in the playground's session worker: matches, matches through the bridge (both ways), and shown transcripts. */
import type { BridgedPlaygroundRunner } from '../../../session/bridge-route';
import { startBridgedMassimHostRun } from './bridged-host-run';
import { startBridgedMassimRun } from './bridged-team-run';
import { startMassimSession } from './session-run';
import { showMassimTranscript } from './shown-store';

/** The runner the session worker loads for MASSim. */
export const massimPlaygroundRunner: BridgedPlaygroundRunner = {
  start: startMassimSession,
  show: showMassimTranscript,
  startBridged: (config, route, services, bridge) => {
    if (route.mode === 'inbound') return startBridgedMassimHostRun(config, route.listen, services, bridge);
    return startBridgedMassimRun(config, route.target, services, bridge);
  },
};
