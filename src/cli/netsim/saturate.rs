//! `kautzgen netsim saturate`: the saturation throughput of one network under one traffic,
//! found by bisection on the offered load with measured runs ([`crate::experiments::saturation`]
//! holds the search and its criterion; docs/network.md, "Saturation"). `netsim compare`
//! runs the same search on every network it compares.
//!
//! In: a network, its traffic, the window and the precision. Out: the probes and what they
//! found, as a table or JSON, on standard output or in `--out FILE`. The search is one
//! item ([`Saturate`]): a bisection runs its probes one after the other, each placed by
//! the ones before, so its shards are one that runs it and others that are empty.

use super::envelope::{Config, Kind, envelope};
use super::options::NetworkArgs;
use crate::choice::Choice;
use crate::cli::input_error;
use crate::cli::output::{Format, check_out, write_or_print};
use crate::cli::shard::{self, ShardArg, Shardable};
use crate::experiments::saturation::{
    ACCEPTED_FRACTION, Judged, LATENCY_FACTOR, Saturation, saturation_of,
};
use crate::network::distances::capacity;
use crate::network::net::{Net, NetParams};
use anyhow::Context;
use serde_json::json;
use std::path::PathBuf;

/// Find the offered load at which a network saturates, by bisection.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Finds the saturation throughput of one network under one traffic by \
bisection on the injection rate. Every point is a measured run (--warmup, default the \
window; --cycles, the window). A point is saturated when its window does not drain within \
the drain limit, when it accepts less than 95% of the load it offers, or when its mean \
network latency is above 3 times the zero-load latency (measured first, at 1% of the \
uniform-traffic capacity). The saturation throughput is the accepted load of the highest \
unsaturated point; the bracket of offered loads around it narrows until its width is \
--precision of its top (docs/network.md, \"Saturation\").",
    after_help = "Examples:\n  \
kautzgen netsim saturate --d 2 --k 3\n  \
kautzgen netsim saturate --topology torus --k 8 --n 2 --traffic tornado --message-bytes 8\n  \
kautzgen netsim saturate --d 4 --k 5 --flow vct --cycles 5000 --format json"
)]
pub struct Args {
    #[command(flatten)]
    network: NetworkArgs,
    /// Cycles of every point's measurement window
    #[arg(long, default_value_t = 2000)]
    cycles: u64,
    /// Stop when the bracket's width is at most this fraction of its top
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    precision: f64,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    shard: ShardArg,
    /// Write the table or JSON to FILE instead of standard output; with --shard, the part
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The unit of every number of the JSON's figures, by path.
const UNITS: [(&str, &str); 12] = [
    ("mean_bytes", "bytes"),
    ("window", "cycles"),
    ("capacity", "bytes/node/cycle"),
    ("zero_load_latency", "cycles"),
    ("throughput", "bytes/node/cycle"),
    ("bracket", "bytes/node/cycle"),
    ("criterion.accepted_fraction", "fraction"),
    ("criterion.latency_factor", "times the zero-load latency"),
    ("probes.rate", "messages/node/cycle"),
    ("probes.offered", "bytes/node/cycle"),
    ("probes.accepted", "bytes/node/cycle"),
    ("probes.latency", "cycles"),
];

pub fn run(args: Args) -> anyhow::Result<()> {
    let shard = args.shard.shard()?;
    let out = args.out.clone();
    shard::execute(&job(args)?, shard, out.as_deref())
}

/// The search of the command line, checked.
pub fn job(mut args: Args) -> anyhow::Result<Saturate> {
    if !(args.precision > 0.0 && args.precision < 1.0) {
        return Err(input_error(anyhow::anyhow!(
            "--precision must be above 0 and below 1, got {}",
            args.precision
        )));
    }
    args.network.warmup.get_or_insert(args.cycles);
    let params = args.network.params(0.0, args.cycles)?;
    Net::new(&params).map_err(input_error)?;
    let config = Config {
        run: params.config(
            args.network.topology.kind.name(),
            &args.network.topology.command_line(),
        ),
        seeds: 1,
        messages: Vec::new(),
        traffic_file: None,
    };
    Ok(Saturate {
        params,
        config,
        precision: args.precision,
        format: args.format,
        out: args.out,
    })
}

/// A saturation search, its one item, and where its table or JSON goes.
pub struct Saturate {
    params: NetParams,
    config: Config,
    precision: f64,
    format: Format,
    out: Option<PathBuf>,
}

impl Shardable for Saturate {
    type Result = Saturation;
    type Output = ();

    fn items(&self) -> u64 {
        1
    }

    fn run(&self, positions: &[u64]) -> anyhow::Result<Vec<Saturation>> {
        positions
            .iter()
            .map(|_| saturation_of(&self.params, self.precision).map_err(input_error))
            .collect()
    }

    fn claim(&self) -> anyhow::Result<()> {
        check_out(self.out.as_deref())
    }

    fn finish(&self, (): (), found: Vec<Saturation>) -> anyhow::Result<()> {
        let found = &found[0];
        let text = match self.format {
            Format::Json => {
                let figures = json(&self.params, found)?;
                let kind = Kind::new("saturate", "", &UNITS);
                format!("{}\n", envelope(kind, &self.config, figures)?)
            }
            Format::Text => table(&self.params, found),
        };
        write_or_print(self.out.as_deref(), &text)
    }
}

/// The probes, a row each, and what they found.
fn table(params: &NetParams, s: &Saturation) -> String {
    let plan = params.plan.as_ref();
    let capacity = capacity(plan).unwrap_or(1.0);
    let mut text = format!(
        "{}: {} traffic, {} bytes a message on average; windows of {} cycles\n{:<12} {:>10} {:>10} {:>10}  verdict\n",
        plan.name(),
        params.traffic.pattern.name(),
        params.traffic.mean_bytes(),
        params.cycles,
        "rate",
        "offered",
        "accepted",
        "latency"
    );
    for Judged { probe: p, verdict } in &s.probes {
        let latency = p.latency.map_or("-".to_string(), |l| format!("{l:.1}"));
        text += &format!(
            "{:<12.6} {:>10.4} {:>10.4} {latency:>10}  {}\n",
            p.rate,
            p.offered,
            p.accepted,
            verdict.name()
        );
    }
    let top = s
        .bracket
        .1
        .map_or("the sources' limit: not saturated".to_string(), |h| {
            format!("{h:.4}")
        });
    text + &format!(
        "zero-load latency      {:.1} cycles (network latency)\nsaturation throughput  {:.4} bytes/node/cycle ({:.3} of the uniform-traffic capacity {capacity:.4}), offered load between {:.4} and {top}\ncriterion              unstable, or accepted below {ACCEPTED_FRACTION} of offered, or mean network latency above {LATENCY_FACTOR} x zero-load\n",
        s.zero_load_latency,
        s.throughput,
        s.throughput / capacity,
        s.bracket.0,
    )
}

/// The search as one JSON object.
fn json(params: &NetParams, s: &Saturation) -> anyhow::Result<serde_json::Value> {
    let capacity = capacity(params.plan.as_ref());
    Ok(json!({
        "network": params.plan.name(),
        "traffic": params.traffic.pattern.name(),
        "mean_bytes": params.traffic.mean_bytes(),
        "window": params.cycles,
        "capacity": capacity,
        "zero_load_latency": s.zero_load_latency,
        "throughput": s.throughput,
        "bracket": [s.bracket.0, s.bracket.1],
        "criterion": {"accepted_fraction": ACCEPTED_FRACTION, "latency_factor": LATENCY_FACTOR},
        "probes": serde_json::to_value(&s.probes).context("probes as JSON")?,
    }))
}
