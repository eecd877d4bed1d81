//! `kautzgen bench`: route sets per second of the golden model and the flow reference.

use crate::bench::network::{NetworkRun, idle_bytes, measure, network_table};
use crate::bench::{
    BenchError, flow_reference, golden_model, sim_table, simulated, switch_model, switch_table,
    table,
};
use crate::cli::{input_error, output::print_stdout};
use crate::sim::Simulator;
use crate::sim::ghdl::Ghdl;
use crate::sim::vectors::Pairs;
use crate::sim::verilator::Verilator;
use crate::topology::kautz::Kautz;
use std::time::Duration;

/// Route sets per second of the golden model and the flow reference.
///
/// Times the Kautz route-set golden model over every ordered pair of each graph, on one
/// thread, --passes times, and reports the median pass and the fastest; beside it the
/// min-cost-flow reference on a sample of pairs. Then the network switch's cycle model,
/// cycles stepped per second through the traffic of `verify switch`, for d = 2, 4 and 15;
/// and the whole-network model of `netsim` on each of --network-threads: switch-cycles
/// simulated per second, the speedup over one thread, and the peak memory per node (each
/// run a netsim process of its own, set-up included), beside the estimate netsim checks
/// against the machine's memory.
///
/// Build with optimisations (`make bench` runs the release build, with --simulate): the
/// figures of a debug build mean nothing.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen bench
  kautzgen bench --graph 2,10 --graph 8,4 --flow-seconds 1
  kautzgen bench --network 4,5,0.01,10000 --network-threads 1,2,4
  kautzgen bench --simulate --ghdl-pairs 5000")]
pub struct Args {
    /// A graph to time, as D,K; repeat for several.
    #[arg(long = "graph", value_name = "D,K", default_values = ["4,5", "3,6"])]
    graphs: Vec<String>,
    /// Passes of the golden model over every pair of each graph (1 to 99).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..=99))]
    passes: u64,
    /// Seconds spent timing the flow reference on each graph.
    #[arg(long, default_value_t = 2.0)]
    flow_seconds: f64,
    /// Also time the generated route generator of K(4,5): every ordered pair in Verilator,
    /// --ghdl-pairs sampled pairs in GHDL (model builds included).
    #[arg(long)]
    simulate: bool,
    /// Pairs of K(4,5) simulated in GHDL with --simulate.
    #[arg(long, default_value_t = 20_000)]
    ghdl_pairs: u64,
    /// A netsim run to time, as D,K,RATE,CYCLES (uniform traffic, 16-byte messages, seed
    /// 1); repeat for several.
    #[arg(long = "network", value_name = "D,K,RATE,CYCLES", default_values = ["4,5,0.01,10000", "4,8,0.001,10000"])]
    networks: Vec<String>,
    /// Thread counts each netsim run is timed on.
    #[arg(long, value_name = "N,N...", value_delimiter = ',', default_value = "1,2", value_parser = clap::value_parser!(u16).range(1..))]
    network_threads: Vec<u16>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let graphs = args
        .graphs
        .iter()
        .map(|text| parse_graph(text))
        .collect::<anyhow::Result<Vec<Kautz>>>()?;
    let network_runs = args
        .networks
        .iter()
        .map(|text| parse_network(text))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if !(args.flow_seconds.is_finite() && args.flow_seconds > 0.0) {
        return Err(input_error(anyhow::anyhow!(
            "--flow-seconds must be a positive number of seconds, got {}",
            args.flow_seconds
        )));
    }
    let mut rows = Vec::new();
    for graph in &graphs {
        rows.push(golden_model(graph, args.passes as usize).map_err(input_error)?);
        rows.push(
            flow_reference(graph, Duration::from_secs_f64(args.flow_seconds))
                .map_err(input_error)?,
        );
    }
    print_stdout(&table(&rows))?;
    let switches: Vec<_> = [2, 4, 15]
        .into_iter()
        .map(|d| switch_model(d, SWITCH_CYCLES, args.passes as usize))
        .collect();
    print_stdout(&format!("\n{}", switch_table(&switches)))?;
    let program = std::env::current_exe()?;
    let threads: Vec<usize> = args
        .network_threads
        .iter()
        .map(|&t| usize::from(t))
        .collect();
    let idle = idle_bytes(&program)?;
    let mut networks = Vec::new();
    for &(graph, rate, cycles) in &network_runs {
        let run = NetworkRun {
            graph,
            rate,
            cycles,
        };
        networks.extend(measure(&program, run, &threads, idle)?);
    }
    if !networks.is_empty() {
        print_stdout(&format!("\n{}", network_table(&networks)))?;
    }
    if args.simulate {
        let graph = Kautz::new(4, 5).expect("K(4,5) is a graph");
        let runs: [(Box<dyn Simulator>, Pairs); 2] = [
            (Box::new(Verilator::default()), Pairs::All),
            (
                Box::new(Ghdl::default()),
                Pairs::Sample {
                    count: args.ghdl_pairs,
                    seed: 1,
                },
            ),
        ];
        let mut rows = Vec::new();
        for (simulator, pairs) in runs {
            rows.push(
                simulated(simulator.as_ref(), &graph, pairs).map_err(|e| match e {
                    BenchError::Vectors(_) => input_error(e),
                    other => other.into(),
                })?,
            );
        }
        print_stdout(&format!("\n{}", sim_table(&rows)))?;
    }
    Ok(())
}

/// Random cycles of switch traffic per pass, after the directed cases.
const SWITCH_CYCLES: u64 = 200_000;

/// `D,K,RATE,CYCLES`.
fn parse_network(text: &str) -> anyhow::Result<(Kautz, f64, u64)> {
    let bad = || {
        input_error(anyhow::anyhow!(
            "--network '{text}' is not D,K,RATE,CYCLES (for example --network 4,5,0.01,10000)"
        ))
    };
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [d, k, rate, cycles] = parts[..] else {
        return Err(bad());
    };
    let graph = parse_graph(&format!("{d},{k}"))?;
    let rate: f64 = rate
        .parse()
        .ok()
        .filter(|r| (0.0..=1.0).contains(r))
        .ok_or_else(bad)?;
    let cycles: u64 = cycles.parse().map_err(|_| bad())?;
    Ok((graph, rate, cycles))
}

/// `D,K`, a Kautz graph.
pub(crate) fn parse_graph(text: &str) -> anyhow::Result<Kautz> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let numbers: Option<Vec<u64>> = parts.iter().map(|p| p.parse().ok()).collect();
    match numbers.as_deref() {
        Some(&[d, k]) => Kautz::new(d, k).map_err(input_error),
        _ => Err(input_error(anyhow::anyhow!(
            "--graph '{text}' is not D,K (for example --graph 4,5)"
        ))),
    }
}
