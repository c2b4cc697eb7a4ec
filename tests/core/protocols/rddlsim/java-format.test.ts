import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  javaDoubleToString,
  javaIntegerToString,
  javaTrim,
  parseJavaBoolean,
  parseJavaDouble,
  parseJavaInt,
  parseJavaLong,
} from '../../../../src/core/protocols/rddlsim/java-format';

/**
 * `Double.toString` of OpenJDK 25 (shortest-digit algorithm) for doubles given by their IEEE 754 bits:
 * thresholds, subnormals, rddlsim's own values and random bit patterns. Produced by running Java, not this code.
 */
const JAVA_25_OUTPUT: [string, string][] = [
  ['0', '0.0'],
  ['8000000000000000', '-0.0'],
  ['3ff0000000000000', '1.0'],
  ['bff0000000000000', '-1.0'],
  ['3fb999999999999a', '0.1'],
  ['3fc999999999999a', '0.2'],
  ['3fd3333333333333', '0.3'],
  ['416312d000000000', '1.0E7'],
  ['416312cfe0000000', '9999999.0'],
  ['416312cfffffffff', '9999999.999999998'],
  ['3f50624dd2f1a9fc', '0.001'],
  ['3f50624dd2f1a9fb', '9.999999999999998E-4'],
  ['3f1a36e2eb1c432d', '1.0E-4'],
  ['417312cab0000000', '1.9999915E7'],
  ['407759999999999f', '373.6000000000003'],
  ['1', '4.9E-324'],
  ['7fefffffffffffff', '1.7976931348623157E308'],
  ['10000000000000', '2.2250738585072014E-308'],
  ['44b52d02c7e14af6', '1.0E23'],
  ['44c52d02c7e14af6', '2.0E23'],
  ['419d6f3454000000', '1.23456789E8'],
  ['3fe0658d938c8b70', '0.5123966104332407'],
  ['41307ac000000000', '1080000.0'],
  ['c0914c0000000000', '-1107.0'],
  ['4022800000000000', '9.25'],
  ['c063a80000000000', '-157.25'],
  ['4059000000000000', '100.0'],
  ['444b1ae4d6e2ef50', '1.0E21'],
  ['4480f0cf064dd592', '1.0E22'],
  ['4011666666666666', '4.35'],
  ['3f847ae147ae147b', '0.01'],
  ['4132d68720000000', '1234567.125'],
  ['4340000000000000', '9.007199254740992E15'],
  ['3', '1.5E-323'],
  ['7', '3.5E-323'],
  ['7b', '6.1E-322'],
  ['29f0af3ca4115b30', '1.1366721934820141E-106'],
  ['2265955f3ae29b79', '5.53112693015758E-143'],
  ['2e22fa6de79685e6', '1.9080386881510355E-86'],
  ['6d8e474841c09397', '5.344172187794376E219'],
  ['7cfee2a124bb6a33', '1.2328413908022744E294'],
  ['73540256cb204339', '3.497557056361919E247'],
  ['fb16ea86a6d47d2d', '-8.51916340911143E284'],
  ['e88f956afcf64965', '-4.611154892447991E195'],
  ['1886361964c67d01', '1.5578556715887603E-190'],
  ['249ce2b1dd57213a', '2.5434441425785552E-132'],
  ['fcbb440a5ed606fe', '-6.802268657818069E292'],
  ['b8586e34c7dc7042', '-2.8717906356113485E-37'],
  ['1c3598c77c61794f', '8.731960884736927E-173'],
  ['37cc14afe79dbd58', '6.4470375890451805E-40'],
  ['4913fa9e3160200', '1.1327658647380354E-286'],
  ['2896959e6c225f4f', '3.66835308377459E-113'],
  ['90f6b1a895cc58d2', '-5.987339988681375E-227'],
  ['9eb7013785bf811d', '-1.0226803404549384E-160'],
  ['f1e0a9d56da54833', '-3.472246180249224E240'],
  ['5ae44f8d869bad63', '7.039376254471641E129'],
  ['fc3f94403333cc93', '-3.0774829066615243E290'],
  ['b39fc0f920ce0740', '-4.940109780093852E-60'],
  ['b101bc44cf194ebd', '-1.2547368484277E-72'],
  ['34c2da95bdfa2a8c', '1.537838682098363E-54'],
  ['25384f586b7ff7e7', '2.1919256179771787E-129'],
  ['ea936549edddc2d8', '-2.432437036535458E205'],
  ['ab34b55855853426', '-1.4793385143137713E-100'],
  ['5ca65f6b6d473cd', '9.08928968962524E-281'],
  ['9653b64a7ab728b4', '-4.023789242319656E-201'],
  ['29ff6d8ae6db9d6b', '2.141099826155022E-106'],
  ['90c342bfb1e0d78f', '-6.35193732351333E-228'],
  ['6c859a9b390253c8', '5.81834819184193E214'],
  ['3cb499f849ae1b93', '2.859024797652901E-16'],
  ['761efe069d677f45', '9.530373201393124E260'],
  ['8062eed6cc9511a3', '-8.425449130444514E-307'],
  ['3dda60e29c5b88da', '9.596427046186278E-11'],
  ['c2f286c607a550b2', '-3.259209169195631E14'],
  ['9176e6a876bb97c0', '-1.5467418730826504E-224'],
  ['d5762c65afabb618', '-4.9662815662425975E103'],
  ['db66ad4351e8604a', '-2.0120095874169234E132'],
  ['7e5959e966db4c92', '4.2443824914463067E300'],
  ['9aa58b040e9a9be5', '-2.5958488765748296E-180'],
  ['c3a686afcc21ec02', '-8.115890034954734E17'],
  ['a60fb30f8f278126', '-2.3414432076979698E-125'],
  ['87b8235d5904dea3', '-1.784792687003879E-271'],
  ['16f09990fcd83366', '3.4698245200955386E-198'],
  ['c7d5f65b5a9abec3', '-1.1677178326553067E38'],
  ['bc5ad442972d84e3', '-5.817642611351633E-18'],
  ['aaa53503b22ca71f', '-2.9589152570364307E-103'],
  ['d0cf6f90c541df4f', '-1.8636888473327702E81'],
  ['7db4dcd0e8bd3aa0', '3.411013107529759E297'],
  ['4a42bbbe5a1329f1', '5.475771146862976E49'],
  ['ee1c8dfc53ba8dcf', '-2.5804376901120375E222'],
  ['a48cd632ce131272', '-1.2695729826622745E-132'],
  ['227e6691913e1cfa', '1.558134907616293E-142'],
  ['a9535234c3abe3f7', '-1.2854459826540084E-109'],
  ['8d10dbcfb155fbff', '-9.644640170791678E-246'],
  ['b8f5b5098e84110e', '-2.6129063958984196E-34'],
  ['3afeea191143bb4a', '1.5982393469265008E-24'],
  ['5dd29eec702eae79', '9.08272509549341E143'],
  ['f40b19b362b57dcd', '-9.701569554510616E250'],
  ['e6c7931d6b14774', '3.4161193877364356E-239'],
  ['9948de83a2ac97da', '-7.144542897285879E-187'],
  ['d28843d2dd97515b', '-3.8616053292045765E89'],
  ['3fa38bb6615ac3fa', '0.038175296196079914'],
  ['41b1ddf3904085ca', '2.9975848025204146E8'],
  ['41039d118b77b69f', '160674.19309942887'],
  ['bf90ce807686c3c0', '-0.016412741884497484'],
  ['3f498255fb9c2933', '7.784766996519532E-4'],
  ['3f09e75ddcad592d', '4.940753168252081E-5'],
  ['3f908b89ebc91d27', '0.016157298103533748'],
  ['3ecae44f1449bb2a', '3.2057561461443537E-6'],
  ['be83ec4ecc29e543', '-1.4843849356956018E-7'],
  ['41b3ede5e64c8199', '3.343579902988525E8'],
  ['bee8429dcf4affa4', '-1.1568174593690039E-5'],
  ['c259f076a365d2af', '-4.4563395727129193E11'],
  ['3f31e711964bb306', '2.731721818197006E-4'],
  ['41511fc1ea249430', '4488967.658482596'],
  ['bfc70f7ffb50fbc0', '-0.180160520279939'],
  ['4250b0168980f9cb', '2.86694974979903E11'],
  ['414e0a03b572912d', '3937287.41755881'],
  ['3eea723e6a8dcb9f', '1.261056179810931E-5'],
  ['c07999fc826fdab5', '-409.62414783185096'],
  ['4071ac85aad1ea7a', '282.78263360975654'],
  ['41f78f070d06d714', '6.323990736427509E9'],
  ['f4241b8c184d0', '2.1219994444115E-308'],
  ['c4d98cfecd158', '1.7109584417726116E-308'],
  ['e7a65daeb7a52', '2.0134299349487133E-308'],
  ['75b766ad914cf', '1.0231551082143373E-308'],
  ['59ceaf97bfbb0', '7.80578219693505E-309'],
  ['b65635345fd44', '1.5848153687352176E-308'],
  ['8f648cc1f8c30', '1.246326211869258E-308'],
  ['64a26cbb2193e', '8.74684109487323E-309'],
  ['ccb3104eeb0b9', '1.7791852898238004E-308'],
  ['18af75617cbb5', '2.145578300487347E-309'],
  ['d606b004357e4', '1.860249734326012E-308'],
  ['98b178e456b1', '8.2947695551965E-310'],
  ['a2573ab5177c', '8.8188509704982E-310'],
  ['e34679c1d0386', '1.9754074937602246E-308'],
  ['9311aef4e5a02', '1.278279516121695E-308'],
  ['51ed984374eef', '7.12094077489666E-309'],
  ['a72f74cba6462', '1.453124255693607E-308'],
  ['67899d229615c', '8.999168150342003E-309'],
  ['4bc9bb16de656', '6.587262581215824E-309'],
  ['61f97e9b729d3', '8.51565214180131E-309'],
  ['264aa018f4e12', '3.32818076775705E-309'],
  ['4b7a0ebab7fbf', '6.56021196247301E-309'],
  ['35d0e1413369f', '4.677516986055073E-309'],
  ['cb832d6a53fb9', '1.768867762614043E-308'],
  ['204a93bc32411', '2.806662686642227E-309'],
  ['bd418aad10832', '1.644955577096047E-308'],
  ['1cefa903c9fd7', '2.515043807223803E-309'],
  ['c25166c7fe2b7', '1.6889525212776187E-308'],
  ['19d90d8ecf5a4', '2.24661736487557E-309'],
  ['6044fd7799f7f', '8.367450443805804E-309'],
  ['21f48eb0d2853', '2.95129122959302E-309'],
  ['731ebe655ddae', '1.0005887065705E-308'],
];

function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('javaDoubleToString', () => {
  it.each(JAVA_25_OUTPUT)('writes the double with bits %s as Java does: %s', (bits, expected) => {
    expect(javaDoubleToString(fromBits(bits))).toBe(expected);
  });

  it('writes non-finite values and signed zeros as Java', () => {
    expect(javaDoubleToString(NaN)).toBe('NaN');
    expect(javaDoubleToString(Infinity)).toBe('Infinity');
    expect(javaDoubleToString(-Infinity)).toBe('-Infinity');
    expect(javaDoubleToString(-0)).toBe('-0.0');
  });

  it('switches to scientific notation exactly below 1e-3 and from 1e7', () => {
    expect(javaDoubleToString(0.001)).toBe('0.001');
    expect(javaDoubleToString(0.00099)).toBe('9.9E-4');
    expect(javaDoubleToString(9999999.5)).toBe('9999999.5');
    expect(javaDoubleToString(1e7)).toBe('1.0E7');
    expect(javaDoubleToString(-12345678)).toBe('-1.2345678E7');
  });

  it('always reads back as the same double, with no shorter decimal that would', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = javaDoubleToString(x);
        expect(Object.is(Number(text), x)).toBe(true);
        const digits = text
          .replace(/^-/, '')
          .replace(/E.*$/, '')
          .replace('.', '')
          .replace(/^0+/, '')
          .replace(/0+$/, '');
        if (digits.length > 2) {
          const shorter = Math.abs(x).toPrecision(digits.length - 1);
          expect(Number(shorter)).not.toBe(Math.abs(x));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('has the shape of Java output: one integer digit in scientific form, a fraction digit always', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(javaDoubleToString(x)).toMatch(/^-?(?:[0-9]+\.[0-9]+|[1-9]\.[0-9]+E-?[0-9]+)$/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('javaIntegerToString', () => {
  it('writes ints and longs as plain decimals', () => {
    expect(javaIntegerToString(1079517)).toBe('1079517');
    expect(javaIntegerToString(-1107)).toBe('-1107');
    expect(javaIntegerToString(19999812)).toBe('19999812');
    expect(javaIntegerToString(-0)).toBe('0');
  });
});

describe('parseJavaInt (Integer.valueOf)', () => {
  it('accepts a signed decimal within 32 bits', () => {
    expect(parseJavaInt('2')).toBe(2);
    expect(parseJavaInt('+7')).toBe(7);
    expect(parseJavaInt('-2147483648')).toBe(-2147483648);
  });

  it('rejects what Java rejects: reals, spaces, overflow, empty', () => {
    for (const text of ['1.0', ' 1', '1 ', '', '2147483648', '1e3', '0x10', '--1'])
      expect(parseJavaInt(text)).toBeUndefined();
  });
});

describe('parseJavaLong', () => {
  it('reads a signed decimal long as long as JavaScript holds it exactly', () => {
    expect(parseJavaLong('19999811')).toBe(19999811);
    expect(parseJavaLong('-1107')).toBe(-1107);
    expect(parseJavaLong('+3')).toBe(3);
    expect(parseJavaLong('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('rejects everything else', () => {
    for (const text of ['1.0', ' 1', '', '9007199254740993', '1e3', 'x'])
      expect(parseJavaLong(text)).toBeUndefined();
  });
});

describe('parseJavaDouble (Double.valueOf)', () => {
  it('accepts Java floating-point literals after trimming', () => {
    expect(parseJavaDouble('1e3')).toBe(1000);
    expect(parseJavaDouble(' 2.5\n')).toBe(2.5);
    expect(parseJavaDouble('.5')).toBe(0.5);
    expect(parseJavaDouble('5.')).toBe(5);
    expect(parseJavaDouble('1d')).toBe(1);
    expect(parseJavaDouble('-2.5F')).toBe(-2.5);
    expect(parseJavaDouble('NaN')).toBeNaN();
    expect(parseJavaDouble('-Infinity')).toBe(-Infinity);
    expect(parseJavaDouble('0x1p3')).toBe(8);
    expect(parseJavaDouble('0x1.8p1')).toBe(3);
    expect(parseJavaDouble('1.9999915E7')).toBe(19999915);
  });

  it('rejects what Java rejects', () => {
    for (const text of ['', 'e3', '1e', 'inf', '1,5', '0x10', 'true', '1.0.0'])
      expect(parseJavaDouble(text)).toBeUndefined();
  });
});

describe('parseJavaBoolean (Boolean.valueOf)', () => {
  it('is true only for true in any case; everything else is false', () => {
    expect(parseJavaBoolean('true')).toBe(true);
    expect(parseJavaBoolean('TRUE')).toBe(true);
    expect(parseJavaBoolean('tRuE')).toBe(true);
    for (const text of ['1', ' true', 'true ', 'yes', '', 'false'])
      expect(parseJavaBoolean(text)).toBe(false);
  });
});

describe('javaTrim', () => {
  it('strips control characters and spaces, nothing else', () => {
    expect(javaTrim('\t\u0001 x y \n')).toBe('x y');
    expect(javaTrim('\u00a0x')).toBe('\u00a0x');
  });
});
