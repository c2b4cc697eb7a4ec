/**
 * `protoplay serve rddlsim` against a client that sends a whole session's requests at once and reads the
 * answers only afterwards: with small limits the server must stop reading it while its answers wait (else
 * they would pile up past the drop limit), then play the whole session once the client reads.
 */
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { RddlLibrary } from '../../../../cli/protocols/rddlsim/rddl-library';
import { RddlsimServer } from '../../../../cli/protocols/rddlsim/server';
import { sharedPath } from '../../shared-folder';

const servers: RddlsimServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const ROUNDS = 200;
const HORIZON = 40;

describe('serve rddlsim limits', () => {
  it('slows a client that does not read its answers to its own pace instead of holding them', async () => {
    const library = await RddlLibrary.fromServerDirectory(sharedPath('rddl/ippc2011'), {
      cwd: process.cwd(),
      mode: 'lenient',
    });
    const log: string[] = [];
    const server = await RddlsimServer.start({
      library,
      host: '127.0.0.1',
      port: 0,
      rounds: ROUNDS,
      seed: 0,
      timeLimitSeconds: 0,
      monitorExecution: false,
      noHeaderScope: 'connection',
      maxMessageBytes: 1 << 20,
      semantics: 'protoplay',
      // About 1.5 KB per turn: 8,000 turns unread would be 12 MB, far past the drop limit of 1 MiB.
      limits: { pauseReadingBytes: 32 * 1024, maxQueuedBytes: 1024 * 1024 },
      log: (line) => log.push(line),
    });
    servers.push(server);
    const socket = connect({ host: '127.0.0.1', port: server.address.port });
    socket.pause();
    const requests = [
      '<session-request><problem-name>sysadmin_inst_mdp__1</problem-name><client-name>flood</client-name></session-request>',
      ...Array.from({ length: ROUNDS }, () => [
        '<round-request/>',
        ...Array(HORIZON).fill('<actions/>'),
      ]).flat(),
    ];
    socket.write(requests.map((text) => `${HEADER}${text}\0`).join(''));
    const turns = await new Promise<number>((resolve) => {
      let count = 0;
      // An unfinished tag at the end of the previous chunk, so a tag split between two reads is still
      // seen (and a whole one at the end is not counted twice).
      let tail = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        const text = tail + chunk;
        count += text.split('<turn>').length - 1;
        if (text.includes('</session-end>')) resolve(count);
        const cut = text.lastIndexOf('<');
        tail = cut >= 0 && !text.includes('>', cut) && text.length - cut < 16 ? text.slice(cut) : '';
      });
      // A dropped connection ends the count short.
      socket.once('close', () => resolve(count));
      socket.resume();
    });
    socket.destroy();
    expect(turns).toBe(ROUNDS * HORIZON);
    expect(log.filter((line) => /does not read|dropping/.test(line))).toEqual([]);
  });
});
