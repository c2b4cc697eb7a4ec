/**
 * Writing transcripts in the playground's JSON format (`protoplay-transcript`), so a session played on the
 * command line opens in the browser with every view. One writer for every protocol: a plain transcript, a
 * transcript store or a part of one is written piece by piece, so a contest-sized session never exists as
 * one string.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  plainTranscriptSource,
  writeTranscriptJson,
  type TranscriptJsonSource,
} from '../src/core/transcript/json-export';
import type { Transcript } from '../src/core/transcript/model';
import { CliError, ExitCode } from './command-line/exit-codes';

/** Writes a transcript (or a store, or a part of one) as JSON; creates the folder if needed. */
export function writeTranscriptJsonFile(
  path: string,
  source: Transcript | TranscriptJsonSource,
  cwd: string,
): string {
  const absolute = resolve(cwd, path);
  const from = 'messageJson' in source ? source : plainTranscriptSource(source);
  let fd: number | undefined;
  try {
    mkdirSync(dirname(absolute), { recursive: true });
    fd = openSync(absolute, 'w');
    const target = fd;
    writeTranscriptJson(from, (piece) => writeSync(target, piece));
  } catch (error) {
    throw new CliError(
      ExitCode.failure,
      `cannot write the transcript to '${path}': ${(error as Error).message}`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return absolute;
}

/** `writeTranscriptJsonFile` for callers that wait on a promise; resolves to the absolute path. */
export async function writeTranscriptFile(
  path: string,
  source: Transcript | TranscriptJsonSource,
  cwd: string,
): Promise<string> {
  return writeTranscriptJsonFile(path, source, cwd);
}
