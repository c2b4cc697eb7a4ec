/**
 * Loop rolling for generated statements. Grounding repeats one cpf for every object, so consecutive
 * statements often differ only in their numbers (array indexes, probabilities, location ids):
 *
 *     ns[5] = (U() < (0.9 - 0.1 * ((s[64] + s[65]) | 0))) ? 1 : 0;
 *     ns[6] = (U() < (0.9 - 0.1 * ((s[12] + s[70]) | 0))) ? 1 : 0;
 *
 * A run of such statements becomes one loop whose varying numbers come from a table, so generated code
 * stays small however many objects an instance has (and the engine optimises it quickly), while the
 * statements still run in the same order with the same values.
 */

/** Shorter runs stay unrolled: immediate numbers are a little faster than table reads. */
const MIN_RUN = 16;

/** Numeric literals of generated code, not digits inside names such as `t0`, `c12` or `D[3]`'s `D`. */
const NUMBER = /(?<![\w$.])(?:\d+(?:\.\d+)?(?:e[-+]?\d+)?|\.\d+)/g;

/** A statement's shape (numbers replaced by `#`) and its numbers in order. */
function shapeOf(statement: string): { shape: string; numbers: number[] } | undefined {
  // Numbers inside string literals (error messages) must stay as they are.
  if (statement.includes('"')) return undefined;
  const numbers: number[] = [];
  const shape = statement.replace(NUMBER, (text) => {
    numbers.push(Number(text));
    return '#';
  });
  return { shape, numbers };
}

/**
 * Rolls runs of at least 16 statements of the same shape into loops. `table` registers a constant table
 * and returns how generated code refers to it.
 */
export function rollStatements(
  statements: readonly string[],
  table: (values: Float64Array) => string,
): string[] {
  const shapes = statements.map(shapeOf);
  const result: string[] = [];
  let i = 0;
  while (i < statements.length) {
    const first = shapes[i];
    let end = i + 1;
    while (end < statements.length && first && shapes[end]?.shape === first.shape) end++;
    if (!first || end - i < MIN_RUN) {
      result.push(...statements.slice(i, end));
      i = end;
      continue;
    }
    const rows = shapes.slice(i, end) as { shape: string; numbers: number[] }[];
    const varying = first.numbers.map((n, column) => rows.some((row) => !Object.is(row.numbers[column], n)));
    const columns = varying.filter(Boolean).length;
    const values = new Float64Array(rows.length * columns);
    rows.forEach((row, r) => {
      let c = 0;
      row.numbers.forEach((n, column) => {
        if (varying[column]) values[r * columns + c++] = n;
      });
    });
    const name = table(values);
    let column = 0;
    let literal = 0;
    const body = first.shape.replace(/#/g, () => {
      const index = literal++;
      if (!varying[index]) {
        const n = first.numbers[index]!;
        return String(n);
      }
      return `T[j + ${column++}]`;
    });
    result.push(
      columns === 0
        ? `for (let j = 0; j < ${rows.length}; j++) { ${body} }`
        : `{ const T = ${name}; for (let j = 0; j < ${values.length}; j += ${columns}) { ${body} } }`,
    );
    i = end;
  }
  return result;
}
