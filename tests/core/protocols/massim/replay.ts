/**
 * Drives our host with the agent side of a recorded real-server run: every recorded agent frame, connection
 * and disconnection is replayed at the same point of the match (before the start, or once the host has sent
 * the request-actions of the same step of the same simulation), on a virtual clock whose deadlines fire
 * only when every scripted frame of the step has been delivered.
 */
import { parseMassimConfig } from '../../../../src/core/envs/massim/index';
import { MassimHost, type MassimHostConnection } from '../../../../src/core/protocols/massim/host';
import { VirtualScheduler } from '../../../../src/core/protocols/massim/scheduler';
import { encodeNulFrame } from '../../../../src/core/transport/nul-framing';
import type { MassimServerMessage } from '../../../../src/core/protocols/massim/messages';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import { loadConfigText, loadRecording, runConfigs, type recordedRuns } from './recordings';

/** What one recorded connection received from our host. */
export interface ReplayedConnection {
  /** Messages our host sent on the connection that replays this recorded one. */
  received: MassimServerMessage[];
  /** Our host's transcript id for it. */
  hostId?: string;
}

/** The outcome of a replay. */
export interface Replay {
  recorded: Transcript;
  host: MassimHost;
  /** By recorded connection id. */
  connections: Map<string, ReplayedConnection>;
}

type Anchor = string; // "pre" or "<simulation>:<step>"

/** Replays a recorded run's agent side against our host configured like the recording. */
export function replayRecording(run: (typeof recordedRuns)[number], seed = 1): Replay {
  const recorded = loadRecording(run);
  const config = parseMassimConfig(loadConfigText(runConfigs[run]), { source: runConfigs[run] });
  const scheduler = new VirtualScheduler(recorded.startedAt);
  let simulation = -1;
  const host = new MassimHost({
    config,
    scheduler,
    seed,
    recordWorld: false,
    onEvent: (event) => {
      if (event.kind === 'simulation-start') simulation++;
    },
  });

  const script = new Map<Anchor, TranscriptMessage[]>();
  for (const [message, anchor] of anchorAgentEvents(recorded)) {
    const list = script.get(anchor) ?? [];
    list.push(message);
    script.set(anchor, list);
  }

  const connections = new Map<string, ReplayedConnection>();
  const open = new Map<string, MassimHostConnection>();
  const reached = new Set<Anchor>();
  const play = (anchor: Anchor) => {
    if (reached.has(anchor)) return;
    reached.add(anchor);
    for (const message of script.get(anchor) ?? []) {
      let connection = open.get(message.conn);
      if (!connection && message.kind !== 'close') {
        const replayed: ReplayedConnection = { received: [] };
        connections.set(message.conn, replayed);
        connection = host.connect({
          send: (_text, sent) => {
            replayed.received.push(sent);
            if (sent.type === 'request-action') play(`${simulation}:${sent.content.step}`);
          },
          close: () => undefined,
        });
        open.set(message.conn, connection);
      }
      if (message.kind === 'data') {
        connection!.receive(encodeNulFrame(message.text ?? ''));
        connections.get(message.conn)!.hostId = connection!.id;
      } else if (message.kind === 'close' && connection) {
        connection.disconnect();
      }
    }
  };
  play('pre');
  host.start();
  while (host.status.phase !== 'finished' && scheduler.fireNext()) {
    /* deadlines and pauses, in time order */
  }
  return { recorded, host, connections };
}

/**
 * Where each agent-side event of the recording happened: before the first request-action ("pre"), or
 * after the request-actions of a step (the latest one any connection had received by then).
 */
function anchorAgentEvents(recorded: Transcript): [TranscriptMessage, Anchor][] {
  const anchored: [TranscriptMessage, Anchor][] = [];
  const startTimes = new Set<number>();
  let anchor: Anchor = 'pre';
  for (const message of recorded.messages) {
    if (message.dir === 's2c' && message.kind === 'data') {
      const parsed = JSON.parse(message.text!) as MassimServerMessage;
      if (parsed.type === 'sim-start') startTimes.add(parsed.content.time);
      if (parsed.type === 'request-action') anchor = `${startTimes.size - 1}:${parsed.content.step}`;
      continue;
    }
    const clientSide = message.dir === 'c2s' && (message.kind === 'data' || message.kind === 'close');
    if (clientSide) anchored.push([message, anchor]);
  }
  return anchored;
}
