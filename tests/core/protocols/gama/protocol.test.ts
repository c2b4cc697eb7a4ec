import { describe, expect, it } from 'vitest';
import { gamaProtocol, prettyPrintGama } from '../../../../src/core/protocols/gama';

describe('gamaProtocol', () => {
  it('describes a WebSocket protocol on port 3001 with six scenarios and three samples', async () => {
    expect(gamaProtocol.id).toBe('gama');
    expect(gamaProtocol.transport).toMatchObject({ kind: 'websocket', defaultPort: 3001 });
    // Every scavenger speaks on the one socket: each frame is recorded with the scavenger it is for.
    const { transport } = gamaProtocol;
    if (transport.kind !== 'websocket') throw new Error('not a WebSocket protocol');
    expect(transport.channelOf?.('Scav. 2;move_up', 's2c')).toBe('Scav. 2');
    expect(gamaProtocol.environments.map((e) => e.id)).toEqual([
      'A_small',
      'B_open',
      'C_basic_single_entrance_region',
      'D_unequal_single_entrance_region',
      'E_multi_entrance_region',
      'F_region_with_no_walls',
    ]);
    expect(gamaProtocol.environments.map((e) => e.id)).toContain(gamaProtocol.defaultEnvironment);
    expect(gamaProtocol.samples.map((s) => s.id)).toContain(gamaProtocol.defaultSample);
    expect(gamaProtocol.machines.map((m) => m.role).sort()).toEqual(['client', 'server']);
    expect(await gamaProtocol.policyTypes('A_small')).toContain('declare function act(');
    expect(gamaProtocol.createReader()).not.toBe(gamaProtocol.createReader());
  });

  it('pretty-prints GAMA frames with one matrix row per line, and replies as they are', () => {
    expect(prettyPrintGama('{ "id": "Scav. 1", "request": { "state": [ [ 0, 4 ] ], "reward": 5 } }')).toBe(
      [
        '{',
        '  "id": "Scav. 1",',
        '  "request": {',
        '    "state": [',
        '      [0, 4]',
        '    ],',
        '    "reward": 5',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(prettyPrintGama('Scav. 1;idle')).toBe('Scav. 1;idle');
  });
});
