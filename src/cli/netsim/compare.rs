//! `kautzgen netsim compare`: Kautz, de Bruijn, torus and mesh networks of (nearly) the
//! same size and the same switch, under the same flow control, messages, traffic and seed
//! (docs/comparison.md). It chooses the networks from `--degree` and `--nodes` (or takes
//! them from `--network`), runs the comparison ([`crate::experiments::comparison`]) and
//! writes its table, chart and JSON.
//!
//! In: the degree and size, or the networks; the shared options. Out: `compare.md`,
//! `compare.svg` and `compare.json` in `--out`, the table also on standard output. Its
//! items are the comparison's, every network under every pattern ([`Compare`]): with
//! `--shard I/N` it writes a part, which `kautzgen merge` joins ([`crate::cli::shard`]).

use super::envelope::{Config, Kind, envelope};
use super::options::NetworkArgs;
use super::shards::write;
use crate::choice::Choice;
use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::cli::shard::{self, ShardArg, Shardable};
use crate::experiments::comparison::report;
use crate::experiments::comparison::{Comparison, Contender, Searched};
use crate::network::traffic::Pattern;
use crate::output::dir::OutputDir;
use crate::units::choice_arg::choice;
use std::path::PathBuf;

/// The patterns each network is saturated under, unless `--traffic` says otherwise.
const DEFAULT_PATTERNS: &str = "uniform,permutation,bit-complement,transpose,tornado,neighbour";

/// Compare Kautz, de Bruijn, torus and mesh networks of the same size and switch.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Compares networks of (nearly) the same node count built of the same \
(d+1)x(d+1) switch: K(d,k), B(d,k), the unidirectional torus of d dimensions, and for even d \
the bidirectional torus and the mesh of d/2 dimensions, each of the size nearest --nodes \
(or the networks of --network). Every network gets the same flow control, messages, \
traffic and seed. For each: diameter, mean distance, uniform-traffic capacity, zero-load \
latency, the saturation throughput under each pattern of --traffic (netsim saturate's \
search), and the delivered fraction and first-attempt success of uniform traffic with 0 to \
d-1 faulty nodes at --fault-load of its uniform saturation throughput \
(docs/comparison.md).",
    after_help = "Examples:\n  \
kautzgen netsim compare --degree 2 --nodes 100 --out cmp-2-100\n  \
kautzgen netsim compare --degree 4 --nodes 1000 --traffic uniform,tornado --out cmp-4-1000\n  \
kautzgen netsim compare --network '--d 3 --k 6' --network '--topology torus --rings uni --k 10 --n 3' --out sicortex"
)]
pub struct Args {
    /// Network ports of every switch: d of a (d+1)x(d+1) switch
    #[arg(long, default_value_t = 2)]
    degree: u64,
    /// The node count each chosen network comes nearest to (by ratio)
    #[arg(long, default_value_t = 100)]
    nodes: u64,
    /// A network to compare instead of the chosen ones, as netsim's options (repeatable)
    #[arg(long = "network", value_name = "OPTIONS", allow_hyphen_values = true)]
    networks: Vec<String>,
    /// Patterns to saturate every network under, comma-separated
    #[arg(long, value_delimiter = ',', value_parser = choice::<Pattern>(), default_value = DEFAULT_PATTERNS)]
    traffic: Vec<Pattern>,
    /// Options every network is run with (flow control, messages, retries, arbiter,
    /// measurement, seed), as netsim's options
    #[arg(
        long,
        default_value = "",
        value_name = "OPTIONS",
        allow_hyphen_values = true
    )]
    with: String,
    /// Cycles of every measurement window
    #[arg(long, default_value_t = 2000)]
    cycles: u64,
    /// The saturation searches' precision: the bracket's width over its top
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    precision: f64,
    /// The fault runs offer this fraction of each network's uniform saturation throughput
    #[arg(long, default_value_t = 0.5, value_name = "F")]
    fault_load: f64,
    #[command(flatten)]
    shard: ShardArg,
    /// Directory for the results: created, or replaced whole if kautzgen wrote it; with
    /// --shard, the part file
    #[arg(long)]
    out: PathBuf,
    /// Write to --out even when kautzgen did not write it
    #[arg(long)]
    force: bool,
}

/// The unit of every number of compare.json's figures, by path.
const UNITS: [(&str, &str); 20] = [
    ("fault_load", "fraction"),
    ("networks.nodes", "nodes"),
    ("networks.ports", "links"),
    ("networks.links", "links"),
    ("networks.diameter", "hops"),
    ("networks.mean_distance", "hops"),
    ("networks.capacity", "bytes/node/cycle"),
    ("networks.saturation.mean_bytes", "bytes"),
    ("networks.saturation.below", "bytes/node/cycle"),
    ("networks.saturation.zero_load_latency", "cycles"),
    ("networks.saturation.throughput", "bytes/node/cycle"),
    ("networks.saturation.bracket", "bytes/node/cycle"),
    ("networks.saturation.probes.rate", "messages/node/cycle"),
    ("networks.saturation.probes.offered", "bytes/node/cycle"),
    ("networks.saturation.probes.accepted", "bytes/node/cycle"),
    ("networks.saturation.probes.latency", "cycles"),
    ("networks.faults.faulty_nodes", "nodes"),
    ("networks.faults.offered", "bytes/node/cycle"),
    ("networks.faults.delivered_fraction", "fraction"),
    ("networks.faults.first_attempt_success", "fraction"),
];

pub fn run(args: Args) -> anyhow::Result<()> {
    let shard = args.shard.shard()?;
    let out = args.out.clone();
    shard::execute(&job(args)?, shard, Some(&out))
}

/// The comparison of the command line, its networks checked.
pub fn job(args: Args) -> anyhow::Result<Compare> {
    check(&args).map_err(input_error)?;
    let specs = match args.networks.is_empty() {
        true => chosen(args.degree, args.nodes),
        false => args.networks.clone(),
    };
    let mut networks = Vec::new();
    let mut degree = 0;
    for spec in &specs {
        let parsed = parse(spec, &args.with, args.cycles)?;
        let params = parsed.params(0.0, args.cycles)?;
        crate::network::net::Net::new(&params)
            .map_err(|e| input_error(anyhow::anyhow!("{spec}: {e}")))?;
        degree = degree.max(params.plan.ports() as u64);
        networks.push((spec.clone(), params));
    }
    let comparison = Comparison {
        networks,
        patterns: args.traffic.clone(),
        precision: args.precision,
        most_faults: degree.saturating_sub(1),
        fault_load: args.fault_load,
    };
    Ok(Compare { comparison, args })
}

/// A comparison, whose searches are its items, and the options that say where its results
/// go and what its JSON records.
pub struct Compare {
    comparison: Comparison,
    args: Args,
}

impl Shardable for Compare {
    type Result = Searched;
    type Output = OutputDir;

    fn items(&self) -> u64 {
        self.comparison.items().len() as u64
    }

    fn run(&self, positions: &[u64]) -> anyhow::Result<Vec<Searched>> {
        let items = self.comparison.items();
        let chosen: Vec<_> = positions.iter().map(|&p| items[p as usize]).collect();
        Ok(self.comparison.search(&chosen))
    }

    fn claim(&self) -> anyhow::Result<OutputDir> {
        Ok(OutputDir::staged(&self.args.out, self.args.force)?)
    }

    /// Writes the table, the chart and the JSON, and prints the table.
    fn finish(&self, out: OutputDir, searched: Vec<Searched>) -> anyhow::Result<()> {
        let comparison = &self.comparison;
        let contenders = comparison.contenders(searched);
        let table = report::table(comparison, &contenders);
        let svg = report::chart(&contenders).map_err(|e| anyhow::anyhow!("cannot draw: {e}"))?;
        let json = json(&self.args, comparison, &contenders)?;
        write(
            out,
            &[
                ("compare.md", table.as_bytes()),
                ("compare.svg", svg.as_bytes()),
                ("compare.json", json.as_bytes()),
            ],
        )?;
        print_stdout(&table)
    }
}

/// The options' bounds.
fn check(args: &Args) -> anyhow::Result<()> {
    if args.networks.is_empty() && !(1..=14).contains(&args.degree) {
        anyhow::bail!("--degree must be 1 to 14, got {}", args.degree);
    }
    if args.networks.is_empty() && args.nodes < 4 {
        anyhow::bail!("--nodes must be at least 4, got {}", args.nodes);
    }
    if !(args.precision > 0.0 && args.precision < 1.0) {
        anyhow::bail!(
            "--precision must be above 0 and below 1, got {}",
            args.precision
        );
    }
    if !(args.fault_load > 0.0 && args.fault_load <= 1.0) {
        anyhow::bail!(
            "--fault-load must be above 0 and at most 1, got {}",
            args.fault_load
        );
    }
    Ok(())
}

/// The network of `spec` with the shared options `with`, measured in windows of `cycles`
/// after a warm-up as long unless `with` gives one.
fn parse(spec: &str, with: &str, cycles: u64) -> anyhow::Result<NetworkArgs> {
    let words = spec.split_whitespace().chain(with.split_whitespace());
    let mut parsed = NetworkArgs::parse_words(words.map(String::from))
        .map_err(|e| input_error(anyhow::anyhow!("--network '{spec}' --with '{with}': {e}")))?;
    parsed.warmup.get_or_insert(cycles);
    Ok(parsed)
}

/// The networks of `degree` ports nearest `nodes`: K(d,k), B(d,k), the unidirectional
/// torus of d dimensions and, for even d, the bidirectional torus and the mesh of d/2.
fn chosen(degree: u64, nodes: u64) -> Vec<String> {
    let d = degree;
    let words = |k: u64| (d + 1).saturating_mul(d.saturating_pow(k as u32 - 1));
    let mut specs = vec![format!("--d {d} --k {}", nearest(nodes, words))];
    if d >= 2 {
        specs.push(format!(
            "--topology debruijn --d {d} --k {}",
            nearest(nodes, |k| d.saturating_pow(k as u32))
        ));
    }
    let side = |n: u64, least: u64| nearest(nodes, |k| k.saturating_pow(n as u32)).max(least);
    specs.push(format!(
        "--topology torus --rings uni --k {} --n {d}",
        side(d, 2)
    ));
    if d.is_multiple_of(2) {
        let n = d / 2;
        specs.push(format!("--topology torus --k {} --n {n}", side(n, 3)));
        specs.push(format!("--topology mesh --k {} --n {n}", side(n, 2)));
    }
    specs
}

/// The k from 1 up whose `size(k)` is nearest `nodes` by ratio (`size` grows with k; the
/// search stops once it is 64 times too big, or at a million).
fn nearest(nodes: u64, size: impl Fn(u64) -> u64) -> u64 {
    let distance = |k: u64| (size(k) as f64 / nodes as f64).ln().abs();
    (1..=1_000_000)
        .take_while(|&k| k == 1 || size(k - 1) < nodes.saturating_mul(64))
        .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
        .unwrap_or(1)
}

/// The comparison as one JSON object, with the envelope of netsim's JSON.
fn json(args: &Args, comparison: &Comparison, contenders: &[Contender]) -> anyhow::Result<String> {
    let (_, first) = &comparison.networks[0];
    let config = Config {
        run: first.config("compare", &args.with),
        seeds: 1,
        messages: Vec::new(),
        traffic_file: None,
    };
    let figures = serde_json::json!({
        "patterns": args.traffic.iter().map(|p| p.name()).collect::<Vec<_>>(),
        "fault_load": args.fault_load,
        "networks": contenders,
    });
    Ok(format!(
        "{:#}\n",
        envelope(Kind::new("compare", "", &UNITS), &config, figures)?
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networks_nearest_the_size_asked_for() {
        assert_eq!(
            chosen(2, 100),
            [
                "--d 2 --k 6",
                "--topology debruijn --d 2 --k 7",
                "--topology torus --rings uni --k 10 --n 2",
                "--topology torus --k 100 --n 1",
                "--topology mesh --k 100 --n 1",
            ]
        );
        // K(4,5) = 1280, B(4,5) = 1024, 6^4 = 1296, 32^2 = 1024.
        assert_eq!(
            chosen(4, 1000),
            [
                "--d 4 --k 5",
                "--topology debruijn --d 4 --k 5",
                "--topology torus --rings uni --k 6 --n 4",
                "--topology torus --k 32 --n 2",
                "--topology mesh --k 32 --n 2",
            ]
        );
        // K(3,6) = 972, SiCortex's; B(3,6) = 729; 10^3.
        assert_eq!(
            chosen(3, 1000),
            [
                "--d 3 --k 6",
                "--topology debruijn --d 3 --k 6",
                "--topology torus --rings uni --k 10 --n 3",
            ]
        );
    }
}
