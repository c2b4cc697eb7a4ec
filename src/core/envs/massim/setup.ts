/**
 * Setup scripts: the real server's `setup` file, run once after the map is generated and before step 0.
 * One command per line (`#` comments and blank lines are skipped, `stop` ends the script):
 *
 *   move X Y AGENT                     put an agent without attachments on a free cell
 *   add X Y block TYPE                 a block (of an existing type) unless the cell has a block
 *   add X Y dispenser TYPE             a dispenser unless the cell has one
 *   create task NAME DURATION X,Y,TYPE;X,Y,TYPE...   a task completable once, deadline DURATION - 1
 *   attach X1 Y1 X2 Y2                 attach the things in two neighbouring cells
 *   terrain X Y obstacle|goal|role     an obstacle, or a zone of radius 1
 *
 * The real server skips lines it cannot read; we report them with their line, since a silently ignored
 * line is a puzzle for whoever wrote the script.
 */
import { ProtoplayError } from '../../errors';
import type { TaskBoard, TaskRequirement } from './tasks';
import type { World } from './world';

/** Applies a setup script to a freshly generated world. */
export function applySetup(
  script: string,
  world: World,
  tasks: TaskBoard,
  blockTypes: readonly string[],
): void {
  const lines = script.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('stop')) break;
    const fail = (message: string): never => {
      throw new ProtoplayError('massim-setup', `setup: ${message}: ${line}`, {
        source: 'setup',
        line: index + 1,
        column: 1,
      });
    };
    runCommand(line.split(/\s+/), world, tasks, blockTypes, fail);
  }
}

function runCommand(
  words: string[],
  world: World,
  tasks: TaskBoard,
  blockTypes: readonly string[],
  fail: (message: string) => never,
): void {
  const int = (text: string | undefined): number => {
    if (text === undefined || !/^[+-]?\d+$/.test(text))
      return fail(`expected an integer, got ${text ?? 'nothing'}`);
    return Number(text);
  };
  const cellAt = (x: string | undefined, y: string | undefined) => world.torus.cellAt(int(x), int(y));
  const [command, ...args] = words;
  switch (command) {
    case 'move': {
      if (args.length !== 3) fail('expected move X Y AGENT');
      const entity = world.entities.find((candidate) => candidate.name === args[2]);
      if (!entity) return fail(`no agent ${args[2]}`);
      world.placeAlone(entity, cellAt(args[0], args[1]));
      return;
    }
    case 'add': {
      if (args.length !== 4) fail('expected add X Y block|dispenser TYPE');
      const cell = cellAt(args[0], args[1]);
      const type = args[3]!;
      if (args[2] === 'block') {
        if (!blockTypes.includes(type)) fail(`no block type ${type} in this simulation`);
        world.addBlock(cell, type);
      } else if (args[2] === 'dispenser') world.addDispenser(cell, type);
      else fail(`cannot add ${args[2]}`);
      return;
    }
    case 'create': {
      if (args.length !== 4 || args[0] !== 'task')
        return fail('expected create task NAME DURATION X,Y,TYPE;...');
      const requirements: TaskRequirement[] = args[3]!.split(';').map((part) => {
        const [x, y, type] = part.split(',');
        if (type === undefined) return fail(`expected X,Y,TYPE in ${part}`);
        return { x: int(x), y: int(y), type };
      });
      tasks.addTask(args[1]!, int(args[2]) - 1, 1, requirements);
      return;
    }
    case 'attach': {
      if (args.length !== 4) fail('expected attach X1 Y1 X2 Y2');
      const first = world.uniqueAt(cellAt(args[0], args[1]));
      const second = world.uniqueAt(cellAt(args[2], args[3]));
      if (first && second) world.attach(first, second);
      return;
    }
    case 'terrain': {
      if (args.length !== 3) fail('expected terrain X Y obstacle|goal|role');
      const cell = cellAt(args[0], args[1]);
      const kind = args[2]!.toLowerCase();
      if (kind === 'obstacle') world.addObstacle(cell);
      else if (kind === 'goal') world.goalZones.add(cell, 1);
      else if (kind === 'role') world.roleZones.add(cell, 1);
      else fail(`unknown terrain ${args[2]}`);
      return;
    }
    default:
      fail('unknown command');
  }
}
