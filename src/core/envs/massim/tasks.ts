/**
 * Tasks: kept topped up to `tasks.concurrent` active ones, named `task0, task1, ...` in creation order.
 * A task's shape starts with a block at (0, 1) below the agent and grows by a random walk (30% west,
 * 30% east, 40% south) until it has `size` distinct cells; a revisited cell gets a new block type. The reward
 * is 10 x size², and a task can be completed `iterations` times in total before it disappears.
 */
import type { MassimSimConfig, MassimTaskPercept } from './api';
import { between } from './draws';
import type { SimRandom } from './draws';

/** One cell of a task's pattern, relative to the submitting agent. */
export interface TaskRequirement {
  x: number;
  y: number;
  type: string;
}

export interface Task {
  name: string;
  deadline: number;
  reward: number;
  iterations: number;
  completions: number;
  requirements: TaskRequirement[];
}

export class TaskBoard {
  readonly #config: MassimSimConfig['tasks'];
  readonly #blockTypes: readonly string[];
  readonly #rng: SimRandom;
  readonly #tasks = new Map<string, Task>();
  #perceptCache: { step: number; percepts: MassimTaskPercept[] } | undefined;

  constructor(config: MassimSimConfig['tasks'], blockTypes: readonly string[], rng: SimRandom) {
    this.#config = config;
    this.#blockTypes = blockTypes;
    this.#rng = rng;
  }

  /** Not yet completed `iterations` times and not past its deadline. */
  isActive(task: Task, step: number): boolean {
    return task.completions < task.iterations && step <= task.deadline;
  }

  active(step: number): Task[] {
    return [...this.#tasks.values()].filter((task) => this.isActive(task, step));
  }

  byName(name: string | undefined): Task | undefined {
    return name === undefined ? undefined : this.#tasks.get(name);
  }

  /** Creates tasks until `concurrent` are active. */
  topUp(step: number): void {
    const missing = this.#config.concurrent - this.active(step).length;
    for (let i = 0; i < missing; i++) this.#createRandomTask(step);
  }

  #createRandomTask(step: number): void {
    const duration = between(this.#rng, this.#config.maxDuration);
    const size = between(this.#rng, this.#config.size);
    const iterations = between(this.#rng, this.#config.iterations);
    if (size < 1) return;
    const cells = new Map<string, TaskRequirement>();
    const put = (x: number, y: number) =>
      cells.set(`${x},${y}`, { x, y, type: this.#blockTypes[this.#rng.nextInt(this.#blockTypes.length)]! });
    let x = 0;
    let y = 1;
    put(x, y);
    while (cells.size < size) {
      const direction = this.#rng.nextFloat();
      if (direction <= 0.3) x--;
      else if (direction <= 0.6) x++;
      else y++;
      put(x, y);
    }
    this.addTask(`task${this.#tasks.size}`, step + duration, iterations, [...cells.values()]);
  }

  /** Adds (or replaces) a task; the reward is 10 x the number of cells squared. */
  addTask(name: string, deadline: number, iterations: number, requirements: TaskRequirement[]): void {
    const sorted = [...requirements].sort((a, b) => a.x - b.x || a.y - b.y);
    this.#tasks.set(name, {
      name,
      deadline,
      reward: 10 * sorted.length ** 2,
      iterations,
      completions: 0,
      requirements: sorted,
    });
    this.invalidate();
  }

  /** The active tasks as agents see them; one shared list per step (treat as read-only). */
  percepts(step: number): MassimTaskPercept[] {
    if (this.#perceptCache?.step !== step) {
      const percepts = this.active(step).map((task) => ({
        reward: task.reward,
        requirements: task.requirements.map(({ x, y, type }) => ({ x, y, details: '', type })),
        name: task.name,
        deadline: task.deadline,
      }));
      this.#perceptCache = { step, percepts };
    }
    return this.#perceptCache.percepts;
  }

  /** Forgets the shared percept list (after a submission changed what is active). */
  invalidate(): void {
    this.#perceptCache = undefined;
  }
}
