/** Reading a whole number typed by a learner, with a message that says what is wrong. */

/** The range a whole-number field accepts, and its name for messages. */
export interface WholeNumberRule {
  /** How the field is named in a message: "Rounds". */
  name: string;
  min: number;
  max: number;
}

/** A typed value read: the number, or why it is not one the field accepts. */
export type WholeNumberReading = { ok: true; value: number } | { ok: false; message: string };

/** Reads `text` as a whole number within the rule's range. */
export function readWholeNumber(text: string, { name, min, max }: WholeNumberRule): WholeNumberReading {
  const trimmed = text.trim();
  const range = `from ${min} to ${max.toLocaleString('en')}`;
  if (trimmed === '') return { ok: false, message: `${name}: enter a whole number ${range}` };
  if (!/^[-+]?\d+$/.test(trimmed))
    return { ok: false, message: `${name}: '${trimmed}' is not a whole number (${range})` };
  const value = Number(trimmed);
  if (value < min || value > max)
    return { ok: false, message: `${name}: ${value} is out of range (${range})` };
  return { ok: true, value };
}
