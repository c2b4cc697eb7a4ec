/**
 * A variant of the counter game whose rewards are not on the wire: the reader takes each round and its
 * total from `reward` annotations (`{ kind: 'round', round, reward }`) alone, as a protocol whose host
 * reports scores beside the traffic would. The tests use it to show that every way of reading a
 * transcript hands the annotations to the protocol's reader.
 */
import type { Protocol } from '../../../src/core/protocols/contract';
import type { RoundSummary, TranscriptReader } from '../../../src/core/protocols/reading';
import { counterProtocol } from './protocol';
import { createCounterReader } from './reader';

function createAnnotatedRewardsReader(): TranscriptReader {
  const counter = createCounterReader();
  const rounds: RoundSummary[] = [];
  return {
    messages: counter.messages,
    turns: counter.turns,
    notes: counter.notes,
    rounds,
    append(messages, annotations) {
      counter.append(messages, annotations);
      for (const annotation of annotations) {
        const data = annotation.data as { kind?: unknown; round?: unknown; reward?: unknown } | null;
        if (annotation.type !== 'reward' || data?.kind !== 'round') continue;
        if (typeof data.round !== 'number' || typeof data.reward !== 'number') continue;
        rounds.push({ round: data.round, total: data.reward, stepRewards: [], endIndex: annotation.index });
      }
    },
  };
}

// Only read here: no playground nor endpoints of its own.
const { playground: _playground, endpoints: _endpoints, ...definition } = counterProtocol;

export const annotatedRewardsProtocol: Protocol = {
  ...definition,
  id: 'counter-annotated',
  label: 'Counter (rewards in annotations)',
  description: 'The counter game, its rewards reported in annotations (tests only)',
  createReader: createAnnotatedRewardsReader,
};

export default annotatedRewardsProtocol;
