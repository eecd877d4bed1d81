//! `netsim --seeds N`: one point run with N seeds, side by side on the run's threads, and its
//! figures as means with their 95 % confidence half-widths (Student's t), the convention for
//! reporting a simulated point (docs/network.md, "Repeated runs").
//!
//! In: the run's parameters (the first seed is theirs), the messages placed by hand, N.
//! Out: a table, or one JSON object with every figure's mean, half-width and values and
//! every run's summary.

use super::envelope::{Kind, envelope};
use super::{Replayed, Run};
use crate::choice::Choice;
use crate::cli::output::{Format, print_stdout};
use crate::experiments::confidence::estimate;
use crate::experiments::driver::parallel_map;
use crate::network::net::NetParams;
use crate::network::stats::{SUMMARY_UNITS, Summary};
use anyhow::Context;
use serde_json::{Value, json};
use std::time::Instant;

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

/// Runs `run` with seeds `run.params.seed` to `run.params.seed + count - 1` and prints the
/// figures' means and confidence half-widths.
pub(super) fn run(run: Run, count: u64, format: Format) -> anyhow::Result<()> {
    let started = Instant::now();
    let params = run.params;
    let seeds: Vec<u64> = (0..count).map(|i| params.seed + i).collect();
    let summaries = summaries(params, run.messages, &seeds)?;
    let text = match format {
        Format::Json => {
            let figures = json(&seeds, &summaries)?;
            let mut kind = Kind::new("seeds", "runs.", &SUMMARY_UNITS);
            kind.units.extend(units());
            format!("{}\n", envelope(kind, run.config, started, figures)?)
        }
        Format::Text => table(params, &seeds, &summaries),
    };
    print_stdout(&text)
}

/// The runs of every seed, side by side, in the seeds' order.
fn summaries(
    params: &NetParams,
    messages: &[(Option<String>, Replayed)],
    seeds: &[u64],
) -> anyhow::Result<Vec<Summary>> {
    // Each seed's run is built and run on a thread of its own (a run is single-threaded):
    // the runs are independent, and their summaries come back in the seeds' order.
    parallel_map(seeds, |&seed| {
        let params = NetParams {
            seed,
            ..params.clone()
        };
        let net = super::placed_net(&params, messages)?;
        Ok(net.run(|_| {}))
    })
    .into_iter()
    .collect()
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
