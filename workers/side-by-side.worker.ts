/**
 * A side-by-side worker: reads two transcripts of one seed and lines them up off the page's main thread
 * (see src/core/evaluation/side-by-side-thread.ts). The page ends it to cancel.
 */
import type { FromSideBySideThread, ToSideBySideThread } from '../src/core/evaluation/side-by-side-thread';
import { serveSideBySide } from '../src/core/evaluation/side-by-side-thread';

serveSideBySide({
  post: (message: FromSideBySideThread, transfer?: ArrayBuffer[]) =>
    self.postMessage(message, { transfer: transfer ?? [] }),
  listen: (handler) =>
    self.addEventListener('message', (event: MessageEvent<ToSideBySideThread>) => handler(event.data)),
});
