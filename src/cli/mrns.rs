//! The `mrns` subcommand: the node-disjoint paths of Choi and Chung's MRNS paper (see
//! docs/papers.md) in an MRNS (generalised hypercube) network.
//!
//! In: the radices and two node addresses, most significant digit first. Out: the
//! l = sum (m_i - 1) paths of the golden model in its order, as text (one line per path) or as
//! one line of JSON whose keys and paths always come in the same order.

use crate::cli::input_error;
use crate::cli::output::{Format, print_stdout};
use crate::routing::mrns::{MrnsPath, disjoint_paths};
use crate::topology::mrns::{Address, Mrns};
use anyhow::Context;
use serde::Serialize;

const EXAMPLE: &str = "\
Addresses and radices are written most significant dimension first, as in Choi and Chung's
MRNS paper: --radices 2,3,3,4 is Z2xZ3xZ3xZ4, dimension 3 has radix 2 and dimension 0 radix 4.
A move dI=V sets the digit of dimension I (counted from the right, from 0) to V.

Example (Example 3 of that paper):
  kautzgen mrns paths --radices 2,3,3,4 --src 0,0,0,0 --dst 0,2,2,3
  Z2xZ3xZ3xZ4: 8 node-disjoint paths from 0,0,0,0 to 0,2,2,3 (Hamming distance 3)
  P0 shortest len 3: moves d0=3 d1=2 d2=2; nodes 0,0,0,0 -> 0,0,0,3 -> 0,0,2,3 -> 0,2,2,3
  ...
  P7 excursion len 5: moves d3=1 d0=3 d1=2 d2=2 d3=0; nodes 0,0,0,0 -> 1,0,0,0 -> ...";

/// MRNS (mixed-radix, generalised hypercube) networks of Choi and Chung's MRNS paper.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLE)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Print the l = sum(m_i - 1) node-disjoint paths from --src to --dst.
    ///
    /// The paths of the HCLS construction of Choi and Chung's MRNS paper, in its order: k
    /// shortest paths (k is the Hamming distance), then the paths of length k+1, then those
    /// of length k+2.
    #[command(after_help = EXAMPLE)]
    Paths(PathsArgs),
}

#[derive(Debug, clap::Args)]
struct PathsArgs {
    /// Radices, most significant dimension first: 2,3,3,4 is Z2xZ3xZ3xZ4.
    #[arg(long)]
    radices: String,
    /// Source node, digits most significant first, e.g. 0,0,0,0 (or 0000 when every radix is at most 10).
    #[arg(long)]
    src: String,
    /// Destination node, written like --src; must differ from it.
    #[arg(long)]
    dst: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Paths(paths) => run_paths(paths),
    }
}

fn run_paths(args: PathsArgs) -> anyhow::Result<()> {
    let network = Mrns::parse(&args.radices)
        .context("--radices")
        .map_err(input_error)?;
    let src = network
        .parse_address(&args.src)
        .context("--src")
        .map_err(input_error)?;
    let dst = network
        .parse_address(&args.dst)
        .context("--dst")
        .map_err(input_error)?;
    let generator = disjoint_paths(&network, &src, &dst).map_err(input_error)?;
    let k = generator.hamming_distance();
    let paths: Vec<MrnsPath> = generator.collect();
    let text = match args.format {
        Format::Text => text_report(&network, &src, &dst, k, &paths),
        Format::Json => json_report(&network, &src, &dst, k, &paths)?,
    };
    print_stdout(&text)
}

fn text_report(
    network: &Mrns,
    src: &Address,
    dst: &Address,
    k: usize,
    paths: &[MrnsPath],
) -> String {
    let mut out = format!(
        "{network}: {} node-disjoint paths from {src} to {dst} (Hamming distance {k})\n",
        paths.len()
    );
    for (i, path) in paths.iter().enumerate() {
        let moves: Vec<String> = path
            .moves()
            .iter()
            .map(|m| format!("d{}={}", m.dimension, m.value))
            .collect();
        let nodes: Vec<String> = path.nodes(src).iter().map(Address::to_string).collect();
        out.push_str(&format!(
            "P{i} {} len {}: moves {}; nodes {}\n",
            path.kind().name(),
            path.length(),
            moves.join(" "),
            nodes.join(" -> ")
        ));
    }
    out
}

/// The JSON document; field order here is the order of the keys in the output.
#[derive(Serialize)]
struct JsonReport {
    radices: Vec<usize>,
    src: Vec<u8>,
    dst: Vec<u8>,
    k: usize,
    l: usize,
    paths: Vec<JsonPath>,
}

#[derive(Serialize)]
struct JsonPath {
    kind: &'static str,
    moves: Vec<JsonMove>,
    nodes: Vec<Vec<u8>>,
    len: usize,
}

#[derive(Serialize)]
struct JsonMove {
    dimension: usize,
    value: u8,
}

fn json_report(
    network: &Mrns,
    src: &Address,
    dst: &Address,
    k: usize,
    paths: &[MrnsPath],
) -> anyhow::Result<String> {
    let report = JsonReport {
        radices: network.written_radices(),
        src: src.written(),
        dst: dst.written(),
        k,
        l: network.degree(),
        paths: paths
            .iter()
            .map(|p| JsonPath {
                kind: p.kind().name(),
                moves: p
                    .moves()
                    .iter()
                    .map(|m| JsonMove {
                        dimension: m.dimension,
                        value: m.value,
                    })
                    .collect(),
                nodes: p.nodes(src).iter().map(Address::written).collect(),
                len: p.length(),
            })
            .collect(),
    };
    let mut text = serde_json::to_string(&report).context("cannot encode the paths as JSON")?;
    text.push('\n');
    Ok(text)
}
