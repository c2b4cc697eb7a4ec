import { describe, expect, it } from 'vitest';
import { detectTranscriptFormat, importTranscript } from '../../../src/core/transcript/import';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { exportWireStreams } from '../../../src/core/transcript/wire-export';
import { loadRecording, recordingBytes } from '../protocols/rddlsim/recordings';

describe('detectTranscriptFormat and importTranscript', () => {
  const recorded = loadRecording('game_of_life_inst_mdp__1');

  it('recognises and imports Protoplay JSON', () => {
    const json = serialiseTranscript(recorded);
    expect(detectTranscriptFormat(json).format).toBe('protoplay-json');
    expect(importTranscript(json)).toEqual(recorded);
  });

  it('recognises and imports record files, as bytes or as pasted text', () => {
    const bytes = recordingBytes('edge-cases/resource_request.transcript');
    expect(detectTranscriptFormat(bytes)).toEqual({
      format: 'record-file',
      description: 'a recorded rddlsim session (record file)',
    });
    expect(importTranscript(bytes).messages).toHaveLength(
      loadRecording('edge-cases/resource_request').messages.length,
    );
    expect(importTranscript(new TextDecoder().decode(bytes)).messages.length).toBeGreaterThan(10);
  });

  it('recognises rddlsim messages pasted from a log, NULs lost, and orders them as pasted', () => {
    const streams = exportWireStreams(recorded);
    const serverText = new TextDecoder().decode(streams[1]!.bytes);
    const firstServerMessage = serverText.slice(0, serverText.indexOf('\0'));
    const pasted = `\n<?xml version="1.0" encoding="UTF-8"?>\n<round-request/>\n${firstServerMessage.replace('session-init', 'session-init')}\n`;
    expect(detectTranscriptFormat(pasted).format).toBe('rddlsim-wire-text');
    expect(importTranscript(pasted).messages.map((m) => m.dir)).toEqual(['c2s', 's2c']);
  });

  it('refuses anything else, saying what it expected', () => {
    expect(detectTranscriptFormat('hello').format).toBe('unknown');
    expect(() => importTranscript('{"a": 1}', { name: 'x.json' })).toThrow(
      'x.json is not a format Protoplay knows: expected Protoplay JSON, a record file or rddlsim XML messages',
    );
  });
});
