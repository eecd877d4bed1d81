//! The Fig. 4 experiment of Demaine and Srinivas's k-ary n-cube paper (see docs/papers.md)
//! on the network engine with switches that route ([`crate::network::switch_routed`]): binary n-cubes of 16 to 512
//! nodes, 0 to 4 faulty links, a new message per node per time step with probability 0.2
//! for 30 time steps, over many seeds, for direction-first and the other algorithms that
//! run on a hypercube (docs/torus.md, "Fig. 4 reproduced").
//!
//! In: the experiment ([`Fig4`]); its points are runs (algorithm, n, faults, seed), run
//! by the shared sweep driver ([`super::driver`]). Out: one [`Fig4Row`] per run, per
//! (algorithm, n, faults) the mean over seeds of extra hops and latency with the half-width
//! of its 95 % confidence interval ([`aggregate`]), and their table and chart ([`report`]).

use super::confidence::{Estimate, estimate};
use super::driver::{CsvRow, Experiment, optional_field};
use crate::choice::Choice;
use crate::network::cube_run::CubeRun;
use crate::network::net::{Net, NetError, NetParams};
use crate::routing::torus::{Algorithm, Reading};
use crate::topology::torus::Torus;

pub mod report;

/// The experiment: every algorithm on every binary n-cube with 0 to `max_faults` random
/// faulty links, `seeds` runs each (seeds 1 to `seeds`).
#[derive(Debug, Clone, PartialEq)]
pub struct Fig4 {
    pub algorithms: Vec<Algorithm>,
    pub dimensions: Vec<u64>,
    pub max_faults: u64,
    pub seeds: u64,
    pub rate: f64,
    /// Time steps (cycles) of injection; the run then drains.
    pub steps: u64,
    pub message_flits: u64,
    pub buffer_flits: u64,
}

/// One run of the experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fig4Point {
    pub algorithm: Algorithm,
    pub n: u64,
    pub faults: u64,
    pub seed: u64,
}

/// What one run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Fig4Row {
    pub point: Fig4Point,
    pub injected: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub deadlock: bool,
    pub mean_latency: Option<f64>,
    pub mean_hops: Option<f64>,
    pub mean_extra_hops: Option<f64>,
}

impl Fig4 {
    /// The paper's experiment with `seeds` seeds: direction-first, e-cube and double
    /// e-cube (west-first routes only 2-D tori) on 4- to 9-cubes, 0 to 4 faulty links.
    pub fn paper(seeds: u64, message_flits: u64, buffer_flits: u64) -> Fig4 {
        Fig4 {
            algorithms: vec![
                Algorithm::DirectionFirst,
                Algorithm::ECube,
                Algorithm::DoubleECube,
            ],
            dimensions: (4..=9).collect(),
            max_faults: 4,
            seeds,
            rate: 0.2,
            steps: 30,
            message_flits,
            buffer_flits,
        }
    }

    fn params(&self, point: &Fig4Point) -> Result<NetParams, NetError> {
        CubeRun {
            cube: Torus::new(2, point.n).map_err(|e| NetError::Routing(e.into()))?,
            algorithm: point.algorithm,
            reading: Reading::default(),
            rate: self.rate,
            cycles: self.steps,
            seed: point.seed,
            message_flits: self.message_flits,
            buffer_flits: self.buffer_flits,
            faulty_links: Vec::new(),
            random_faulty_links: point.faults,
        }
        .params()
    }

    /// Whether every point can be built, before any run.
    pub fn check(&self) -> Result<(), NetError> {
        for point in self.points() {
            Net::new(&self.params(&point)?)?;
        }
        Ok(())
    }
}

impl Experiment for Fig4 {
    type Point = Fig4Point;
    type Row = Fig4Row;
    type Error = NetError;

    /// Algorithm, then n, then faults, then seed.
    fn points(&self) -> Vec<Fig4Point> {
        let mut points = Vec::new();
        for &algorithm in &self.algorithms {
            for &n in &self.dimensions {
                for faults in 0..=self.max_faults {
                    for seed in 1..=self.seeds {
                        points.push(Fig4Point {
                            algorithm,
                            n,
                            faults,
                            seed,
                        });
                    }
                }
            }
        }
        points
    }

    fn run(&self, point: &Fig4Point) -> Result<Fig4Row, NetError> {
        let s = Net::new(&self.params(point)?)?.run(|_| {});
        let routing = s.routing.expect("switches that route report their hops");
        Ok(Fig4Row {
            point: *point,
            injected: s.injected,
            delivered: s.delivered,
            dropped: s.failed,
            deadlock: routing.deadlock,
            mean_latency: s.mean_latency,
            mean_hops: s.hops.as_ref().map(|h| h.mean),
            mean_extra_hops: routing.mean_extra_hops,
        })
    }
}

impl CsvRow for Fig4Row {
    const HEADER: &'static str = "algo,n,faults,seed,injected,delivered,dropped,deadlock,mean_latency,mean_hops,mean_extra_hops";

    fn csv(&self) -> String {
        let p = &self.point;
        let opt = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.6}"));
        format!(
            "{},{},{},{},{},{},{},{},{},{},{}",
            p.algorithm.name(),
            p.n,
            p.faults,
            p.seed,
            self.injected,
            self.delivered,
            self.dropped,
            self.deadlock,
            opt(self.mean_latency),
            opt(self.mean_hops),
            opt(self.mean_extra_hops)
        )
    }

    fn parse_csv(line: &str) -> Option<Fig4Row> {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 11 {
            return None;
        }
        Some(Fig4Row {
            point: Fig4Point {
                algorithm: *Algorithm::ALL.iter().find(|a| a.name() == f[0])?,
                n: f[1].parse().ok()?,
                faults: f[2].parse().ok()?,
                seed: f[3].parse().ok()?,
            },
            injected: f[4].parse().ok()?,
            delivered: f[5].parse().ok()?,
            dropped: f[6].parse().ok()?,
            deadlock: f[7].parse().ok()?,
            mean_latency: optional_field(f[8])?,
            mean_hops: optional_field(f[9])?,
            mean_extra_hops: optional_field(f[10])?,
        })
    }
}

/// The runs of one (algorithm, n, faults) taken together.
#[derive(Debug, Clone, PartialEq)]
pub struct Fig4Cell {
    pub algorithm: Algorithm,
    pub n: u64,
    pub faults: u64,
    pub runs: u64,
    pub deadlocks: u64,
    pub injected: u64,
    pub delivered: u64,
    pub dropped: u64,
    /// Over runs that delivered a message: their mean extra hops, and mean latency.
    pub extra_hops: Option<Estimate>,
    pub latency: Option<Estimate>,
}

/// The cells of `rows`, in the order of their first row.
pub fn aggregate(rows: &[Fig4Row]) -> Vec<Fig4Cell> {
    let key = |r: &Fig4Row| (r.point.algorithm, r.point.n, r.point.faults);
    let mut keys: Vec<(Algorithm, u64, u64)> = Vec::new();
    for r in rows {
        if !keys.contains(&key(r)) {
            keys.push(key(r));
        }
    }
    keys.into_iter()
        .map(|(algorithm, n, faults)| {
            let of: Vec<&Fig4Row> = rows
                .iter()
                .filter(|r| key(r) == (algorithm, n, faults))
                .collect();
            let sum = |f: fn(&Fig4Row) -> u64| of.iter().map(|r| f(r)).sum();
            let values = |f: fn(&Fig4Row) -> Option<f64>| -> Vec<f64> {
                of.iter().filter_map(|r| f(r)).collect()
            };
            Fig4Cell {
                algorithm,
                n,
                faults,
                runs: of.len() as u64,
                deadlocks: of.iter().filter(|r| r.deadlock).count() as u64,
                injected: sum(|r| r.injected),
                delivered: sum(|r| r.delivered),
                dropped: sum(|r| r.dropped),
                extra_hops: estimate(&values(|r| r.mean_extra_hops)),
                latency: estimate(&values(|r| r.mean_latency)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_survives_its_csv_line() {
        let row = Fig4Row {
            point: Fig4Point {
                algorithm: Algorithm::DirectionFirst,
                n: 5,
                faults: 2,
                seed: 7,
            },
            injected: 10,
            delivered: 9,
            dropped: 1,
            deadlock: false,
            mean_latency: Some(12.5),
            mean_hops: Some(2.5),
            mean_extra_hops: None,
        };
        assert_eq!(
            row.csv(),
            "direction-first,5,2,7,10,9,1,false,12.500000,2.500000,"
        );
        assert_eq!(Fig4Row::parse_csv(&row.csv()), Some(row));
        assert_eq!(Fig4Row::parse_csv("e-cube,5"), None);
    }
}
