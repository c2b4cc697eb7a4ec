/** A navigation-like grid with a goal and an icy row where moves may fail. */
import type { ExampleDomain } from './example';

export const GRID_WALK: ExampleDomain = {
  id: 'grid_walk',
  title: 'Grid walk',
  description:
    'Walk a robot from the bottom-left corner to the goal in the top-right corner of a grid. Moves on ' +
    'the icy middle row may slip and leave the robot where it was. Every step away from the goal costs a point.',
  features: ['int state fluents', 'an enum-valued action', 'min/max functions', 'interm fluents'],
  domain: `// Grid walk: reach the goal; the icy row makes moves fail sometimes.
//
// The robot's position is two int fluents (x, y). The action is one enum value: which way to go.

domain grid_walk {
  requirements = { integer-valued, multivalued, intermediate-nodes };

  types {
    move : {@stay, @up, @down, @left, @right};
  };

  pvariables {
    WIDTH     : { non-fluent, int, default = 6 };
    HEIGHT    : { non-fluent, int, default = 4 };
    GOAL-X    : { non-fluent, int, default = 5 };
    GOAL-Y    : { non-fluent, int, default = 3 };
    ICE-ROW   : { non-fluent, int, default = 2 };
    SLIP-PROB : { non-fluent, real, default = 0.4 };

    x : { state-fluent, int, default = 0 };
    y : { state-fluent, int, default = 0 };

    go : { action-fluent, move, default = @stay };

    at-goal : { interm-fluent, bool };
    slipped : { interm-fluent, bool };
  };

  cpfs {
    at-goal = (x == GOAL-X) ^ (y == GOAL-Y);

    // Drawing the slip once, in an interm fluent, makes both coordinates agree on it.
    slipped = if (y == ICE-ROW) then Bernoulli(SLIP-PROB) else KronDelta(false);

    x' = if (at-goal | slipped) then x
         else if (go == @right) then min[x + 1, WIDTH - 1]
         else if (go == @left) then max[x - 1, 0]
         else x;

    y' = if (at-goal | slipped) then y
         else if (go == @up) then min[y + 1, HEIGHT - 1]
         else if (go == @down) then max[y - 1, 0]
         else y;
  };

  reward = if (at-goal) then 0 else -1;
}
`,
  instance: `instance walk_6x4 {
  domain = grid_walk;
  max-nondef-actions = 1;
  horizon = 25;
  discount = 1.0;
}
`,
};
