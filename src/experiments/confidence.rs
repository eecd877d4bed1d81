//! Means over repeated runs with their 95 % confidence intervals (Student's t), shared by
//! the experiments that repeat a point with several seeds: Fig. 4 and `netsim --seeds`.

/// A mean over runs and the half-width of its 95 % confidence interval (Student's t;
/// none from a single run).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub half_width: Option<f64>,
}

/// The mean of `values` and its 95 % confidence half-width t(0.975, m-1) s / sqrt(m).
pub fn estimate(values: &[f64]) -> Option<Estimate> {
    let m = values.len();
    if m == 0 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / m as f64;
    let half_width = (m > 1).then(|| {
        let var = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (m - 1) as f64;
        t975(m as u64 - 1) * (var / m as f64).sqrt()
    });
    Some(Estimate { mean, half_width })
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom: tabulated to 30, then
/// the Cornish-Fisher expansion around the normal quantile (error below 1e-4 there).
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    assert!(df >= 1, "t needs at least one degree of freedom");
    if df <= 30 {
        return TABLE[df as usize - 1];
    }
    let z: f64 = 1.959_964;
    let v = df as f64;
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_of_known_values() {
        // Mean 2, sample variance ((1)^2 + 0 + 1^2) / 2 = 1, so 4.303 * sqrt(1/3).
        let e = estimate(&[1.0, 2.0, 3.0]).unwrap();
        assert_eq!(e.mean, 2.0);
        assert!((e.half_width.unwrap() - 4.303 / 3f64.sqrt()).abs() < 1e-12);
        assert_eq!(estimate(&[5.0]).unwrap().half_width, None);
        assert_eq!(estimate(&[]), None);
    }

    #[test]
    fn t_beyond_the_table_is_close_to_published_values() {
        // Published: t(0.975, 40) = 2.021, t(0.975, 60) = 2.000, t(0.975, 120) = 1.980.
        assert!((t975(40) - 2.021).abs() < 1e-3);
        assert!((t975(60) - 2.000).abs() < 1e-3);
        assert!((t975(120) - 1.980).abs() < 1e-3);
    }
}
