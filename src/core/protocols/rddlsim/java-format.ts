/**
 * Number and boolean text exactly as rddlsim's Java code writes and reads it. The server builds every value
 * with string concatenation (`x + ""`), so doubles follow `Double.toString`, integers and longs plain
 * decimal; it reads action values with `Integer.valueOf`, `Double.valueOf` and `Boolean.valueOf`.
 */

/**
 * Java's `Double.toString(x)`: the shortest decimal that reads back as `x` (with the JDK 19+ rule that a
 * one-digit result is replaced by the closest two-digit decimal when that also reads back as `x`), written
 * as plain decimal with at least one fraction digit for 1e-3 <= |x| < 1e7 (`373.6000000000003`,
 * `1080000.0`), otherwise as computerised scientific notation (`1.9999915E7`, `1.0E-4`).
 *
 * JDK 18 and older occasionally printed one more digit than needed (JDK-4511638); the values rddlsim sends
 * (rewards, whole milliseconds) are not among those cases.
 */
export function javaDoubleToString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    // JavaScript writes this range in plain notation with the same shortest digits; only the ".0" differs.
    const plain = String(x);
    return plain.includes('.') ? plain : `${plain}.0`;
  }
  const { digits, exponent } = shortestDecimal(magnitude);
  const fraction = digits.length > 1 ? digits.slice(1) : '0';
  return `${sign}${digits[0]}.${fraction}E${exponent}`;
}

/**
 * The significant digits (no trailing zeros) and decimal exponent of the shortest decimal reading back as
 * `abs` (> 0), so that `abs` = d.ddd x 10^exponent.
 */
function shortestDecimal(abs: number): { digits: string; exponent: number } {
  // Without an argument, toExponential gives the shortest round-tripping digits, closest to the value.
  let [mantissa, exponentText] = abs.toExponential().split('e') as [string, string];
  if (mantissa.length === 1) {
    // Java considers two-digit decimals when one digit suffices and picks the closest (4.9E-324, not 5E-324).
    const twoDigits = abs.toExponential(1);
    if (Number(twoDigits) === abs) [mantissa, exponentText] = twoDigits.split('e') as [string, string];
  }
  const digits = mantissa.replace('.', '').replace(/0+$/, '');
  return { digits: digits || '0', exponent: Number(exponentText) };
}

/** A Java `int` or `long` written as `x + ""` (plain decimal, no grouping). */
export function javaIntegerToString(x: number): string {
  return Object.is(x, -0) ? '0' : String(Math.trunc(x));
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/**
 * `Integer.valueOf(text)`: an optional sign and decimal digits, nothing else (no whitespace, no `1.0`),
 * within the 32-bit range. Undefined where Java throws NumberFormatException.
 */
export function parseJavaInt(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= INT_MIN && value <= INT_MAX ? value : undefined;
}

/**
 * A Java `int` or `long` as the server writes it (`x + ""`): an optional sign and decimal digits, read as a
 * number when JavaScript holds it exactly. Undefined otherwise.
 */
export function parseJavaLong(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

const JAVA_DECIMAL = /^[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)$/;
const JAVA_HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)[fFdD]?$/;

/**
 * `Double.valueOf(text)`: Java's floating-point literal grammar after trimming control characters and
 * spaces, so `1e3`, ` 2.5 `, `1d`, `NaN`, `-Infinity` and hexadecimal `0x1p3` are numbers. Undefined where
 * Java throws NumberFormatException.
 */
export function parseJavaDouble(text: string): number | undefined {
  const trimmed = javaTrim(text);
  if (JAVA_DECIMAL.test(trimmed)) return Number(trimmed.replace(/[fFdD]$/, ''));
  const hex = JAVA_HEX.exec(trimmed);
  if (!hex) return undefined;
  const [, sign, whole = '', fraction = '', binaryExponent] = hex;
  if (!whole && !fraction) return undefined;
  const mantissa = parseInt(whole + fraction || '0', 16);
  const value = mantissa * 2 ** (Number(binaryExponent) - 4 * fraction.length);
  return sign === '-' ? -value : value;
}

/** `Boolean.valueOf(text)`: true exactly for `true` in any letter case; everything else is false. */
export function parseJavaBoolean(text: string): boolean {
  return text.length === 4 && text.toLowerCase() === 'true';
}

/** `String.trim()`: strips every character up to and including U+0020 at both ends. */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}
