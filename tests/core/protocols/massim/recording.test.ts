import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import { encodeNulFrame } from '../../../../src/core/transport/nul-framing';
import { MassimHost } from '../../../../src/core/protocols/massim/host';
import type { MassimOutgoingFrame } from '../../../../src/core/protocols/massim/outgoing';
import { VirtualScheduler } from '../../../../src/core/protocols/massim/scheduler';
import { base64ToBytes } from '../../../../src/core/transcript/bytes';

const utf8 = new TextEncoder();

/** What one agent sends at each step: plain actions, and actions the pattern leaves to the org.json reader. */
const answers = [
  (id: number) => utf8.encode(`{"type":"action","content":{"id":${id},"type":"move","p":["n","e"]}}`),
  (id: number) => utf8.encode(`{"type":"action", "content": {"id": ${id}, "type": "skip", "p": []}}`),
  (id: number) => utf8.encode(`{"type":"action","content":{"id":${id},"type":"clear","p":[1,-2.50]}}`),
  (id: number) => utf8.encode(`{"type":"action","content":{"id":${id},"type":"mövé","p":["\\u00e9"]}}`),
  // Not UTF-8: kept as base64, and the server reads it with replacement characters.
  (id: number) =>
    new Uint8Array([
      ...utf8.encode(`{"type":"action","content":{"id":${id},"type":"skip","p":["`),
      0xff,
      ...utf8.encode('"]}}'),
    ]),
];

describe('the host’s recording', () => {
  it('keeps every frame an agent sent byte for byte, plain actions as phrases', () => {
    const scheduler = new VirtualScheduler(0);
    const config = quickMassimConfig({ agentsPerTeam: 1, steps: answers.length, width: 12, height: 12 });
    const host = new MassimHost({ config, scheduler, seed: 1 });
    const sent: Uint8Array[] = [];
    let step = 0;
    for (const name of ['agentA1', 'agentB1']) {
      const connection = host.connect({
        deliver: (frame: MassimOutgoingFrame) => {
          if (frame.type !== 'request-action' || name !== 'agentA1') return;
          const id = (frame.judged as { content: { id: number } }).content.id;
          const bytes = answers[step++]!(id);
          sent.push(bytes);
          queueMicrotask(() => connection.receive(new Uint8Array([...bytes, 0])));
        },
        close: () => undefined,
      });
      connection.receive(
        encodeNulFrame(JSON.stringify({ type: 'auth-request', content: { user: name, pw: '1' } })),
      );
      if (name === 'agentA1')
        sent.push(utf8.encode(JSON.stringify({ type: 'auth-request', content: { user: name, pw: '1' } })));
    }
    host.start();
    return new Promise<void>((resolve) => {
      const drive = () => {
        if (host.status.phase === 'finished' || !scheduler.fireNext()) {
          const store = host.store;
          const received = host.transcript.messages.filter(
            (m) => m.conn === 'agentA1.conn1' && m.dir === 'c2s' && m.kind === 'data',
          );
          expect(
            received.map((m) => (m.base64 !== undefined ? base64ToBytes(m.base64) : utf8.encode(m.text!))),
          ).toEqual(sent);
          // Only the plain action went in as phrases.
          const phrased = received.map((m) => store.readPhrases(m.index, { push: () => undefined }));
          expect(phrased).toEqual([false, true, false, false, false, false]);
          // The agent's moves were executed as read.
          const echoes = host.transcript.messages
            .filter(
              (m) => m.conn === 'agentA1.conn1' && m.dir === 's2c' && m.text?.includes('request-action'),
            )
            .map(
              (m) =>
                JSON.parse(m.text!).content.percept as { lastAction: string; lastActionParams: string[] },
            );
          expect(echoes.slice(1).map((p) => [p.lastAction, ...p.lastActionParams])).toEqual([
            ['move', 'n', 'e'],
            ['skip'],
            ['clear', '1', '-2.50'],
            ['mövé', 'é'],
          ]);
          resolve();
        } else queueMicrotask(drive);
      };
      queueMicrotask(drive);
    });
  });
});
