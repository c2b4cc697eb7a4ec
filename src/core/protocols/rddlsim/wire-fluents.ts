/** Ground fluents as the server writes them in a `<turn>`. */
import type { GroundFluent } from '../../envs/rddl/api';
import { javaDoubleToString, javaIntegerToString } from './java-format';
import type { WireFluent } from './messages';

/** A ground fluent as the server writes it: values by their run-time type, reals as Java doubles. */
export function toWireFluent(fluent: GroundFluent): WireFluent {
  return { name: fluent.name, args: fluent.args, value: formatFluentValue(fluent) };
}

/** The text of a fluent's value on the wire. */
export function formatFluentValue({ value, valueType, members }: GroundFluent): string {
  switch (valueType) {
    case 'vector': {
      // rddlsim writes a vector as its toString: `< @a: 1, $o: 0.5 >`, objects with `$`.
      const label = (text: string) => (text.startsWith('@') ? text : `$${text}`);
      const member = (m: NonNullable<GroundFluent['members']>[number]) =>
        m.valueType === 'object'
          ? `$${String(m.value)}`
          : formatFluentValue({ name: '', args: [], value: m.value, valueType: m.valueType });
      return `< ${(members ?? []).map((m) => `${label(m.label)}: ${member(m)}`).join(', ')} >`;
    }
    case 'bool':
      return value ? 'true' : 'false';
    case 'int':
      return javaIntegerToString(value as number);
    case 'real':
      return javaDoubleToString(value as number);
    default:
      return String(value);
  }
}
