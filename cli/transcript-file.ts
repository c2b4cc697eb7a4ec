/**
 * Writing transcripts in the playground's JSON format (`protoplay-transcript`, version 1), so a session
 * played on the command line opens in the browser with every view.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { serialiseTranscript } from '../src/core/transcript/json-format';
import type { Transcript } from '../src/core/transcript/model';
import { CliError, ExitCode } from './command-line/exit-codes';

/** Writes a transcript as JSON; creates the folder if needed. */
export async function writeTranscriptFile(
  path: string,
  transcript: Transcript,
  cwd: string,
): Promise<string> {
  const absolute = resolve(cwd, path);
  try {
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, serialiseTranscript(transcript));
  } catch (error) {
    throw new CliError(
      ExitCode.failure,
      `cannot write the transcript to '${path}': ${(error as Error).message}`,
    );
  }
  return absolute;
}
