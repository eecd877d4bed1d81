//! `netsim --seeds N`: one point run with N seeds, side by side on every processor, and its
//! figures as means with their 95 % confidence half-widths (Student's t), the convention for
//! reporting a simulated point (docs/network.md, "Repeated runs").
//!
//! In: the point (its parameters, the first seed theirs; the messages placed by hand), N.
//! Out: a table, or one JSON object with every figure's mean, half-width and values and
//! every run's summary, on standard output or in `--out FILE`. Its items are the runs, a
//! seed each ([`Seeds`]): with `--shard I/N` it writes a part, which `kautzgen merge`
//! joins ([`crate::cli::shard`]).

use super::Point;
use super::envelope::{Kind, envelope};
use crate::choice::Choice;
use crate::cli::output::{Format, check_out, write_or_print};
use crate::cli::shard::Shardable;
use crate::experiments::confidence::estimate;
use crate::experiments::driver::parallel_map;
use crate::network::net::NetParams;
use crate::network::stats::{SUMMARY_UNITS, Summary};
use anyhow::Context;
use serde_json::{Value, json};
use std::path::PathBuf;

/// A figure averaged over the seeds: its name in the JSON, in the table, its unit, and its
/// value in a run's summary (none when the run has none, e.g. a latency with nothing
/// delivered).
type Figure = (
    &'static str,
    &'static str,
    &'static str,
    fn(&Summary) -> Option<f64>,
);

const FIGURES: [Figure; 8] = [
    ("injected", "injected", "messages", |s| {
        Some(s.injected as f64)
    }),
    (
        "delivered_fraction",
        "delivered fraction",
        "fraction",
        |s| (s.injected > 0).then(|| s.delivered as f64 / s.injected as f64),
    ),
    (
        "first_attempt_success",
        "first-attempt success",
        "fraction",
        |s| s.first_attempt_success,
    ),
    ("mean_latency", "mean latency (cycles)", "cycles", |s| {
        s.mean_latency
    }),
    ("p99_latency", "p99 latency (cycles)", "cycles", |s| {
        s.p99_latency.map(|p| p as f64)
    }),
    (
        "offered_load",
        "offered load (bytes/node/cycle)",
        "bytes/node/cycle",
        |s| s.load.as_ref().map(|l| l.offered),
    ),
    (
        "accepted_load",
        "accepted load (bytes/node/cycle)",
        "bytes/node/cycle",
        |s| s.load.as_ref().map(|l| l.accepted),
    ),
    ("mean_hops", "mean hops", "hops", |s| {
        s.hops.as_ref().map(|h| h.mean)
    }),
];

/// The unit of each figure's mean, half-width and values in the JSON, by path.
fn units() -> Vec<(String, &'static str)> {
    FIGURES
        .iter()
        .flat_map(|&(name, _, unit, _)| {
            ["mean", "ci95", "values"].map(|key| (format!("figures.{name}.{key}"), unit))
        })
        .collect()
}

/// A point run with `count` seeds, `point.params.seed` and the `count - 1` after it, each
/// run an item, and where its table or JSON goes.
pub(super) struct Seeds {
    pub point: Point,
    pub count: u64,
    pub format: Format,
    pub out: Option<PathBuf>,
}

impl Shardable for Seeds {
    /// A run's summary.
    type Result = Summary;
    type Output = ();

    fn items(&self) -> u64 {
        self.count
    }

    /// The runs of the seeds at `positions`, side by side: a run is single-threaded, and
    /// each is built and run on a thread of its own.
    fn run(&self, positions: &[u64]) -> anyhow::Result<Vec<Summary>> {
        let point = &self.point;
        parallel_map(positions, |&position| {
            let params = NetParams {
                seed: point.params.seed + position,
                ..point.params.clone()
            };
            let net = super::placed_net(&params, &point.messages)?;
            Ok(net.run(|_| {}))
        })
        .into_iter()
        .collect()
    }

    fn claim(&self) -> anyhow::Result<()> {
        check_out(self.out.as_deref())
    }

    /// Writes or prints the figures' means and confidence half-widths.
    fn finish(&self, (): (), summaries: Vec<Summary>) -> anyhow::Result<()> {
        let params = &self.point.params;
        let seeds: Vec<u64> = (0..self.count).map(|i| params.seed + i).collect();
        let text = match self.format {
            Format::Json => {
                let figures = json(&seeds, &summaries)?;
                let mut kind = Kind::new("seeds", "runs.", &SUMMARY_UNITS);
                kind.units.extend(units());
                format!("{}\n", envelope(kind, &self.point.config, figures)?)
            }
            Format::Text => table(params, &seeds, &summaries),
        };
        write_or_print(self.out.as_deref(), &text)
    }
}

/// The figures' values over the runs, their estimates, and every run's summary.
fn json(seeds: &[u64], summaries: &[Summary]) -> anyhow::Result<Value> {
    let mut figures = serde_json::Map::new();
    for (name, _, _, value) in FIGURES {
        let values: Vec<f64> = summaries.iter().filter_map(value).collect();
        let e = estimate(&values);
        figures.insert(
            name.to_string(),
            json!({
                "mean": e.map(|e| e.mean),
                "ci95": e.and_then(|e| e.half_width),
                "values": values,
            }),
        );
    }
    Ok(json!({
        "seeds": seeds,
        "figures": figures,
        "runs": serde_json::to_value(summaries).context("summaries as JSON")?,
    }))
}

/// The figures as mean ± half-width, a row each, under a line that names the point.
fn table(params: &NetParams, seeds: &[u64], summaries: &[Summary]) -> String {
    let mut text = format!(
        "{}: {} traffic at rate {} for {} cycles, {} runs (seeds {} to {}): mean ± 95% confidence half-width\n",
        params.plan.name(),
        params.traffic.pattern.name(),
        params.traffic.rate,
        params.cycles,
        seeds.len(),
        seeds[0],
        seeds[seeds.len() - 1]
    );
    for (_, label, _, value) in FIGURES {
        let values: Vec<f64> = summaries.iter().filter_map(value).collect();
        let cell = match estimate(&values) {
            None => "-".to_string(),
            Some(e) => match e.half_width {
                Some(h) => format!("{:.4} ± {h:.4}", e.mean),
                None => format!("{:.4}", e.mean),
            },
        };
        text += &format!("{label:<34} {cell}\n");
    }
    text
}
