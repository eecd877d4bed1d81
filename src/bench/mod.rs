//! Throughput of the Kautz route-set golden model beside the min-cost-flow reference, and
//! of the generated route generator in each simulator.
//!
//! In: a list of Kautz graphs. Out: one [`Measurement`] per graph and method, timed on one
//! thread over every ordered pair (the golden model, several passes, since one pass takes
//! a fifth of a second and a busy machine's noise is of that order) or over an evenly
//! spread sample of pairs that fills a time budget (the flow reference, which is thousands
//! of times slower); a [`SimMeasurement`] per simulator run, the model build included; and
//! a [`SwitchMeasurement`] per degree of the network switch's cycle model; and the
//! network model's runs on several thread counts ([`network`]).

pub mod network;

use crate::fabric::switch::{Arbiter, SwitchConfig};
use crate::network::switch::Switch;
use crate::routing::flow::min_cost_disjoint_paths;
use crate::routing::kautz::DisjointRoutes;
use crate::rtl::kautz_route::RouteGenParams;
use crate::rtl::network::switch::SwitchParams;
use crate::sim::sequence;
use crate::sim::vectors::{Pairs, Shard, VectorError, VectorSet};
use crate::sim::{SHOWN_BY_VERIFY, SimError, Simulator};
use crate::topology::kautz::{Kautz, KautzError, Letter};
use crate::units::kautz::sequence::RouteGenUnit;
use crate::units::switch::traffic::SwitchUnit;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// How fast one method computed route sets on one graph.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub graph: Kautz,
    pub method: &'static str,
    /// Route sets computed in one pass.
    pub route_sets: u64,
    pub passes: usize,
    /// The median pass.
    pub elapsed: Duration,
    /// The fastest pass.
    pub best: Duration,
}

impl Measurement {
    /// Route sets per second in the median pass.
    pub fn per_second(&self) -> f64 {
        self.route_sets as f64 / self.elapsed.as_secs_f64()
    }

    /// Route sets per second in the fastest pass.
    pub fn best_per_second(&self) -> f64 {
        self.route_sets as f64 / self.best.as_secs_f64()
    }
}

/// Every node word of `graph`, concatenated: node `i` is `letters[i*k..(i+1)*k]`.
fn all_words(graph: &Kautz) -> Result<Vec<Letter>, KautzError> {
    let n = graph.enumerable_node_count()?;
    Ok((0..n)
        .flat_map(|i| graph.word_at(i).letters().to_vec())
        .collect())
}

/// The golden model over every ordered pair, hops written out for every route, `passes`
/// times (at least once).
pub fn golden_model(graph: &Kautz, passes: usize) -> Result<Measurement, KautzError> {
    let words = all_words(graph)?;
    let mut times: Vec<Duration> = Vec::new();
    let mut route_sets = 0;
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        route_sets = golden_pass(graph, &words);
        times.push(start.elapsed());
    }
    times.sort();
    Ok(Measurement {
        graph: *graph,
        method: "golden model",
        route_sets,
        passes: times.len(),
        elapsed: times[times.len() / 2],
        best: times[0],
    })
}

/// One pass of the golden model over every ordered pair of `words`; the route sets made.
fn golden_pass(graph: &Kautz, words: &[Letter]) -> u64 {
    let k = graph.k();
    let mut hops = Vec::with_capacity(graph.d() * (k + 2));
    let mut route_sets = 0u64;
    let mut checksum = 0usize;
    for (i, src) in words.chunks_exact(k).enumerate() {
        for (_, dst) in words.chunks_exact(k).enumerate().filter(|&(j, _)| j != i) {
            hops.clear();
            let routes = DisjointRoutes::new(graph, black_box(src), black_box(dst))
                .expect("enumerated words are distinct nodes");
            for shape in routes {
                shape.push_hops(dst, &mut hops);
            }
            checksum += black_box(&hops).len();
            route_sets += 1;
        }
    }
    black_box(checksum);
    route_sets
}

/// The min-cost-flow reference on pairs spread evenly over all ordered pairs, until
/// `budget` has passed.
pub fn flow_reference(graph: &Kautz, budget: Duration) -> Result<Measurement, KautzError> {
    let digraph = graph.digraph()?;
    let n = digraph.node_count();
    let pairs = n * n;
    // A stride coprime to n*n visits every pair once per n*n steps, in a scattered but
    // deterministic order; near the golden ratio of n*n it scatters well.
    let stride = (pairs * 618 / 1000..)
        .find(|&s| gcd(s, pairs) == 1)
        .expect("some number is coprime to n*n");
    let mut route_sets = 0u64;
    let mut pair = 0usize;
    let start = Instant::now();
    while start.elapsed() < budget {
        pair = (pair + stride) % pairs;
        let (s, t) = (pair / n, pair % n);
        if s != t {
            black_box(min_cost_disjoint_paths(&digraph, s, t, graph.d()));
            route_sets += 1;
        }
    }
    let elapsed = start.elapsed();
    Ok(Measurement {
        graph: *graph,
        method: "min-cost flow reference",
        route_sets,
        passes: 1,
        elapsed,
        best: elapsed,
    })
}

/// How fast a simulator verified route sets of one graph, its model build included.
#[derive(Debug, Clone)]
pub struct SimMeasurement {
    pub graph: Kautz,
    pub simulator: &'static str,
    pub vectors: u64,
    pub failed: u64,
    pub elapsed: Duration,
    pub mean_cycles: f64,
    pub max_cycles: u64,
    pub bound: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Graph(#[from] KautzError),
    #[error(transparent)]
    Vectors(#[from] VectorError),
    #[error(transparent)]
    Simulation(#[from] SimError),
}

/// Generates the route generator of `graph` and verifies `pairs` of it in `simulator`.
pub fn simulated(
    simulator: &dyn Simulator,
    graph: &Kautz,
    pairs: Pairs,
) -> Result<SimMeasurement, BenchError> {
    let params = RouteGenParams::new(
        graph.d() as u64,
        graph.k() as u64,
        crate::rtl::kautz_route::DEFAULT_TOP,
    )?;
    let vectors = VectorSet::new(graph, pairs, Shard::WHOLE)?;
    let unit = RouteGenUnit::new(params, None, vectors);
    let options = sequence::Options {
        shown: SHOWN_BY_VERIFY,
        wave: None,
        progress: &|_| {},
    };
    let start = Instant::now();
    let report = sequence::verify(simulator, &unit, Shard::WHOLE, options)?;
    let elapsed = start.elapsed();
    Ok(SimMeasurement {
        graph: *graph,
        simulator: simulator.name(),
        vectors: report.passed + report.failed,
        failed: report.failed,
        elapsed,
        mean_cycles: report.total_cycles as f64 / report.sequences.max(1) as f64,
        max_cycles: report.max_cycles,
        bound: report.bound,
    })
}

/// The simulator measurements as an aligned text table.
pub fn sim_table(rows: &[SimMeasurement]) -> String {
    let mut text = format!(
        "{:<10}  {:<8}  {:>9}  {:>6}  {:>9}  {:>13}  {:>11}  {:>10}  {:>5}\n",
        "simulator",
        "graph",
        "vectors",
        "failed",
        "seconds",
        "route sets/s",
        "mean cycles",
        "max cycles",
        "bound"
    );
    for row in rows {
        text += &format!(
            "{:<10}  {:<8}  {:>9}  {:>6}  {:>9.1}  {:>13.0}  {:>11.1}  {:>10}  {:>5}\n",
            row.simulator,
            row.graph.to_string(),
            row.vectors,
            row.failed,
            row.elapsed.as_secs_f64(),
            row.vectors as f64 / row.elapsed.as_secs_f64(),
            row.mean_cycles,
            row.max_cycles,
            row.bound
        );
    }
    text
}

/// How fast the switch's cycle model stepped one switch through the traffic of `verify
/// switch`.
#[derive(Debug, Clone)]
pub struct SwitchMeasurement {
    pub d: usize,
    /// Clock cycles stepped in one pass.
    pub cycles: u64,
    pub passes: usize,
    /// The median pass.
    pub elapsed: Duration,
    /// The fastest pass.
    pub best: Duration,
}

/// The switch of degree `d` (8 data bits, round-robin) stepped through the traffic that
/// `verify switch` makes (its directed cases and `cycles` random cycles, made beforehand),
/// `passes` times from reset; only the steps are timed.
pub fn switch_model(d: u64, cycles: u64, passes: usize) -> SwitchMeasurement {
    let config = SwitchConfig::new(d, 8, Arbiter::RoundRobin).expect("a valid degree");
    let stimulus = SwitchUnit::new(SwitchParams::new(config.clone()), cycles, 1).stimulus();
    let mut switch = Switch::new(config);
    let mut times = Vec::new();
    for _ in 0..passes.max(1) {
        switch.reset();
        let start = Instant::now();
        for inputs in &stimulus {
            switch.step(black_box(&inputs.words), &inputs.out_nack, inputs.fault);
        }
        times.push(start.elapsed());
        black_box(switch.out_word(0));
    }
    times.sort();
    SwitchMeasurement {
        d: d as usize,
        cycles: stimulus.len() as u64,
        passes: times.len(),
        elapsed: times[times.len() / 2],
        best: times[0],
    }
}

/// The switch measurements as an aligned text table: cycles stepped per second, median and
/// fastest pass.
pub fn switch_table(rows: &[SwitchMeasurement]) -> String {
    let mut text = format!(
        "{:<14}  {:>8}  {:>6}  {:>9}  {:>14}  {:>14}\n",
        "switch model", "cycles", "passes", "seconds", "cycles/s", "best pass/s"
    );
    for row in rows {
        let rate = |t: Duration| row.cycles as f64 / t.as_secs_f64();
        text += &format!(
            "{:<14}  {:>8}  {:>6}  {:>9.4}  {:>14.0}  {:>14.0}\n",
            format!("{p}x{p} (d = {})", row.d, p = row.d + 1),
            row.cycles,
            row.passes,
            row.elapsed.as_secs_f64(),
            rate(row.elapsed),
            rate(row.best)
        );
    }
    text
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The measurements as an aligned text table: route sets per pass, the median pass's
/// seconds and rate, and the fastest pass's rate.
pub fn table(rows: &[Measurement]) -> String {
    let mut text = format!(
        "{:<8}  {:<24}  {:>12}  {:>6}  {:>9}  {:>14}  {:>14}\n",
        "graph", "method", "route sets", "passes", "seconds", "route sets/s", "best pass/s"
    );
    for row in rows {
        text += &format!(
            "{:<8}  {:<24}  {:>12}  {:>6}  {:>9.3}  {:>14.0}  {:>14.0}\n",
            row.graph.to_string(),
            row.method,
            row.route_sets,
            row.passes,
            row.elapsed.as_secs_f64(),
            row.per_second(),
            row.best_per_second()
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_golden_model_reports_its_median_and_best_pass() {
        let g = Kautz::new(2, 3).unwrap();
        let m = golden_model(&g, 5).unwrap();
        // 12 nodes: 132 ordered pairs of distinct nodes per pass.
        assert_eq!((m.route_sets, m.passes), (132, 5));
        assert!(m.best <= m.elapsed && m.best_per_second() >= m.per_second());
        assert_eq!(golden_model(&g, 0).unwrap().passes, 1);
    }

    #[test]
    fn the_switch_model_steps_every_cycle_of_the_traffic() {
        let m = switch_model(2, 1000, 3);
        assert_eq!((m.d, m.cycles, m.passes), (2, 1180, 3));
        assert!(m.best <= m.elapsed);
        let table = switch_table(&[m]);
        let fields: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
        assert_eq!(
            fields[..6],
            ["3x3", "(d", "=", "2)", "1180", "3"],
            "{table}"
        );
    }

    #[test]
    fn flow_reference_samples_distinct_pairs() {
        // 144 ordered pairs of K(2,3): a stride sharing a factor with 144 would cycle early.
        let g = Kautz::new(2, 3).unwrap();
        let m = flow_reference(&g, Duration::from_millis(20)).unwrap();
        assert!(m.route_sets > 0);
        assert_eq!(gcd(144, 89), 1);
        assert_eq!(gcd(144, 90), 18);
    }
}
