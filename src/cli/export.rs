//! `kautzgen export`: the network `netsim` runs, for other tools: its arcs as an edge list
//! or GraphML, or one pair's routes as JSON (docs/export.md).
//!
//! In: the topology options every network command takes, the format (or the output's
//! extension) and, for routes, the pair. Out: one file through [`crate::output::file`],
//! written whole or not at all, or standard output for `-`.

use crate::cli::input_error;
use crate::cli::topology::same_node;
use crate::export::{edge_list, graphml, routes};
use crate::fabric::wiring::Wiring;
use crate::network::plan::Plan;
use crate::output;
use crate::units::topology_args::TopologyArgs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Write a network as an edge list or GraphML, or a pair's routes as JSON.
///
/// The network is the one netsim simulates with the same topology options: every node by
/// its index in the simulator's node order (the order `kautzgen topology` lists), with its
/// name (a Kautz word, a torus node's digits) in the edge list's comments and as GraphML's
/// `name` attribute; every link of its switches, GraphML giving the output and input port.
/// The routes are those the source's router tries, in order, each as its nodes and route
/// bytes. The network is fault-free: faults are a run's (netsim's --faulty-node).
///
/// The format follows --format, or else the name: FILE.graphml, FILE.json (routes), and
/// any other name, such as `-` or FILE.txt, an edge list, or routes if --src and --dst are
/// given.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen export --d 2 --k 3 --out k23.txt
  kautzgen export --topology torus --k 4 --n 2 --out torus.graphml
  kautzgen export --d 2 --k 3 --src 101 --dst 012 --out routes.json
  kautzgen export --topology debruijn --d 2 --k 3 --format edgelist --out -")]
pub struct Args {
    #[command(flatten)]
    topology: TopologyArgs,
    /// Source node of the routes (--format routes), named as the topology names its nodes,
    /// as netsim's --faulty-node takes it.
    #[arg(long, value_name = "NODE", requires = "dst")]
    src: Option<String>,
    /// Destination node of the routes, named like --src.
    #[arg(long, value_name = "NODE", requires = "src")]
    dst: Option<String>,
    /// Output file, written whole or not at all (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// edgelist, graphml or routes [default: from FILE's extension: .graphml, .json for
    /// routes, else edgelist].
    #[arg(long, value_enum)]
    format: Option<ExportFormat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ExportFormat {
    /// One arc `SRC DST` a line, `#` comments.
    #[value(name = "edgelist")]
    EdgeList,
    /// GraphML, a directed graph with node names and switch ports.
    Graphml,
    /// The routes of --src to --dst, one line of JSON.
    Routes,
}

impl ExportFormat {
    fn name(self) -> &'static str {
        match self {
            ExportFormat::EdgeList => "edgelist",
            ExportFormat::Graphml => "graphml",
            ExportFormat::Routes => "routes",
        }
    }
}

/// The format asked for, or else the one the file's name or a pair gives.
fn format_of(args: &Args) -> ExportFormat {
    if let Some(format) = args.format {
        return format;
    }
    match args.out.extension().and_then(|e| e.to_str()) {
        Some("graphml") => ExportFormat::Graphml,
        Some("json") => ExportFormat::Routes,
        _ if args.src.is_some() => ExportFormat::Routes,
        _ => ExportFormat::EdgeList,
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let format = format_of(&args);
    output::file::check(&args.out)?;
    let plan = args
        .topology
        .build()
        .and_then(|built| Ok(built.plan()?))
        .map_err(input_error)?;
    let plan = plan.as_ref();
    let command = format!(
        "kautzgen export {} --format {}",
        args.topology.command_line(),
        format.name()
    );
    match (format, &args.src, &args.dst) {
        (ExportFormat::Routes, Some(src), Some(dst)) => {
            let (src, dst) = pair(plan, src, dst)?;
            let command = format!(
                "{command} --src {} --dst {}",
                plan.node_name(src),
                plan.node_name(dst)
            );
            let json = routes::json(plan, src, dst, &command);
            Ok(output::file::write(&args.out, json.as_bytes())?)
        }
        (ExportFormat::Routes, ..) => Err(input_error(anyhow::anyhow!(
            "--format routes writes the routes of a pair: give --src and --dst"
        ))),
        (_, Some(_), _) => Err(input_error(anyhow::anyhow!(
            "--src and --dst choose the pair of --format routes; the {} format writes the whole network",
            format.name()
        ))),
        (ExportFormat::EdgeList, None, _) => {
            write_network(&args.out, plan, &command, edge_list::write)
        }
        (ExportFormat::Graphml, None, _) => {
            write_network(&args.out, plan, &command, graphml::write)
        }
    }
}

/// How a format writes the whole network: [`edge_list::write`], [`graphml::write`].
type NetworkWriter = fn(&mut dyn Write, &dyn Plan, &Wiring, &str) -> std::io::Result<()>;

/// Writes `plan`'s network to `path` with `write`, streaming: a network may have millions
/// of links.
fn write_network(
    path: &Path,
    plan: &dyn Plan,
    command: &str,
    write: NetworkWriter,
) -> anyhow::Result<()> {
    let wiring = plan.wiring()?;
    Ok(output::file::write_with(path, |out| {
        write(out, plan, &wiring, command)
    })?)
}

/// The nodes named `src` and `dst`, as netsim parses them, if they differ.
fn pair(plan: &dyn Plan, src: &str, dst: &str) -> anyhow::Result<(usize, usize)> {
    let src = plan.parse_node(src).map_err(input_error)?;
    let dst = plan.parse_node(dst).map_err(input_error)?;
    if src == dst {
        return Err(same_node(&plan.node_name(src)));
    }
    Ok((src, dst))
}
