/**
 * rddlsim's framing as the contract describes it: a client ends each message with one 0 byte; a server
 * does too, except in `<no-header/>` mode, where a message ends where its root element closes.
 */
import type { StreamFraming } from '../contract';
import { encodeNulFrame } from '../../transport/nul-framing';
import { NulSplitter, ServerStreamSplitter } from './framing';

/** The framing of both directions of an rddlsim connection. */
export const rddlsimStreamFraming: StreamFraming = {
  framing: 'nul',
  splitter: (dir, options = {}) => {
    const limit = options.maxFrameBytes === undefined ? {} : { maxMessageBytes: options.maxFrameBytes };
    return dir === 'c2s' ? new NulSplitter(limit) : new ServerStreamSplitter(limit);
  },
  encode: encodeNulFrame,
  clientTerminator: 0,
};
