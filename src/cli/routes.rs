//! `kautzgen routes`: the node-disjoint Kautz route set of one pair, or of every pair.

use crate::cli::input_error;
use crate::cli::output::{broken_pipe_is_the_end, print_stdout};
use crate::routing::kautz::{Route, route_set};
use crate::topology::kautz::{Kautz, Letter, Word};
use clap::ValueEnum;
use serde::Serialize;
use std::io::Write;

/// Print the d node-disjoint routes between two nodes of K(d,k), shortest first.
///
/// A route is given by its hops: the letters shifted in, one per step. The routes come in
/// the order the route generator of the route-generator paper (Smit et al. 1991) produces
/// them (phase A by decreasing overlap, phase B by increasing inserted letter, phase C by
/// increasing out-letter).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen routes --d 4 --k 5 --src 01234 --dst 23430
  kautzgen routes --d 4 --k 5 --src 0,1,2,3,4 --dst 2,3,4,3,0 --format json
  kautzgen routes --d 2 --k 3 --all --format jsonl")]
pub struct Args {
    /// Degree: letters are 0..=d (1 to 255).
    #[arg(long)]
    d: u64,
    /// Word length and diameter (1 to 64).
    #[arg(long)]
    k: u64,
    /// Source node: "01234", or letters separated by commas ("0,1,2,3,4").
    #[arg(long, value_name = "WORD", required_unless_present = "all")]
    src: Option<String>,
    /// Destination node, spelt like --src.
    #[arg(long, value_name = "WORD", required_unless_present = "all")]
    dst: Option<String>,
    /// Every ordered pair of distinct nodes, in lexicographic order of (src, dst).
    #[arg(long, conflicts_with_all = ["src", "dst"])]
    all: bool,
    /// text: a table for people; json and jsonl: one JSON object per route set and line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Jsonl,
}

/// The JSON form of a route set; field order is part of the interface.
#[derive(Serialize)]
struct RouteSetJson<'a> {
    d: usize,
    k: usize,
    src: &'a [Letter],
    dst: &'a [Letter],
    routes: Vec<RouteJson<'a>>,
}

#[derive(Serialize)]
struct RouteJson<'a> {
    hops: &'a [Letter],
    len: usize,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let graph = Kautz::new(args.d, args.k).map_err(input_error)?;
    match (&args.src, &args.dst) {
        (Some(src), Some(dst)) => {
            let src = graph.parse_word(src).map_err(input_error)?;
            let dst = graph.parse_word(dst).map_err(input_error)?;
            let routes = route_set(&graph, src.letters(), dst.letters()).map_err(input_error)?;
            let text = match args.format {
                Format::Text => table(&graph, &src, &dst, &routes),
                Format::Json | Format::Jsonl => json_line(&graph, &src, &dst, &routes),
            };
            print_stdout(&text)
        }
        _ => all_pairs(&graph, args.format),
    }
}

fn json_line(graph: &Kautz, src: &Word, dst: &Word, routes: &[Route]) -> String {
    let set = RouteSetJson {
        d: graph.d(),
        k: graph.k(),
        src: src.letters(),
        dst: dst.letters(),
        routes: routes
            .iter()
            .map(|r| RouteJson {
                hops: &r.hops,
                len: r.hops.len(),
            })
            .collect(),
    };
    let mut line = serde_json::to_string(&set).expect("route sets always serialise");
    line.push('\n');
    line
}

fn table(graph: &Kautz, src: &Word, dst: &Word, routes: &[Route]) -> String {
    let spell = |letters: &[Letter]| graph.format_letters(letters);
    let rows: Vec<[String; 5]> = routes
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let walk: Vec<Letter> = src.letters().iter().chain(&r.hops).copied().collect();
            [
                (i + 1).to_string(),
                format!("{:?}", r.shape.phase()),
                r.hops.len().to_string(),
                spell(&r.hops),
                spell(&walk),
            ]
        })
        .collect();
    let header = ["#", "phase", "len", "hops", "walk"];
    let widths: Vec<usize> = (0..5)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: [&str; 5]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        format!("  {}\n", padded.join("  ").trim_end())
    };
    let mut text = format!(
        "{} node-disjoint routes from {} to {} in {graph}, shortest first:\n",
        routes.len(),
        spell(src.letters()),
        spell(dst.letters())
    );
    text += &line(header);
    for row in &rows {
        text += &line(row.each_ref().map(String::as_str));
    }
    text
}

/// Streams the route sets of every ordered pair; a closed pipe ends the output quietly.
fn all_pairs(graph: &Kautz, format: Format) -> anyhow::Result<()> {
    let n = graph.enumerable_node_count().map_err(input_error)?;
    let words: Vec<Word> = (0..n).map(|i| graph.word_at(i)).collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for src in &words {
        for dst in words.iter().filter(|&w| w != src) {
            let routes = route_set(graph, src.letters(), dst.letters())
                .expect("enumerated words are distinct nodes");
            let line = match format {
                Format::Text => {
                    let hops: Vec<String> = routes
                        .iter()
                        .map(|r| graph.format_letters(&r.hops))
                        .collect();
                    format!(
                        "{} -> {}: {}\n",
                        graph.format_letters(src.letters()),
                        graph.format_letters(dst.letters()),
                        hops.join(" ")
                    )
                }
                Format::Json | Format::Jsonl => json_line(graph, src, dst, &routes),
            };
            if let Err(e) = out.write_all(line.as_bytes()) {
                return broken_pipe_is_the_end(e);
            }
        }
    }
    out.flush().or_else(broken_pipe_is_the_end)
}
