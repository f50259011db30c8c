//! The Pareto front of points in two metrics (the trade-off view): the points no other point
//! beats in one metric without losing in the other. Each metric improves in its own direction,
//! read from the metrics catalog (lower wait, higher utilisation); a metric without a direction
//! has no front.
//!
//! Point p dominates q when p is at least as good as q in both metrics and better in one. Equal
//! points do not dominate each other, so both stay on the front; a point without both values
//! (a run without a carbon trace has no carbon) is on no front and dominates nothing.

use crate::diag::Diagnostic;
use crate::sim::metric_catalog::{self, Better, MetricInfo};
use serde::{Deserialize, Serialize};

/// A point of the trade-off: its two values in the result's units (`None`: the run has none).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Point {
    pub x: Option<f64>,
    pub y: Option<f64>,
}

/// A front asked for by the page: the metric of each axis (catalog keys) and the points.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ParetoRequest {
    pub x: String,
    pub y: String,
    pub points: Vec<Point>,
}

/// The non-dominated points of a trade-off.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Pareto {
    /// The metric on the horizontal axis (a catalog key).
    pub x: String,
    pub y: String,
    /// Which way each improves: `lower` or `higher`.
    pub x_better: Better,
    pub y_better: Better,
    /// The indices of the points on the front, in the order a line joins them: by x
    /// ascending, then y ascending.
    pub front: Vec<usize>,
}

/// The most points one front takes (a 2-D sweep's cells are at most [`crate::sweep::MAX_RUNS`]).
pub const MAX_POINTS: usize = 100_000;

/// The catalog entry of `key` for an axis of a trade-off: a metric (or a window figure) with
/// a better direction, or an error that says what is expected.
pub fn axis(key: &str, path: &str) -> Result<&'static MetricInfo, Diagnostic> {
    let m = metric_catalog::find(key)
        .or_else(|| metric_catalog::WINDOW_METRICS.iter().find(|m| m.key == key))
        .ok_or_else(|| {
            let keys: Vec<&str> = metric_catalog::METRICS.iter().map(|m| m.key).collect();
            Diagnostic::error(
                path,
                format!(
                    "`{key}` is not a metric; the metrics are {}",
                    keys.join(", ")
                ),
            )
        })?;
    if m.better == Better::Neither {
        return Err(Diagnostic::error(
            path,
            format!(
                "`{key}` ({}) is neither better lower nor higher, so it has no Pareto front; choose a metric that has a direction",
                m.label
            ),
        ));
    }
    Ok(m)
}

/// The front of `points` for metrics `x` and `y` (catalog keys).
pub fn pareto(x: &str, y: &str, points: &[Point]) -> Result<Pareto, Vec<Diagnostic>> {
    let errors: Vec<Diagnostic> = [axis(x, "x"), axis(y, "y")]
        .into_iter()
        .filter_map(Result::err)
        .collect();
    if points.len() > MAX_POINTS {
        return Err(vec![Diagnostic::error(
            "points",
            format!(
                "{} points; a front takes at most {MAX_POINTS}",
                points.len()
            ),
        )]);
    }
    let (mx, my) = match (axis(x, "x"), axis(y, "y")) {
        (Ok(mx), Ok(my)) => (mx, my),
        _ => return Err(errors),
    };
    Ok(Pareto {
        x: x.to_string(),
        y: y.to_string(),
        x_better: mx.better,
        y_better: my.better,
        front: front(points, mx.better, my.better),
    })
}

/// The indices of the non-dominated points, by x then y ascending (ties by index). O(n log n):
/// after turning both metrics into "lower is better", a point is on the front when its y is
/// the least among the points of its x and less than every y of a smaller x.
pub fn front(points: &[Point], x_better: Better, y_better: Better) -> Vec<usize> {
    let cost = |v: Option<f64>, better: Better| {
        // `+ 0.0` makes -0 equal to 0 in the sort as it is in comparisons.
        v.filter(|v| v.is_finite()).map(|v| match better {
            Better::Higher => -v + 0.0,
            _ => v + 0.0,
        })
    };
    let mut items: Vec<(f64, f64, usize)> = points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((cost(p.x, x_better)?, cost(p.y, y_better)?, i)))
        .collect();
    items.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });
    let mut out = Vec::new();
    let mut best_before = f64::INFINITY; // the least y over every smaller x
    let mut start = 0;
    while start < items.len() {
        let x = items[start].0;
        let end = start + items[start..].iter().take_while(|p| p.0 == x).count();
        let least = items[start].1; // sorted by y within the same x
        if least < best_before {
            out.extend(
                items[start..end]
                    .iter()
                    .filter(|p| p.1 == least)
                    .map(|p| p.2),
            );
            best_before = least;
        }
        start = end;
    }
    // In drawing order, by the metrics' own values: x ascending, then y ascending.
    let value = |i: usize| (points[i].x.unwrap_or(0.0), points[i].y.unwrap_or(0.0));
    out.sort_by(|&a, &b| {
        let (ax, ay) = value(a);
        let (bx, by) = value(b);
        ax.total_cmp(&bx).then(ay.total_cmp(&by)).then(a.cmp(&b))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point {
            x: Some(x),
            y: Some(y),
        }
    }

    #[test]
    fn a_small_front_by_hand() {
        // (1, 5) and (3, 2) trade off; (4, 4) is beaten by (3, 2); (1, 5) twice are equal.
        let pts = [p(4.0, 4.0), p(1.0, 5.0), p(3.0, 2.0), p(1.0, 5.0)];
        assert_eq!(front(&pts, Better::Lower, Better::Lower), vec![1, 3, 2]);
        // Higher y is better: (1, 5) beats everything with x >= 1 and y <= 5.
        assert_eq!(front(&pts, Better::Lower, Better::Higher), vec![1, 3]);
    }

    #[test]
    fn axes_without_a_direction_or_unknown_are_refused() {
        let e = pareto("deferredTasks", "meanWaitMs", &[]).unwrap_err();
        assert!(e[0].message.contains("no Pareto front"), "{}", e[0].message);
        assert_eq!(e[0].path, "x");
        let e = pareto("meanWaitMs", "carbon", &[]).unwrap_err();
        assert!(
            e[0].message.contains("`carbon` is not a metric"),
            "{}",
            e[0].message
        );
        assert!(pareto("windowCarbonG", "meanWaitMs", &[]).is_ok());
    }
}
