//! The network sweep over a list of networks, fault counts and injection rates, the figures
//! behind the claim of the network-switch paper (Smit et al. 1991; see docs/papers.md) that
//! with d node-disjoint routes collisions are rare, run on the network model
//! ([`crate::network::net`]) by the sweep driver ([`super::driver`]). By default the
//! networks are Kautz graphs; any topology and flow control of the model can be swept.
//!
//! In: the grid ([`Grid`]). Out: one [`Row`] per point, the loads at which first-attempt
//! success falls below a threshold ([`crossing`]), and the table and chart of the rows
//! ([`report`]).

use super::driver::{CsvRow, Experiment, optional_field};
use crate::fabric::switch::Flow;
use crate::network::net::{Net, NetError, NetParams};
use crate::network::plan::Plan;
use crate::network::stats::Summary;
use std::sync::Arc;
use thiserror::Error;

/// Why a point of a sweep has no figures.
#[derive(Debug, Error)]
pub enum SweepError {
    #[error(transparent)]
    Net(#[from] NetError),
    #[error(
        "{spec} with {faults} faulty nodes at rate {rate}: the network model broke acknowledged delivery: {why} (docs/flow-control.md)"
    )]
    Broken {
        spec: String,
        faults: u64,
        rate: f64,
        why: String,
    },
}

pub mod report;

/// One network of a sweep.
#[derive(Debug, Clone)]
pub struct SweepNetwork {
    /// The `netsim` options that build it (`--d 2 --k 3`, `--topology torus --k 3 --n 2
    /// --flow vct`): the CSV's name for it, with no comma in it.
    pub spec: String,
    /// Its name in tables and charts ("K(2,3)").
    pub label: String,
    pub plan: Arc<dyn Plan>,
    pub flow: Flow,
}

impl SweepNetwork {
    /// Faulty nodes swept: 0 to d - 1, d the switch's network ports (on K(d,k), one fewer
    /// than the disjoint routes a pair has).
    pub fn fault_counts(&self) -> std::ops::Range<u64> {
        0..self.plan.ports() as u64
    }
}

/// The points of a sweep: every network, with 0 to d-1 faulty nodes drawn by the seed, at
/// every rate.
#[derive(Debug, Clone)]
pub struct Grid {
    pub networks: Vec<SweepNetwork>,
    pub rates: Vec<f64>,
    /// Injection cycles of every run.
    pub cycles: u64,
    pub seed: u64,
    /// Data bytes of every message.
    pub bytes: u8,
}

/// One point of the grid: the network by its place in [`Grid::networks`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub network: usize,
    pub faults: u64,
    pub rate: f64,
}

impl Experiment for Grid {
    type Point = Point;
    type Row = Row;
    type Error = SweepError;

    /// Every point, in a fixed order: network, then fault count, then rate.
    fn points(&self) -> Vec<Point> {
        let mut points = Vec::new();
        for (network, net) in self.networks.iter().enumerate() {
            for faults in net.fault_counts() {
                for &rate in &self.rates {
                    points.push(Point {
                        network,
                        faults,
                        rate,
                    });
                }
            }
        }
        points
    }

    /// The run of one point, which must keep acknowledged delivery's bounds.
    fn run(&self, point: &Point) -> Result<Row, SweepError> {
        let summary = Net::new(&self.params(point))?.run(|_| {});
        let spec = &self.networks[point.network].spec;
        if let Some(why) = summary.flow.as_ref().and_then(|f| f.violation()) {
            return Err(SweepError::Broken {
                spec: spec.clone(),
                faults: point.faults,
                rate: point.rate,
                why,
            });
        }
        Ok(Row {
            network: spec.clone(),
            faults: point.faults,
            rate: point.rate,
            summary,
        })
    }
}

impl Grid {
    /// Whether every network can be simulated with its most faulty nodes, before any run.
    pub fn check(&self) -> Result<(), NetError> {
        for (network, net) in self.networks.iter().enumerate() {
            let worst = Point {
                network,
                faults: net.fault_counts().end.saturating_sub(1),
                rate: self.rates.first().copied().unwrap_or(0.0),
            };
            Net::new(&self.params(&worst))?;
        }
        Ok(())
    }

    /// The place in [`Grid::networks`] of the network a CSV line names, if it is one.
    pub fn network_of(&self, spec: &str) -> Option<usize> {
        self.networks.iter().position(|n| n.spec == spec)
    }

    fn params(&self, point: &Point) -> NetParams {
        let network = &self.networks[point.network];
        let plan = Arc::clone(&network.plan);
        let mut params = NetParams::uniform(plan, point.rate, self.bytes, self.cycles, self.seed);
        params.flow = network.flow;
        params.faults.random_nodes = point.faults;
        params
    }
}

/// The figures of one point, the network named by its spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub network: String,
    pub faults: u64,
    pub rate: f64,
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
    const HEADER: &'static str = "network,faults,rate,injected,delivered,failed,retries,mean_latency,p99_latency,throughput,first_attempt_success,cycles";

    /// Absent figures are empty fields.
    fn csv(&self) -> String {
        let s = &self.summary;
        let opt = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.6}"));
        format!(
            "{},{},{},{},{},{},{},{},{},{:.6},{},{}",
            self.network,
            self.faults,
            self.rate,
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
        if f.len() != 12 {
            return None;
        }
        Some(Row {
            network: f[0].to_string(),
            faults: f[1].parse().ok()?,
            rate: f[2].parse().ok()?,
            summary: Summary {
                injected: f[3].parse().ok()?,
                delivered: f[4].parse().ok()?,
                failed: f[5].parse().ok()?,
                retries: f[6].parse().ok()?,
                mean_latency: optional_field(f[7])?,
                p99_latency: optional_field(f[8])?,
                throughput: f[9].parse().ok()?,
                first_attempt_success: optional_field(f[10])?,
                cycles: f[11].parse().ok()?,
                // The CSV keeps the headline figures only.
                ..Summary::default()
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
/// one network and fault count sorted by rate.
pub fn crossing(rows: &[&Row], threshold: f64) -> Crossing {
    let points: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| Some((r.rate, r.summary.first_attempt_success?)))
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
            network: "--d 2 --k 3".to_string(),
            faults: 0,
            rate,
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
                ..Summary::default()
            },
        }
    }

    #[test]
    fn a_row_survives_its_csv_line() {
        let r = row(0.002, 0.75);
        assert_eq!(
            r.csv(),
            "--d 2 --k 3,0,0.002,10,9,1,3,41.500000,80,0.125000,0.750000,1000"
        );
        assert_eq!(Row::parse_csv(&r.csv()), Some(r));
        assert_eq!(Row::parse_csv("--d 2 --k 3,0"), None);
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
