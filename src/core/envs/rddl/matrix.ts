/**
 * Dense linear algebra for pyRDDLGym's matrix operations (`det`, `inverse`, `pinverse`, `cholesky`) and
 * its multivariate draws (`MultivariateNormal`, `MultivariateStudent`, through a Cholesky factor).
 *
 * Matrices are row-major `Float64Array`s. Each function returns its result or a message saying why the
 * matrix has none (the caller reports it at the expression's location).
 */

/** Machine epsilon of doubles. */
const EPSILON = 2 ** -52;

/** The largest absolute entry (0 for an empty matrix). */
function maxAbs(a: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]!));
  return max;
}

const scratches: Float64Array[] = [];
/** A copy of the n×n matrix `a` in a scratch array (reused by the next call). */
function scratchCopy(a: ArrayLike<number>, n: number): Float64Array {
  const m = (scratches[n] ??= new Float64Array(n * n));
  for (let i = 0; i < n * n; i++) m[i] = a[i]!;
  return m;
}

/** The determinant of the n×n matrix `a`, by LU decomposition with partial pivoting. */
export function determinant(a: ArrayLike<number>, n: number): number {
  const m = scratchCopy(a, n);
  let det = 1;
  for (let k = 0; k < n; k++) {
    let pivot = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(m[i * n + k]!) > Math.abs(m[pivot * n + k]!)) pivot = i;
    const p = m[pivot * n + k]!;
    if (p === 0) return 0;
    if (pivot !== k) {
      for (let j = 0; j < n; j++) {
        const t = m[k * n + j]!;
        m[k * n + j] = m[pivot * n + j]!;
        m[pivot * n + j] = t;
      }
      det = -det;
    }
    det *= p;
    for (let i = k + 1; i < n; i++) {
      const f = m[i * n + k]! / p;
      if (f === 0) continue;
      for (let j = k + 1; j < n; j++) m[i * n + j] = m[i * n + j]! - f * m[k * n + j]!;
    }
  }
  return det;
}

/**
 * The inverse of the n×n matrix `a` into `out`, by Gauss–Jordan elimination with partial pivoting. A
 * matrix whose pivot falls to n·ε times its largest entry (or below) is singular: a message then.
 */
export function invert(a: ArrayLike<number>, n: number, out: Float64Array): string | undefined {
  const m = scratchCopy(a, n);
  const tolerance = n * EPSILON * maxAbs(a);
  out.fill(0);
  for (let i = 0; i < n; i++) out[i * n + i] = 1;
  for (let k = 0; k < n; k++) {
    let pivot = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(m[i * n + k]!) > Math.abs(m[pivot * n + k]!)) pivot = i;
    const p = m[pivot * n + k]!;
    if (!(Math.abs(p) > tolerance)) return 'the matrix is singular (it has no inverse; pinverse gives one)';
    if (pivot !== k) {
      for (let j = 0; j < n; j++) {
        let t = m[k * n + j]!;
        m[k * n + j] = m[pivot * n + j]!;
        m[pivot * n + j] = t;
        t = out[k * n + j]!;
        out[k * n + j] = out[pivot * n + j]!;
        out[pivot * n + j] = t;
      }
    }
    for (let j = 0; j < n; j++) {
      m[k * n + j] = m[k * n + j]! / p;
      out[k * n + j] = out[k * n + j]! / p;
    }
    for (let i = 0; i < n; i++) {
      if (i === k) continue;
      const f = m[i * n + k]!;
      if (f === 0) continue;
      for (let j = 0; j < n; j++) {
        m[i * n + j] = m[i * n + j]! - f * m[k * n + j]!;
        out[i * n + j] = out[i * n + j]! - f * out[k * n + j]!;
      }
    }
  }
  return undefined;
}

/**
 * The lower-triangular Cholesky factor L of the symmetric positive semi-definite n×n matrix `a`
 * (a = L·Lᵀ) into `out`. Entries are compared with a tolerance of 1e-10 relative to the largest one
 * (at least 1e-12 absolute): `a` must be symmetric within it, a pivot below minus the tolerance means
 * `a` is not positive semi-definite, and a pivot within it is a zero column (a singular, semi-definite
 * matrix has a factor too; NumPy's factorisation stops there).
 */
export function choleskyFactor(a: ArrayLike<number>, n: number, out: Float64Array): string | undefined {
  const tolerance = Math.max(1e-10 * maxAbs(a), 1e-12);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      if (!(Math.abs(a[i * n + j]! - a[j * n + i]!) <= tolerance)) {
        return `the matrix is not symmetric (entry ${i + 1},${j + 1} is ${a[i * n + j]}, entry ${j + 1},${i + 1} is ${a[j * n + i]})`;
      }
    }
  }
  out.fill(0);
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j]!;
    for (let k = 0; k < j; k++) d -= out[j * n + k]! * out[j * n + k]!;
    if (!(d >= -tolerance)) {
      return `the matrix is not positive semi-definite (pivot ${j + 1} is ${d.toPrecision(6)})`;
    }
    if (d <= tolerance) {
      // A zero pivot: the rest of the column must vanish too.
      for (let i = j + 1; i < n; i++) {
        let s = a[i * n + j]!;
        for (let k = 0; k < j; k++) s -= out[i * n + k]! * out[j * n + k]!;
        if (!(Math.abs(s) <= Math.sqrt(tolerance) * Math.sqrt(Math.max(maxAbs(a), 1e-12)))) {
          return `the matrix is not positive semi-definite (pivot ${j + 1} is 0 but its column is not)`;
        }
      }
      continue;
    }
    const l = Math.sqrt(d);
    out[j * n + j] = l;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j]!;
      for (let k = 0; k < j; k++) s -= out[i * n + k]! * out[j * n + k]!;
      out[i * n + j] = s / l;
    }
  }
  return undefined;
}

/**
 * The Moore–Penrose pseudo-inverse of the rows×cols matrix `a` into `out` (cols×rows), through a singular
 * value decomposition by one-sided Jacobi rotations. Singular values at most max(rows, cols)·ε times the
 * largest count as zero (NumPy's default for the rank), so a rank-deficient matrix has its pseudo-inverse.
 */
export function pseudoInverse(a: ArrayLike<number>, rows: number, cols: number, out: Float64Array): void {
  // Work on the taller of a and aᵀ: u (m×n, m ≥ n) has orthogonal columns after the rotations.
  const transposed = rows < cols;
  const m = transposed ? cols : rows;
  const n = transposed ? rows : cols;
  const u = new Float64Array(m * n);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      if (transposed) u[j * n + i] = a[i * cols + j]!;
      else u[i * n + j] = a[i * cols + j]!;
    }
  }
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < m; i++) {
          const up = u[i * n + p]!;
          const uq = u[i * n + q]!;
          alpha += up * up;
          beta += uq * uq;
          gamma += up * uq;
        }
        if (gamma === 0 || Math.abs(gamma) <= EPSILON * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        for (let i = 0; i < m; i++) {
          const up = u[i * n + p]!;
          const uq = u[i * n + q]!;
          u[i * n + p] = c * up - s * uq;
          u[i * n + q] = s * up + c * uq;
        }
        for (let i = 0; i < n; i++) {
          const vp = v[i * n + p]!;
          const vq = v[i * n + q]!;
          v[i * n + p] = c * vp - s * vq;
          v[i * n + q] = s * vp + c * vq;
        }
      }
    }
    if (!rotated) break;
  }
  // Column j of u is σ_j times the left singular vector; v holds the right ones.
  const sigma = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let norm = 0;
    for (let i = 0; i < m; i++) norm += u[i * n + j]! * u[i * n + j]!;
    sigma[j] = Math.sqrt(norm);
  }
  const cutoff = Math.max(m, n) * EPSILON * maxAbs(sigma);
  // pinv of the worked matrix (n×m) = Σ_j v_j u_jᵀ / σ_j², with u_j = σ_j × the left singular vector.
  const p = new Float64Array(n * m);
  for (let j = 0; j < n; j++) {
    const s = sigma[j]!;
    if (!(s > cutoff)) continue;
    const scale = 1 / (s * s);
    for (let r = 0; r < n; r++) {
      const vr = v[r * n + j]! * scale;
      if (vr === 0) continue;
      for (let c = 0; c < m; c++) p[r * m + c] = p[r * m + c]! + vr * u[c * n + j]!;
    }
  }
  // pinv(a) is cols×rows: p itself, or pᵀ when the work was on aᵀ.
  for (let r = 0; r < cols; r++) {
    for (let c = 0; c < rows; c++) out[r * rows + c] = transposed ? p[c * m + r]! : p[r * m + c]!;
  }
}
