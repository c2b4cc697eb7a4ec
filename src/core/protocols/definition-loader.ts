/**
 * One built-in protocol's definition, loaded on its own by its id, for a process that runs one protocol (the
 * command line's policy thread) and need not load every protocol's definition, as importing the registry
 * (`registry.ts`) does. A built-in protocol's folder is named by its id (the registry's protocols and the
 * layering rules rely on it) and its `protocol.ts` exports the definition; that module is imported only
 * when asked, so a bundle keeps each definition in a chunk of its own.
 */
import { ProtoplayError } from '../errors';
import type { Protocol } from './contract';

/** What a protocol's folder name may be. */
const FOLDER_NAME = /^[a-z][a-z0-9-]*$/;

/** The definition of the built-in protocol `id`; a located error when there is none. */
export async function loadBuiltInProtocol(id: string): Promise<Protocol> {
  if (!FOLDER_NAME.test(id)) throw unknown(id);
  let module: Record<string, unknown>;
  try {
    module = (await import(`./${id}/protocol.ts`)) as Record<string, unknown>;
  } catch (error) {
    throw new ProtoplayError(
      'protocol.unknown',
      `no protocol '${id}' could be loaded: ${(error as Error).message}`,
    );
  }
  const definition = Object.values(module).find(
    (value): value is Protocol =>
      typeof value === 'object' && value !== null && (value as Partial<Protocol>).id === id,
  );
  if (!definition) throw unknown(id);
  return definition;
}

function unknown(id: string): ProtoplayError {
  return new ProtoplayError('protocol.unknown', `no protocol '${id}' is built in`);
}
