/** A game-of-life-like grid: seed cells and watch them live by neighbour counts, with a little noise. */
import type { ExampleDomain } from './example';

export const CELL_LIFE: ExampleDomain = {
  id: 'cell_life',
  title: 'Cell life',
  description:
    'A grid of cells that live or die by the number of living neighbours, as in Conway’s game of life, ' +
    'with a little noise. You may seed one cell per step (at a cost); each step earns a point per living cell.',
  features: ['two object types as grid coordinates', 'interm fluents', 'object comparison (?r == ?r2)'],
  domain: `// Cell life: Conway's rules on a small grid, with noise.
//
// A living cell with 2 or 3 living neighbours lives on; a dead cell with exactly 3 comes alive;
// every other cell dies. Each outcome is flipped with a small probability. Seeding a cell makes
// it alive at the next step.

domain cell_life {
  types {
    row : object;
    col : object;
  };

  pvariables {
    NEAR-ROW(row, row) : { non-fluent, bool, default = false };  // same or adjacent rows
    NEAR-COL(col, col) : { non-fluent, bool, default = false };  // same or adjacent columns
    NOISE : { non-fluent, real, default = 0.02 };
    SEED-COST : { non-fluent, real, default = 0.5 };

    alive(row, col) : { state-fluent, bool, default = false };
    seed(row, col)  : { action-fluent, bool, default = false };

    // Computed during each step, before the next state (interm fluents are never sent).
    neighbours(row, col) : { interm-fluent, int };
  };

  cpfs {
    neighbours(?r, ?c) =
      sum_{?r2 : row, ?c2 : col}
        [NEAR-ROW(?r, ?r2) ^ NEAR-COL(?c, ?c2) ^ ~(?r == ?r2 ^ ?c == ?c2) ^ alive(?r2, ?c2)];

    alive'(?r, ?c) =
      if (seed(?r, ?c)) then KronDelta(true)
      else if ([alive(?r, ?c) ^ neighbours(?r, ?c) >= 2 ^ neighbours(?r, ?c) <= 3]
               | [~alive(?r, ?c) ^ neighbours(?r, ?c) == 3])
        then Bernoulli(1.0 - NOISE)
        else Bernoulli(NOISE);
  };

  reward = sum_{?r : row, ?c : col} [alive(?r, ?c) - SEED-COST * seed(?r, ?c)];
}
`,
  instance: `non-fluents grid_5x5 {
  domain = cell_life;
  objects {
    row : {r1, r2, r3, r4, r5};
    col : {c1, c2, c3, c4, c5};
  };
  non-fluents {
    NEAR-ROW(r1, r1); NEAR-ROW(r1, r2);
    NEAR-ROW(r2, r1); NEAR-ROW(r2, r2); NEAR-ROW(r2, r3);
    NEAR-ROW(r3, r2); NEAR-ROW(r3, r3); NEAR-ROW(r3, r4);
    NEAR-ROW(r4, r3); NEAR-ROW(r4, r4); NEAR-ROW(r4, r5);
    NEAR-ROW(r5, r4); NEAR-ROW(r5, r5);
    NEAR-COL(c1, c1); NEAR-COL(c1, c2);
    NEAR-COL(c2, c1); NEAR-COL(c2, c2); NEAR-COL(c2, c3);
    NEAR-COL(c3, c2); NEAR-COL(c3, c3); NEAR-COL(c3, c4);
    NEAR-COL(c4, c3); NEAR-COL(c4, c4); NEAR-COL(c4, c5);
    NEAR-COL(c5, c4); NEAR-COL(c5, c5);
  };
}

// A glider in the top left corner.
instance glider {
  domain = cell_life;
  non-fluents = grid_5x5;
  init-state {
    alive(r1, c2);
    alive(r2, c3);
    alive(r3, c1); alive(r3, c2); alive(r3, c3);
  };
  max-nondef-actions = 1;
  horizon = 30;
  discount = 1.0;
}
`,
};
