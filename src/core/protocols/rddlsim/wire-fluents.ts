/** Ground fluents as the server writes them in a `<turn>`. */
import type { GroundFluent } from '../../envs/rddl/api';
import { vectorText } from '../../envs/rddl/vector-shape';
import { javaDoubleToString, javaIntegerToString } from './java-format';
import type { WireFluent } from './messages';

/** A ground fluent as the server writes it: values by their run-time type, reals as Java doubles. */
export function toWireFluent(fluent: GroundFluent): WireFluent {
  return { name: fluent.name, args: fluent.args, value: formatFluentValue(fluent) };
}

/** The text of a fluent's value on the wire. */
export function formatFluentValue({ value, valueType, members }: GroundFluent): string {
  switch (valueType) {
    case 'vector':
      // rddlsim writes a vector as its toString: `< @a: 1, $o: < @x: 0.5 > >`, objects with `$`.
      return vectorText(members ?? [], (m) =>
        m.valueType === 'object'
          ? `$${String(m.value)}`
          : formatFluentValue({ name: '', args: [], value: m.value, valueType: m.valueType }),
      );
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
