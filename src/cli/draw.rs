//! `kautzgen draw`: a Kautz graph as SVG or DOT, with the route set of one pair in colour.

use crate::cli::input_error;
use crate::draw::{Highlight, kautz_dot, render_svg};
use crate::output;
use crate::routing::kautz::route_set;
use crate::topology::kautz::Kautz;
use std::path::PathBuf;

/// Draw K(d,k) as SVG or DOT, with a route set in colour.
///
/// Draws the graph as Fig. 2 of the route-generator paper (Smit et al. 1991) draws K(2,3),
/// optionally with the node-disjoint routes between two nodes highlighted, one colour per
/// route.
///
/// SVG is laid out by Graphviz (`dot`); DOT is the Graphviz source. The format follows
/// --format, or else the name (FILE.svg, FILE.dot); a name without either, such as `-`,
/// a FIFO or /dev/stdout, gets SVG. Graphs of more than 400 nodes are refused as
/// unreadable.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen draw --d 2 --k 3 --src 120 --dst 201 --out k23.svg
  kautzgen draw --d 3 --k 3 --out k33.dot
  kautzgen draw --d 2 --k 3 --format dot --out - | dot -Tpng > k23.png")]
pub struct Args {
    /// Degree: letters are 0..=d.
    #[arg(long)]
    d: u64,
    /// Word length and diameter.
    #[arg(long)]
    k: u64,
    /// Source node of the highlighted route set.
    #[arg(long, value_name = "WORD", requires = "dst")]
    src: Option<String>,
    /// Destination node of the highlighted route set.
    #[arg(long, value_name = "WORD", requires = "src")]
    dst: Option<String>,
    /// Output file, written whole or not at all (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// svg or dot [default: from FILE's extension, else svg].
    #[arg(long, value_enum)]
    format: Option<DrawFormat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DrawFormat {
    Svg,
    Dot,
}

/// The format asked for, or the one the file's name gives.
fn format_of(args: &Args) -> anyhow::Result<DrawFormat> {
    if let Some(format) = args.format {
        return Ok(format);
    }
    match args.out.extension().and_then(|e| e.to_str()) {
        Some("svg") => Ok(DrawFormat::Svg),
        Some("dot") => Ok(DrawFormat::Dot),
        None => Ok(DrawFormat::Svg),
        Some(other) => Err(input_error(anyhow::anyhow!(
            "--out '{}': .{other} is neither .svg nor .dot; give --format",
            args.out.display()
        ))),
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let graph = Kautz::new(args.d, args.k).map_err(input_error)?;
    let svg = format_of(&args)? == DrawFormat::Svg;
    let dot = match (&args.src, &args.dst) {
        (Some(src), Some(dst)) => {
            let src = graph.parse_word(src).map_err(input_error)?;
            let dst = graph.parse_word(dst).map_err(input_error)?;
            let routes = route_set(&graph, src.letters(), dst.letters()).map_err(input_error)?;
            let highlight = Highlight {
                src: &src,
                dst: &dst,
                routes: &routes,
            };
            kautz_dot(&graph, Some(&highlight))
        }
        _ => kautz_dot(&graph, None),
    }
    .map_err(input_error)?;
    let bytes = if svg {
        render_svg(&dot)?
    } else {
        dot.into_bytes()
    };
    Ok(output::file::write(&args.out, &bytes)?)
}
