/**
 * Asks the session worker one question at a time about what is on show: a newer wish replaces one still
 * waiting, so a fast session never piles up questions.
 */
/** A function that asks `question` with the latest arguments, handing each answer to `apply`. */
export function asker<T>(
  ask: (question: string, ...args: unknown[]) => Promise<T | undefined>,
  question: string,
  apply: (answer: T | undefined) => void,
): (...args: unknown[]) => void {
  let busy = false;
  let wanted: unknown[] | undefined;
  const next = () => {
    if (busy || !wanted) return;
    const args = wanted;
    wanted = undefined;
    busy = true;
    ask(question, ...args)
      .then(apply, () => apply(undefined))
      .finally(() => {
        busy = false;
        next();
      });
  };
  return (...args: unknown[]) => {
    wanted = args;
    next();
  };
}
