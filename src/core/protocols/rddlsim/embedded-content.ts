/** Decodes the parts of rddlsim messages worth reading decoded: the base64 RDDL task of a session-init. */
import { parseServerMessage } from './codec';
import { base64ToBytes } from '../../transcript/bytes';
import type { EmbeddedContent } from '../contract';

const utf8 = new TextDecoder();

/** The decoded task of a session-init (domain and instance RDDL); nothing for other messages. */
export function rddlsimEmbeddedContent(text: string): EmbeddedContent[] {
  if (!text.includes('<session-init')) return [];
  try {
    const message = parseServerMessage(text);
    if (message.type !== 'session-init') return [];
    return [{ label: 'Task (decoded)', content: utf8.decode(base64ToBytes(message.task.trim())) }];
  } catch {
    return [];
  }
}
