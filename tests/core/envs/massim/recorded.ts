/**
 * Reads the real MASSim server's recorded traffic (shared conformance material next to the repository):
 * the configuration of a run and, per agent, what the server sent it. Missing material makes tests fail.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { JsonValue, MassimServerConfig } from '../../../../src/core/envs/massim/api';
import { parseMassimConfig } from '../../../../src/core/envs/massim/index';

export const CONFORMANCE_DIR = resolve(process.cwd(), '../shared/conformance/massim');

type JsonObject = { [key: string]: JsonValue };

/** One server message to an agent, with the simulation it belongs to (0-based). */
export interface RecordedMessage {
  agent: string;
  sim: number;
  type: string;
  content: JsonObject;
}

/** The configuration file a run was recorded with. */
export function recordedConfig(name: string): MassimServerConfig {
  const file = resolve(CONFORMANCE_DIR, 'conf', `${name}.json`);
  return parseMassimConfig(readFileSync(file, 'utf8'), { source: `${name}.json` });
}

/**
 * Every message the server sent to agents in a run, connection by connection, in order. The simulation of a
 * message is found by time: the server stamps every sim-start of one simulation with the same `time`, and
 * agents that only play a later simulation (or reconnect) see no earlier sim-start.
 */
export function recordedServerMessages(run: string): RecordedMessage[] {
  const dir = resolve(CONFORMANCE_DIR, run, 'connections');
  const received: { agent: string; t: number; type: string; content: JsonObject }[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => /^agent\w+\.conn\d+\.timeline\.jsonl$/.test(name))
    .sort()) {
    const agent = file.split('.')[0]!;
    for (const line of readFileSync(resolve(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line) as { t: number; dir: string; text: string };
      if (entry.dir !== 's2c') continue;
      const message = JSON.parse(entry.text) as { type: string; content: JsonObject };
      received.push({ agent, t: entry.t, type: message.type, content: message.content });
    }
  }
  const simStarts = [
    ...new Set(received.filter((m) => m.type === 'sim-start').map((m) => m.content['time'] as number)),
  ].sort((a, b) => a - b);
  return received.map(({ agent, t, type, content }) => ({
    agent,
    sim: simStarts.filter((time) => time <= t).length - 1,
    type,
    content,
  }));
}

/** The actions an agent sent in a run, by request id (the first one per id, as the server counts them). */
export function recordedActions(run: string): Map<string, Map<number, { type: string; p: string[] }>> {
  const dir = resolve(CONFORMANCE_DIR, run, 'connections');
  const byAgent = new Map<string, Map<number, { type: string; p: string[] }>>();
  for (const file of readdirSync(dir).filter((name) => /^agent\w+\.conn\d+\.timeline\.jsonl$/.test(name))) {
    const agent = file.split('.')[0]!;
    const actions = byAgent.get(agent) ?? new Map<number, { type: string; p: string[] }>();
    byAgent.set(agent, actions);
    for (const line of readFileSync(resolve(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line) as { dir: string; text: string };
      if (entry.dir !== 'c2s') continue;
      let message: { type?: string; content?: { id?: unknown; type?: string; p?: unknown[] } };
      try {
        message = JSON.parse(entry.text) as typeof message;
      } catch {
        continue;
      }
      const content = message.content;
      if (message.type !== 'action' || !content || !Array.isArray(content.p)) continue;
      const id = Number(content.id);
      if (!actions.has(id))
        actions.set(id, { type: content.type ?? 'unknown_action', p: content.p.map(String) });
    }
  }
  return byAgent;
}
