/**
 * What every live session sends and stores: an update batcher for the page and a keeper that stores the
 * transcript whenever the status the batcher last sent says the session is quiet (or while it runs).
 */
import type { PlaygroundServices } from '../protocols/session-contract';
import { serialiseTranscript } from '../transcript/json-format';
import { TranscriptKeeper } from './transcript-keeper';
import { transcriptSource, type JournalSource } from './transcript-journal';
import { UpdateBatcher, type BatchedContent } from './update-batcher';

/** Options of `liveUpdates`. */
export interface LiveUpdatesOptions {
  /** What goes to the page. */
  content: BatchedContent;
  /** The protocol the first batch names. */
  protocol: string;
  /**
   * The transcript as JSON pieces to store, undefined when it is too big to keep. Without it, the
   * content's transcript is stored as it is (up to `maxKeptMessages`).
   */
  write?: () => string[] | undefined;
  /** Most messages of the content's transcript stored across reloads (default: no bound). */
  maxKeptMessages?: number;
  /** How often to store while running (see `TranscriptKeeperOptions`). */
  everyMs?: number;
  /**
   * The transcript for stores that append (with `write`; without either, the content's transcript is
   * the source). Without a source every store writes the whole transcript.
   */
  source?: JournalSource;
}

/** A live session's batcher and keeper, wired together. */
export interface LiveUpdates {
  batcher: UpdateBatcher;
  keeper: TranscriptKeeper;
}

/** Creates the batcher and keeper of a live session. */
export function liveUpdates(
  services: Pick<PlaygroundServices, 'listener' | 'nextFrame' | 'keepTranscript' | 'keepTranscriptPart'>,
  options: LiveUpdatesOptions,
): LiveUpdates {
  const { content, maxKeptMessages = Infinity } = options;
  const write =
    options.write ??
    (content.kind === 'transcript'
      ? () =>
          content.transcript.messages.length > maxKeptMessages
            ? undefined
            : [serialiseTranscript(content.transcript)]
      : () => undefined);
  const source =
    options.source ??
    (options.write === undefined && content.kind === 'transcript'
      ? transcriptSource(content.transcript, maxKeptMessages)
      : undefined);
  const keepPart = services.keepTranscriptPart?.bind(services);
  const keeper = new TranscriptKeeper({
    write,
    keep: (json, how) => services.keepTranscript(json, how),
    everyMs: options.everyMs,
    ...(source && keepPart ? { source, keepPart } : {}),
  });
  const batcher = new UpdateBatcher({
    listener: services.listener,
    nextFrame: services.nextFrame,
    content,
    reset: { protocol: options.protocol, origin: 'live' },
    onStatus: (status) => keeper.status(status),
  });
  return { batcher, keeper };
}
