//! Ridge regression by the normal equations, and R^2.

use entropy_engine::eval::{FeatureVector, FEATURES};

/// Fits `target ~ intercept + w . features` with a ridge penalty of `ridge` times each
/// feature's variance (the intercept is not penalised). `None` with too few rows to fit.
pub fn fit_bucket(rows: &[(&FeatureVector, f64)], ridge: f64) -> Option<[f64; FEATURES + 1]> {
    let rows: Vec<(&[f64], f64)> = rows.iter().map(|(f, y)| (&f[..], *y)).collect();
    let fitted = fit_rows(&rows, FEATURES, ridge)?;
    let mut out = [0.0; FEATURES + 1];
    out.copy_from_slice(&fitted);
    Some(out)
}

/// [`fit_bucket`] for rows of any `width` (the number of features, without the intercept):
/// returns `[intercept, w_1, .., w_width]`.
pub fn fit_rows(rows: &[(&[f64], f64)], width: usize, ridge: f64) -> Option<Vec<f64>> {
    if rows.len() < 4 * (width + 1) {
        return None;
    }
    let n = rows.len() as f64;
    // Centre the features and the target so the intercept drops out of the system.
    let mut mean = vec![0.0; width];
    let mut target_mean = 0.0;
    for (features, target) in rows {
        for (m, f) in mean.iter_mut().zip(features.iter()) {
            *m += f / n;
        }
        target_mean += target / n;
    }
    let mut matrix = vec![vec![0.0f64; width]; width];
    let mut vector = vec![0.0f64; width];
    for (features, target) in rows {
        let centred: Vec<f64> = features.iter().zip(&mean).map(|(f, m)| f - m).collect();
        let y = target - target_mean;
        for ((row, v), ci) in matrix.iter_mut().zip(vector.iter_mut()).zip(&centred) {
            *v += ci * y;
            for (cell, cj) in row.iter_mut().zip(&centred) {
                *cell += ci * cj;
            }
        }
    }
    for (i, row) in matrix.iter_mut().enumerate() {
        // A constant feature (variance 0) gets a unit penalty so the system stays solvable.
        let variance = row[i];
        row[i] += ridge * variance.max(1e-9) + 1e-9 * n;
    }
    let weights = solve(matrix, vector)?;
    let intercept = target_mean - weights.iter().zip(&mean).map(|(w, m)| w * m).sum::<f64>();
    let mut out = Vec::with_capacity(width + 1);
    out.push(intercept);
    out.extend(weights);
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (upper, lower) = a.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (offset, row) in lower.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= factor * p;
            }
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The coefficient of determination of predictions against observations.
pub fn r_squared(predictions: &[f64], observations: &[f64]) -> f64 {
    let n = observations.len() as f64;
    if n == 0.0 {
        return f64::NAN;
    }
    let mean = observations.iter().sum::<f64>() / n;
    let total: f64 = observations.iter().map(|y| (y - mean).powi(2)).sum();
    let residual: f64 = predictions
        .iter()
        .zip(observations)
        .map(|(p, y)| (y - p).powi(2))
        .sum();
    1.0 - residual / total
}

/// Each feature's mean and standard deviation over these feature vectors, the inputs a model
/// standardises by (as f32s; a feature that never varies gets a scale of 0.001).
pub fn feature_moments(
    rows: impl IntoIterator<Item = FeatureVector>,
) -> ([f32; FEATURES], [f32; FEATURES]) {
    let mut sum = [0f64; FEATURES];
    let mut squares = [0f64; FEATURES];
    let mut count = 0f64;
    for f in rows {
        for k in 0..FEATURES {
            sum[k] += f[k];
            squares[k] += f[k] * f[k];
        }
        count += 1.0;
    }
    let mut mean = [0f32; FEATURES];
    let mut scale = [1f32; FEATURES];
    for k in 0..FEATURES {
        let m = sum[k] / count.max(1.0);
        let var = squares[k] / count.max(1.0) - m * m;
        mean[k] = m as f32;
        scale[k] = var.max(1e-6).sqrt() as f32;
    }
    (mean, scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_linear_law() {
        let mut rows_data = Vec::new();
        let mut state = 1u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as f64 / (1u64 << 31) as f64
        };
        for _ in 0..500 {
            let mut f = [0.0; FEATURES];
            for v in f.iter_mut() {
                *v = next() * 10.0;
            }
            let y = 3.0 + 2.0 * f[0] - 0.5 * f[3] + f[7];
            rows_data.push((f, y));
        }
        let rows: Vec<(&FeatureVector, f64)> = rows_data.iter().map(|(f, y)| (f, *y)).collect();
        let w = fit_bucket(&rows, 0.0).unwrap();
        assert!((w[0] - 3.0).abs() < 1e-6, "{w:?}");
        assert!(
            (w[1] - 2.0).abs() < 1e-6 && (w[4] + 0.5).abs() < 1e-6 && (w[8] - 1.0).abs() < 1e-6
        );
        let predictions: Vec<f64> = rows_data
            .iter()
            .map(|(f, _)| 3.0 + 2.0 * f[0] - 0.5 * f[3] + f[7])
            .collect();
        let observed: Vec<f64> = rows_data.iter().map(|(_, y)| *y).collect();
        assert!((r_squared(&predictions, &observed) - 1.0).abs() < 1e-12);
        assert!(fit_bucket(&rows[..10], 0.0).is_none());
    }
}
