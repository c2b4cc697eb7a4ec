/**
 * The things that occupy cells and can be attached to each other: entities (agents), blocks and obstacles.
 * Dispensers, markers and zones do not occupy cells and live in the world's per-cell tables instead.
 */
import type { MassimEventPercept, MassimRoleConfig } from './api';

/** What an attachable is. */
export type AttachableKind = 'entity' | 'block' | 'obstacle';

export class Attachable {
  readonly id: number;
  readonly kind: AttachableKind;
  cell: number;
  /** What agents see in `details`: the team of an entity, the type of a block, "" for an obstacle. */
  readonly details: string;
  /** Things directly attached to this one (links are symmetric). */
  readonly links: Attachable[] = [];
  /** The next thing in the same cell (cells hold several things only where agents start stacked). */
  nextInCell: Attachable | null = null;
  /** Traversal stamp, so cluster walks need no sets. */
  mark = 0;
  /** Percept cache: the world epoch `entitiesInCluster` was computed for. */
  clusterEpoch = -1;
  entitiesInCluster = 0;

  constructor(id: number, kind: AttachableKind, cell: number, details: string) {
    this.id = id;
    this.kind = kind;
    this.cell = cell;
    this.details = details;
  }
}

/** An agent's body, with everything the server tracks about it. */
export class Entity extends Attachable {
  readonly name: string;
  readonly team: string;
  role: MassimRoleConfig;
  energy: number;
  /** Steps left until reactivation; 0 when active. */
  deactivatedSteps = 0;
  lastAction = '';
  lastActionParams: readonly string[] = [];
  lastActionResult = '';
  /** Events caused while executing the last step, delivered with the next percept. */
  events: MassimEventPercept[] = [];

  constructor(id: number, cell: number, name: string, team: string, role: MassimRoleConfig, energy: number) {
    super(id, 'entity', cell, team);
    this.name = name;
    this.team = team;
    this.role = role;
    this.energy = energy;
  }

  get deactivated(): boolean {
    return this.deactivatedSteps > 0;
  }
}

/** A block, typed `b0`, `b1`, ... */
export function isBlock(thing: Attachable | null | undefined): thing is Attachable {
  return thing?.kind === 'block';
}

export function isEntity(thing: Attachable | null | undefined): thing is Entity {
  return thing?.kind === 'entity';
}
