/**
 * What the original GAMA model and API server do that a learner should know, for the protocol's notes
 * panel and the documentation. Where Protoplay differs by default, the note says how to get the original.
 */

/** One note: a short title and what it means. */
export interface GamaProtocolNote {
  title: string;
  text: string;
}

/** The notes, most important first. */
export const GAMA_PROTOCOL_NOTES: readonly GamaProtocolNote[] = [
  {
    title: 'GAMA is the client',
    text: 'The API server listens (ws://localhost:3001 in the original); GAMA connects, and every scavenger shares that one WebSocket. Each message is one text frame, without terminator.',
  },
  {
    title: 'Replies name their scavenger',
    text: "Every scavenger reads every reply on the shared socket and keeps only those starting with its own id: answer 'Scav. 3;move_ahead' as bare text, not as a JSON string. A reply addressed to another scavenger is ignored and GAMA keeps waiting.",
  },
  {
    title: 'One request at a time',
    text: 'Within a cycle the scavengers ask in turn, each waiting for its answer (the simulation is blocked meanwhile), so a scavenger sees the moves of those before it. Scavengers in time-out do not ask.',
  },
  {
    title: 'Unknown actions do nothing',
    text: "An action that is not one of the eight is logged as unrecognized and does nothing; the scavenger's turn is spent.",
  },
  {
    title: 'terminal',
    text: 'The written protocol has "terminal": true on a last request; the original GAMA model never sent it (episodes ended by closing the socket). Protoplay sends it to every scavenger at the end of an episode unless told not to (--no-terminal).',
  },
  {
    title: 'reward',
    text: 'Always a number: 5 per resource collected since the scavenger last asked, else 0 (never null, though the text allows it).',
  },
  {
    title: 'Observation',
    text: 'The written protocol documents the integer legend (0 empty, 1 resource, 2 scavenger, 3 wall, 4 self; 21 x 11 in its last version). The original model finally sent an RGB image of 3 x 21 x 21 instead: --observation rgb.',
  },
  {
    title: 'Quirks of the original',
    text: 'Off by default, on with faithfulQuirks: a tagged scavenger leaves a "ghost" scavenger on its cell for good; beams fired east or south start 20 cells ahead of the shooter; a scavenger back from time-out reappears on its spawn cell even when it is taken.',
  },
];
