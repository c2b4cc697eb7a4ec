import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BridgeSocketConstructor } from '../../../src/core/bridge/bridge-socket';
import { readBridgeMessage, readPageMessage } from '../../../src/core/bridge/control-parsing';
import {
  bodyFromJson,
  bodyToJson,
  decodeDataFrame,
  encodeDataFrame,
  FIRST_ACCEPTED_CHANNEL_ID,
} from '../../../src/core/bridge/control-protocol';

// Compile-time: the browser's WebSocket (DOM typings) and ws's both fit the client's option.
const browserSocket: BridgeSocketConstructor | undefined = (
  globalThis as { WebSocket?: typeof globalThis.WebSocket }
).WebSocket;
const nodeSocket: BridgeSocketConstructor = WebSocket;

describe('data frames', () => {
  it('carry the channel id and the kind ahead of the payload', () => {
    const frame = encodeDataFrame(0xfffffffe, 'text', new TextEncoder().encode('héllo'));
    expect([...frame.subarray(0, 5)]).toEqual([0xff, 0xff, 0xff, 0xfe, 1]);
    const decoded = decodeDataFrame(frame);
    expect(decoded).toMatchObject({ id: 0xfffffffe, kind: 'text' });
    expect(new TextDecoder().decode((decoded as { payload: Uint8Array }).payload)).toBe('héllo');
    expect(decodeDataFrame(encodeDataFrame(7, 'bytes', new Uint8Array([0])))).toMatchObject({
      id: 7,
      kind: 'bytes',
    });
  });

  it('are read from a view into a larger buffer', () => {
    const frame = encodeDataFrame(42, 'bytes', new Uint8Array([9, 8]));
    const padded = new Uint8Array(frame.length + 3);
    padded.set(frame, 3);
    expect(decodeDataFrame(padded.subarray(3))).toMatchObject({ id: 42, kind: 'bytes' });
  });

  it('explain a malformed frame', () => {
    expect(decodeDataFrame(new Uint8Array([1, 2]))).toBe('a data frame needs a 5-byte header, got 2 bytes');
    expect(decodeDataFrame(new Uint8Array([0, 0, 0, 3, 7]))).toBe(
      'data frame for channel 3 has unknown kind 7',
    );
  });
});

describe('HTTP bodies in JSON', () => {
  it('stay text when they are UTF-8 and go base64 otherwise', () => {
    expect(bodyToJson(new TextEncoder().encode('{"a":"é"}'))).toEqual({ body: '{"a":"é"}' });
    const binary = new Uint8Array([0xff, 0x00, 0xfe]);
    const json = bodyToJson(binary);
    expect(json.body).toBe('');
    expect([...(bodyFromJson(json) as Uint8Array)]).toEqual([0xff, 0x00, 0xfe]);
    expect(bodyFromJson({ body: '', bodyBase64: '%%%' })).toBe('bodyBase64 is not valid base64');
  });
});

describe('control messages', () => {
  it('read what each side sends', () => {
    expect(readPageMessage('{"op":"hello","token":"t"}')).toEqual({ op: 'hello', token: 't' });
    expect(readPageMessage('{"op":"open","id":1,"target":"rddlsim"}')).toEqual({
      op: 'open',
      id: 1,
      target: 'rddlsim',
    });
    expect(
      readPageMessage(
        '{"op":"request","id":3,"exchange":1,"method":"GET","path":"/","headers":{},"body":""}',
      ),
    ).toMatchObject({ op: 'request', id: 3, exchange: 1 });
    expect(
      readBridgeMessage(
        '{"op":"welcome","version":1,"targets":[{"name":"a","transport":"http","url":"http://x:1"}],"listens":[]}',
      ),
    ).toMatchObject({ op: 'welcome', targets: [{ name: 'a' }] });
    expect(
      readBridgeMessage('{"op":"welcome","version":1,"targets":[],"listens":[],"responseTimeoutMs":5000}'),
    ).toEqual({ op: 'welcome', version: 1, targets: [], listens: [], responseTimeoutMs: 5000 });
    expect(readBridgeMessage('{"op":"closed","id":4}')).toEqual({ op: 'closed', id: 4 });
  });

  it('name the field that is wrong', () => {
    expect(readPageMessage('[1]')).toBe('a control message must be a JSON object');
    expect(readPageMessage('{"token":"t"}')).toBe('a control message needs an "op" string');
    expect(readPageMessage('{"op":"hello"}')).toBe('"hello" needs "token" as a string');
    expect(readPageMessage(`{"op":"open","id":${FIRST_ACCEPTED_CHANNEL_ID},"target":"a"}`)).toBe(
      '"open" needs "id" as a channel id from 1 to 2147483647',
    );
    expect(readPageMessage('{"op":"response","id":3,"exchange":1,"status":42,"headers":{},"body":""}')).toBe(
      '"response" needs "status" as an HTTP status (100 to 599)',
    );
    expect(
      readPageMessage(
        '{"op":"request","id":3,"exchange":1,"method":"GET","path":"/","headers":{"a":1},"body":""}',
      ),
    ).toBe('"request" needs "headers" as an object of strings');
    expect(
      readBridgeMessage(
        '{"op":"welcome","version":1,"targets":[{"name":"a","transport":"ftp","url":""}],"listens":[]}',
      ),
    ).toBe('"welcome" needs "targets" as a list of {name, transport, url}');
    expect(
      readBridgeMessage('{"op":"welcome","version":1,"targets":[],"listens":[],"responseTimeoutMs":-1}'),
    ).toBe('"welcome" needs "responseTimeoutMs" as a positive whole number of milliseconds');
  });

  it('keep the compile-time socket checks alive', () => {
    expect(typeof nodeSocket).toBe('function');
    expect(browserSocket === undefined || typeof browserSocket === 'function').toBe(true);
  });
});
