//! The network sweep over a list of networks, fault counts and injection rates, the figures
//! behind the claim of the network-switch paper (Smit et al. 1991; see docs/papers.md) that
//! with d node-disjoint routes collisions are rare, run on the network model
//! ([`crate::network::net`]) by the sweep driver ([`super::driver`]). By default the
//! networks are Kautz graphs; any network, traffic and faults of the model can be swept,
//! each point repeated with several seeds.
//!
//! In: the grid ([`Grid`]). Out: one [`Row`] per point, the loads at which first-attempt
//! success falls below a threshold ([`crossing`]), and the table and chart of the rows
//! ([`report`]).

use super::confidence::{Estimate, estimate};
use super::driver::{CsvRow, Experiment, csv_field, csv_fields};
use crate::network::net::{Net, NetError, NetParams};
use crate::network::stats::Summary;
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

/// One network of a sweep, with its traffic, faults and measurement: a combination of the
/// grid's options.
#[derive(Debug, Clone)]
pub struct SweepNetwork {
    /// The `netsim` options that make it, those at their default left out (`--d 2 --k 3`,
    /// `--topology torus --k 3 --n 2 --flow vct --traffic tornado`): the CSV's name for it.
    pub spec: String,
    /// Its name in tables and charts ("K(2,3)", "4-ary 2-cube, bidirectional (tornado)").
    pub label: String,
    /// Its run at any rate: the grid sets the rate, the seed and, when it sweeps them, the
    /// faulty nodes.
    pub params: NetParams,
}

/// The points of a sweep: every network, at every rate, each run with `seeds` seeds; with
/// `fault_sweep`, each network also with 0 to d-1 faulty nodes drawn by the seed.
#[derive(Debug, Clone)]
pub struct Grid {
    pub networks: Vec<SweepNetwork>,
    pub rates: Vec<f64>,
    /// Runs of every point: seeds `params.seed` to `params.seed + seeds - 1`.
    pub seeds: u64,
    pub fault_sweep: bool,
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
        for network in 0..self.networks.len() {
            for faults in self.fault_counts(network) {
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

    /// The runs of one point, one per seed, which must keep acknowledged delivery's bounds.
    fn run(&self, point: &Point) -> Result<Row, SweepError> {
        let spec = &self.networks[point.network].spec;
        let mut summaries = Vec::new();
        for seed in 0..self.seeds {
            let summary = Net::new(&self.params(point, seed))?.run(|_| {});
            if let Some(why) = summary.flow.as_ref().and_then(|f| f.violation()) {
                return Err(SweepError::Broken {
                    spec: spec.clone(),
                    faults: point.faults,
                    rate: point.rate,
                    why,
                });
            }
            summaries.push(summary);
        }
        Ok(Row::of(spec, point, &summaries))
    }
}

impl Grid {
    /// Faulty nodes of `network`'s points: with the fault sweep 0 to d - 1, d the switch's
    /// network ports (on K(d,k), one fewer than the disjoint routes a pair has); else the
    /// network's own.
    pub fn fault_counts(&self, network: usize) -> std::ops::Range<u64> {
        let params = &self.networks[network].params;
        match self.fault_sweep {
            true => 0..params.plan.ports() as u64,
            false => params.faults.random_nodes..params.faults.random_nodes + 1,
        }
    }

    /// Whether every network can be simulated with its most faulty nodes, before any run.
    pub fn check(&self) -> Result<(), NetError> {
        for network in 0..self.networks.len() {
            let worst = Point {
                network,
                faults: self.fault_counts(network).end - 1,
                rate: self.rates.first().copied().unwrap_or(0.0),
            };
            Net::new(&self.params(&worst, 0))?;
        }
        Ok(())
    }

    /// The place in [`Grid::networks`] of the network a CSV line names, if it is one.
    pub fn network_of(&self, spec: &str) -> Option<usize> {
        self.networks.iter().position(|n| n.spec == spec)
    }

    /// The run of `point` with its `seed`-th seed.
    fn params(&self, point: &Point, seed: u64) -> NetParams {
        let mut params = self.networks[point.network].params.clone();
        params.traffic.rate = point.rate;
        params.faults.random_nodes = point.faults;
        params.seed += seed;
        params
    }
}

/// A figure of a run that the sweep reports, as the mean over the point's runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    Injected,
    Delivered,
    Failed,
    Retries,
    MeanLatency,
    P99Latency,
    Throughput,
    FirstAttemptSuccess,
    Cycles,
    DeliveredFraction,
    OfferedLoad,
    AcceptedLoad,
    Unstable,
}

impl Figure {
    /// Every figure, in the CSV's order.
    pub const ALL: [Figure; 13] = [
        Figure::Injected,
        Figure::Delivered,
        Figure::Failed,
        Figure::Retries,
        Figure::MeanLatency,
        Figure::P99Latency,
        Figure::Throughput,
        Figure::FirstAttemptSuccess,
        Figure::Cycles,
        Figure::DeliveredFraction,
        Figure::OfferedLoad,
        Figure::AcceptedLoad,
        Figure::Unstable,
    ];

    /// Its value in `s`; none when the run has none (a latency with nothing delivered, a
    /// load with no cycles, stability without `--warmup`).
    fn of(self, s: &Summary) -> Option<f64> {
        let load = s.load.as_ref();
        Some(match self {
            Figure::Injected => s.injected as f64,
            Figure::Delivered => s.delivered as f64,
            Figure::Failed => s.failed as f64,
            Figure::Retries => s.retries as f64,
            Figure::MeanLatency => s.mean_latency?,
            Figure::P99Latency => s.p99_latency? as f64,
            Figure::Throughput => s.throughput,
            Figure::FirstAttemptSuccess => s.first_attempt_success?,
            Figure::Cycles => s.cycles as f64,
            Figure::DeliveredFraction => {
                s.delivered as f64 / (s.injected > 0).then_some(s.injected)? as f64
            }
            Figure::OfferedLoad => load?.offered,
            Figure::AcceptedLoad => load?.accepted,
            Figure::Unstable => f64::from(u8::from(s.measurement.as_ref()?.unstable)),
        })
    }
}

/// The figures of one point, the network named by its spec: each the mean over the runs
/// of the point's seeds with its 95 % confidence half-width (none from one run).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub network: String,
    pub faults: u64,
    pub rate: f64,
    pub seeds: u64,
    /// In the order of [`Figure::ALL`]; none when no run had the figure.
    pub figures: Vec<Option<Estimate>>,
}

impl Row {
    /// The row of `point` of network `spec` from the summaries of its runs.
    fn of(spec: &str, point: &Point, summaries: &[Summary]) -> Row {
        let figures = Figure::ALL.map(|f| {
            let values: Vec<f64> = summaries.iter().filter_map(|s| f.of(s)).collect();
            estimate(&values)
        });
        Row {
            network: spec.to_string(),
            faults: point.faults,
            rate: point.rate,
            seeds: summaries.len() as u64,
            figures: figures.to_vec(),
        }
    }

    /// The mean of `figure` over the runs.
    pub fn mean(&self, figure: Figure) -> Option<f64> {
        Some(self.figures[figure as usize]?.mean)
    }

    /// Retries per injected message.
    pub fn retries_per_message(&self) -> Option<f64> {
        let injected = self.mean(Figure::Injected).filter(|&i| i > 0.0)?;
        Some(self.mean(Figure::Retries)? / injected)
    }
}

impl CsvRow for Row {
    const HEADER: &'static str = "network,faults,rate,injected,delivered,failed,retries,mean_latency,p99_latency,throughput,first_attempt_success,cycles,delivered_fraction,offered_load,accepted_load,unstable,seeds,injected_ci95,delivered_ci95,failed_ci95,retries_ci95,mean_latency_ci95,p99_latency_ci95,throughput_ci95,first_attempt_success_ci95,cycles_ci95,delivered_fraction_ci95,offered_load_ci95,accepted_load_ci95,unstable_ci95";

    /// Every figure's mean, then the seeds, then every figure's half-width; absent figures
    /// are empty fields; numbers are written exactly (Rust's shortest round trip), so a
    /// merge reads back what a whole run drew.
    fn csv(&self) -> String {
        let number = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
        let means = self.figures.iter().map(|e| number(e.map(|e| e.mean)));
        let widths = self
            .figures
            .iter()
            .map(|e| number(e.and_then(|e| e.half_width)));
        let mut fields = vec![
            csv_field(&self.network),
            self.faults.to_string(),
            self.rate.to_string(),
        ];
        fields.extend(means);
        fields.push(self.seeds.to_string());
        fields.extend(widths);
        fields.join(",")
    }

    fn parse_csv(line: &str) -> Option<Row> {
        let f = csv_fields(line)?;
        let n = Figure::ALL.len();
        if f.len() != 4 + 2 * n {
            return None;
        }
        let number = |text: &str| -> Option<Option<f64>> {
            match text.is_empty() {
                true => Some(None),
                false => text.parse().ok().map(Some),
            }
        };
        let mut figures = Vec::new();
        for i in 0..n {
            let half_width = number(&f[4 + n + i])?;
            figures.push(number(&f[3 + i])?.map(|mean| Estimate { mean, half_width }));
        }
        Some(Row {
            network: f[0].clone(),
            faults: f[1].parse().ok()?,
            rate: f[2].parse().ok()?,
            seeds: f[3 + n].parse().ok()?,
            figures,
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
        .filter_map(|r| Some((r.rate, r.mean(Figure::FirstAttemptSuccess)?)))
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
        let mut figures = vec![None; Figure::ALL.len()];
        let known = [
            (Figure::Injected, 10.0, Some(1.5)),
            (Figure::MeanLatency, 41.5, None),
            (Figure::FirstAttemptSuccess, success, None),
            (Figure::OfferedLoad, 0.1 + 0.2, Some(0.125)),
        ];
        for (figure, mean, half_width) in known {
            figures[figure as usize] = Some(Estimate { mean, half_width });
        }
        Row {
            network: "--d 2 --k 3 --message-bytes 4,16@0.5".to_string(),
            faults: 0,
            rate,
            seeds: 2,
            figures,
        }
    }

    #[test]
    fn the_header_names_every_figure_and_its_half_width() {
        let names = [
            "injected",
            "delivered",
            "failed",
            "retries",
            "mean_latency",
            "p99_latency",
            "throughput",
            "first_attempt_success",
            "cycles",
            "delivered_fraction",
            "offered_load",
            "accepted_load",
            "unstable",
        ];
        assert_eq!(names.len(), Figure::ALL.len());
        let widths: Vec<String> = names.iter().map(|n| format!("{n}_ci95")).collect();
        let header = format!(
            "network,faults,rate,{},seeds,{}",
            names.join(","),
            widths.join(",")
        );
        assert_eq!(Row::HEADER, header);
    }

    #[test]
    fn a_row_survives_its_csv_line() {
        let r = row(0.002, 0.75);
        assert_eq!(
            r.csv(),
            "\"--d 2 --k 3 --message-bytes 4,16@0.5\",0,0.002,10,,,,41.5,,,0.75,,,0.30000000000000004,,,2,1.5,,,,,,,,,,0.125,,"
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
