//! The Kautz sweep over a grid of graphs, fault counts and injection rates, the figures
//! behind the claim of the network-switch paper (Smit et al. 1991; see docs/papers.md) that
//! with d node-disjoint routes collisions are rare, run on the network model
//! ([`crate::network::net`]) by the sweep driver ([`super::driver`]).
//!
//! In: the grid ([`Grid`]). Out: one [`Row`] per point, the loads at which first-attempt
//! success falls below a threshold ([`crossing`]), and the table and chart of the rows
//! ([`report`]).

use super::driver::{CsvRow, Experiment, optional_field};
use crate::network::net::{Net, NetError, NetParams};
use crate::network::plan::KautzPlan;
use crate::network::stats::Summary;
use crate::topology::kautz::Kautz;
use std::sync::Arc;

pub mod report;

/// The points of a sweep: every graph, with 0 to d-1 faulty nodes drawn by the seed, at
/// every rate.
#[derive(Debug, Clone)]
pub struct Grid {
    pub graphs: Vec<Kautz>,
    pub rates: Vec<f64>,
    /// Injection cycles of every run.
    pub cycles: u64,
    pub seed: u64,
    /// Data bytes of every message.
    pub bytes: u8,
    /// B of every graph: its route generator's cycle bound.
    pub route_cycles: fn(usize, usize) -> usize,
}

/// One point of the grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub graph: Kautz,
    pub faults: u64,
    pub rate: f64,
}

impl Experiment for Grid {
    type Point = Point;
    type Row = Row;
    type Error = NetError;

    /// Every point, in a fixed order: graph, then fault count, then rate.
    fn points(&self) -> Vec<Point> {
        let mut points = Vec::new();
        for &graph in &self.graphs {
            for faults in 0..graph.d() as u64 {
                for &rate in &self.rates {
                    points.push(Point {
                        graph,
                        faults,
                        rate,
                    });
                }
            }
        }
        points
    }

    /// The run of one point.
    fn run(&self, point: &Point) -> Result<Row, NetError> {
        let summary = Net::new(&self.params(point)?)?.run(|_| {});
        Ok(Row {
            point: *point,
            summary,
        })
    }
}

impl Grid {
    /// Whether every graph can be simulated with its most faulty nodes, before any run.
    pub fn check(&self) -> Result<(), NetError> {
        for &graph in &self.graphs {
            let worst = Point {
                graph,
                faults: graph.d() as u64 - 1,
                rate: self.rates.first().copied().unwrap_or(0.0),
            };
            Net::new(&self.params(&worst)?)?;
        }
        Ok(())
    }

    fn params(&self, point: &Point) -> Result<NetParams, NetError> {
        let (d, k) = (point.graph.d(), point.graph.k());
        let route_cycles = (self.route_cycles)(d, k) as u64;
        let plan = Arc::new(KautzPlan::new(point.graph, route_cycles)?);
        let mut params = NetParams::uniform(plan, point.rate, self.bytes, self.cycles, self.seed);
        params.faults.random_nodes = point.faults;
        Ok(params)
    }
}

/// The figures of one point.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub point: Point,
    pub summary: Summary,
}

impl Row {
    /// Messages that ended delivered, over those injected.
    pub fn delivered_fraction(&self) -> f64 {
        self.summary.delivered as f64 / self.summary.injected.max(1) as f64
    }

    /// Retries per injected message.
    pub fn retries_per_message(&self) -> f64 {
        self.summary.retries as f64 / self.summary.injected.max(1) as f64
    }
}

impl CsvRow for Row {
    const HEADER: &'static str = "d,k,faults,rate,injected,delivered,failed,retries,mean_latency,p99_latency,throughput,first_attempt_success,cycles";

    /// Absent figures are empty fields.
    fn csv(&self) -> String {
        let s = &self.summary;
        let p = &self.point;
        let opt = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.6}"));
        format!(
            "{},{},{},{},{},{},{},{},{},{},{:.6},{},{}",
            p.graph.d(),
            p.graph.k(),
            p.faults,
            p.rate,
            s.injected,
            s.delivered,
            s.failed,
            s.retries,
            opt(s.mean_latency),
            s.p99_latency.map_or(String::new(), |x| x.to_string()),
            s.throughput,
            opt(s.first_attempt_success),
            s.cycles
        )
    }

    fn parse_csv(line: &str) -> Option<Row> {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 13 {
            return None;
        }
        Some(Row {
            point: Point {
                graph: Kautz::new(f[0].parse().ok()?, f[1].parse().ok()?).ok()?,
                faults: f[2].parse().ok()?,
                rate: f[3].parse().ok()?,
            },
            summary: Summary {
                injected: f[4].parse().ok()?,
                delivered: f[5].parse().ok()?,
                failed: f[6].parse().ok()?,
                retries: f[7].parse().ok()?,
                mean_latency: optional_field(f[8])?,
                p99_latency: optional_field(f[9])?,
                throughput: f[10].parse().ok()?,
                first_attempt_success: optional_field(f[11])?,
                cycles: f[12].parse().ok()?,
                receive_errors: 0,
                corrupted: 0,
                flow: None,
                routing: None,
            },
        })
    }
}

/// Where first-attempt success falls below a threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Crossing {
    /// Already below at the lowest rate run.
    AtOrBelow(f64),
    /// Between two rates run: interpolated linearly.
    At(f64),
    /// Not below at the highest rate run.
    NotReached,
}

/// The lowest rate at which first-attempt success falls below `threshold`, over `rows` of
/// one graph and fault count sorted by rate.
pub fn crossing(rows: &[&Row], threshold: f64) -> Crossing {
    let points: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| Some((r.point.rate, r.summary.first_attempt_success?)))
        .collect();
    match points.iter().position(|&(_, s)| s < threshold) {
        None => Crossing::NotReached,
        Some(0) => Crossing::AtOrBelow(points[0].0),
        Some(first) => {
            let ((r0, s0), (r1, s1)) = (points[first - 1], points[first]);
            Crossing::At(r0 + (r1 - r0) * (s0 - threshold) / (s0 - s1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(rate: f64, success: f64) -> Row {
        Row {
            point: Point {
                graph: Kautz::new(2, 3).unwrap(),
                faults: 0,
                rate,
            },
            summary: Summary {
                injected: 10,
                delivered: 9,
                failed: 1,
                retries: 3,
                mean_latency: Some(41.5),
                p99_latency: Some(80),
                throughput: 0.125,
                first_attempt_success: Some(success),
                cycles: 1000,
                receive_errors: 0,
                corrupted: 0,
                flow: None,
                routing: None,
            },
        }
    }

    #[test]
    fn a_row_survives_its_csv_line() {
        let r = row(0.002, 0.75);
        assert_eq!(
            r.csv(),
            "2,3,0,0.002,10,9,1,3,41.500000,80,0.125000,0.750000,1000"
        );
        assert_eq!(Row::parse_csv(&r.csv()), Some(r));
        assert_eq!(Row::parse_csv("2,3,0"), None);
    }

    #[test]
    fn the_crossing_is_interpolated_between_the_rates_around_it() {
        let rows = [row(0.001, 0.95), row(0.002, 0.85), row(0.004, 0.45)];
        let refs: Vec<&Row> = rows.iter().collect();
        // 0.95 -> 0.85 over 0.001..0.002: 0.90 at the middle, 0.0015.
        let at = |threshold| match crossing(&refs, threshold) {
            Crossing::At(x) => x,
            other => panic!("{other:?}"),
        };
        assert!((at(0.9) - 0.0015).abs() < 1e-12);
        // 0.85 -> 0.45 over 0.002..0.004: 0.50 at 7/8 of the way, 0.00375.
        assert!((at(0.5) - 0.00375).abs() < 1e-12);
        assert_eq!(crossing(&refs, 0.4), Crossing::NotReached);
        assert_eq!(crossing(&refs, 0.99), Crossing::AtOrBelow(0.001));
    }
}
