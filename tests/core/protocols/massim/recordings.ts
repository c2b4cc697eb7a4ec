/**
 * Access to the real-server recordings shared beside the repository (`../shared/conformance/massim`).
 * Missing recordings make the tests fail, never skip.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { importMassimRecording } from '../../../../src/core/protocols/massim/timeline-import';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import type { JsonValue } from '../../../../src/core/envs/massim/api';

/** The folder of the recorded MASSim runs. */
export const recordingsRoot = fileURLToPath(
  new URL('../../../../../shared/conformance/massim/', import.meta.url),
);

/** The recorded runs. */
export const recordedRuns = ['basic', 'multisim', 'events', 'probes', 'bye-race'] as const;

/** The server configuration a run was recorded with. */
export const runConfigs: Record<(typeof recordedRuns)[number], string> = {
  basic: 'acceptance.json',
  multisim: 'multisim.json',
  events: 'events.json',
  probes: 'probes.json',
  'bye-race': 'acceptance.json',
};

/** The files of a run's `connections/` folder, as the importer takes them. */
export function recordingFiles(run: string): { name: string; content: string | Uint8Array }[] {
  const folder = join(recordingsRoot, run, 'connections');
  return readdirSync(folder).map((name) => {
    const bytes = readFileSync(join(folder, name));
    return { name, content: name.endsWith('.bin') ? new Uint8Array(bytes) : bytes.toString('utf8') };
  });
}

/** A run imported as one transcript (timelines plus exact bytes). */
export function loadRecording(run: string): Transcript {
  return importMassimRecording(recordingFiles(run));
}

/** The messages of each connection, in order. */
export function byConnection(transcript: Transcript): Map<string, TranscriptMessage[]> {
  const connections = new Map<string, TranscriptMessage[]>();
  for (const message of transcript.messages) {
    const list = connections.get(message.conn) ?? [];
    list.push(message);
    connections.set(message.conn, list);
  }
  return connections;
}

/** A recorded server configuration file, parsed. */
export function loadConfigJson(name: string): JsonValue {
  return JSON.parse(readFileSync(join(recordingsRoot, 'conf', name), 'utf8')) as JsonValue;
}

/** A recorded server configuration file as text. */
export function loadConfigText(name: string): string {
  return readFileSync(join(recordingsRoot, 'conf', name), 'utf8');
}
