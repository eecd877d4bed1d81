//! The `ldi` subcommand: facts, routes and switch settings of LDI(M,S), the network of
//! Melhem's LDI paper (see docs/papers.md).
//!
//! In: M and S, and for routes a source, a destination and a routing method. Out: text for
//! people or one line of JSON (fields in a fixed order) on standard output. Every error in
//! what the user asked for (parameters, nodes, a method that does not fit M) exits with 2.

use crate::cli::input_error;
use crate::cli::output::{Format, print_stdout};
use crate::routing::ldi::{Route, Theorem3, shortest_route};
use crate::topology::ldi::Ldi;
use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use serde::Serialize;
use std::fmt::Write;

/// LDI(M,S) networks (Melhem): node n has S links, link L running to (S n + L) mod M.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen ldi info --m 18 --s 3
  kautzgen ldi routes --m 18 --s 3 --src 7 --dst 14 --method theorem3
  kautzgen ldi switches --m 9 --s 3 --format json")]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Info(InfoArgs),
    Routes(RoutesArgs),
    Switches(SwitchesArgs),
}

/// The parameters every command takes.
#[derive(Debug, clap::Args)]
struct GraphArgs {
    /// Number of nodes M, S < M <= 2^32.
    #[arg(long)]
    m: u64,
    /// Degree S (links per node, switching planes), 2 <= S <= 65536.
    #[arg(long)]
    s: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Size, diameter and which fixed-length routing theorems apply.
///
/// The diameter is the h with S^(h-1) < M <= S^h. Theorem 3 routes every pair in exactly
/// h hops when M = S^(h-1) G with 1 < G <= S; two-hop routing (Theorems 1 and 2) is its
/// case h = 2.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  kautzgen ldi info --m 18 --s 3
prints
  LDI(18,3): 18 nodes, 3 links per node, 54 links
  diameter: 3 (3^2 = 9 < 18 <= 27 = 3^3)
  theorem 3: M = 3^2 * 2, G = 2: every pair has routes of exactly 3 hops
  two-hop: no")]
struct InfoArgs {
    #[command(flatten)]
    graph: GraphArgs,
}

/// Routes from one node to another, as link numbers and the nodes they visit.
///
/// Link L of node n runs to (S n + L) mod M. The methods are listed under --method.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  kautzgen ldi routes --m 18 --s 3 --src 7 --dst 14 --method theorem3
prints
  LDI(18,3) theorem3 routes 7 -> 14: 2 of 3 hops
  route 0: links 0 1 2, nodes 7 3 10 14
  route 1: links 2 1 2, nodes 7 5 16 14")]
struct RoutesArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// Source node, 0 to M-1.
    #[arg(long)]
    src: u64,
    /// Destination node, 0 to M-1, not the source.
    #[arg(long)]
    dst: u64,
    /// Routing method.
    #[arg(long, value_enum, default_value_t = Method::Shortest)]
    method: Method,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Method {
    /// Any M: the shortest route; among equals, the lexicographically smallest links.
    Shortest,
    /// M = S^(h-1) G, 1 < G <= S: all routes of exactly h hops, by first link.
    Theorem3,
    /// M = S G, 1 < G <= S (Theorems 1 and 2): theorem3 with h = 2.
    TwoHop,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Shortest => "shortest",
            Method::Theorem3 => "theorem3",
            Method::TwoHop => "two-hop",
        }
    }
}

/// The settings of the S crossbar switches that together realise every link.
///
/// Switch y connects node n to perm[y][n]; each switch is a permutation and every link is
/// in exactly one switch. The paper's eq. (3) is used where it gives permutations, the
/// gcd-classes formula everywhere else.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  kautzgen ldi switches --m 9 --s 3
prints
  LDI(9,3) switches by paper-eq3: L = (y - n div S) mod S
  switch 0: 0->0 1->3 2->6 3->2 4->5 5->8 6->1 7->4 8->7
  switch 1: 0->1 1->4 2->7 3->0 4->3 5->6 6->2 7->5 8->8
  switch 2: 0->2 1->5 2->8 3->1 4->4 5->7 6->0 7->3 8->6")]
struct SwitchesArgs {
    #[command(flatten)]
    graph: GraphArgs,
}

/// Runs `kautzgen ldi ...`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let text = match args.command {
        Command::Info(args) => info(&args)?,
        Command::Routes(args) => routes(&args)?,
        Command::Switches(args) => switches(&args)?,
    };
    print_stdout(&text)
}

fn graph(args: &GraphArgs) -> anyhow::Result<Ldi> {
    Ldi::new(args.m, args.s).map_err(input_error)
}

fn json(value: &impl Serialize) -> anyhow::Result<String> {
    let mut text = serde_json::to_string(value).context("cannot write JSON")?;
    text.push('\n');
    Ok(text)
}

fn joined(values: &[usize]) -> String {
    let parts: Vec<String> = values.iter().map(usize::to_string).collect();
    parts.join(" ")
}

#[derive(Serialize)]
struct InfoJson {
    m: usize,
    s: usize,
    links: usize,
    diameter: usize,
    /// G of Theorem 3, absent when M is not S^(h-1) G.
    theorem3_g: Option<usize>,
    two_hop: bool,
}

fn info(args: &InfoArgs) -> anyhow::Result<String> {
    let ldi = graph(&args.graph)?;
    let (m, s, h) = (ldi.m(), ldi.s(), ldi.h());
    let theorem3 = Theorem3::new(ldi).ok();
    let two_hop = Theorem3::two_hop(ldi).is_ok();
    if args.graph.format == Format::Json {
        return json(&InfoJson {
            m,
            s,
            links: m * s,
            diameter: h,
            theorem3_g: theorem3.map(|t| t.g()),
            two_hop,
        });
    }
    let mut text = format!("{ldi}: {m} nodes, {s} links per node, {} links\n", m * s);
    let (below, above) = (ldi.s_pow(h - 1), ldi.s_pow(h));
    writeln!(
        text,
        "diameter: {h} ({s}^{} = {below} < {m} <= {above} = {s}^{h})",
        h - 1
    )?;
    match theorem3 {
        Some(t) => writeln!(
            text,
            "theorem 3: M = {s}^{} * {g}, G = {g}: every pair has routes of exactly {h} hops",
            h - 1,
            g = t.g()
        )?,
        None => writeln!(
            text,
            "theorem 3: no, {m} is not a multiple of {s}^{} = {below}",
            h - 1
        )?,
    }
    writeln!(text, "two-hop: {}", if two_hop { "yes" } else { "no" })?;
    Ok(text)
}

#[derive(Serialize)]
struct RoutesJson<'a> {
    m: usize,
    s: usize,
    method: &'static str,
    src: usize,
    dst: usize,
    hops: usize,
    routes: Vec<RouteJson<'a>>,
}

#[derive(Serialize)]
struct RouteJson<'a> {
    links: &'a [usize],
    nodes: &'a [usize],
}

fn routes(args: &RoutesArgs) -> anyhow::Result<String> {
    let ldi = graph(&args.graph)?;
    let src = ldi.node(args.src).context("--src").map_err(input_error)?;
    let dst = ldi.node(args.dst).context("--dst").map_err(input_error)?;
    if src == dst {
        return Err(input_error(anyhow::anyhow!(
            "--src and --dst are both node {src}; a route needs two different nodes"
        )));
    }
    let found: Vec<Route> = match args.method {
        Method::Shortest => vec![shortest_route(&ldi, src, dst)],
        Method::Theorem3 => Theorem3::new(ldi).map_err(input_error)?.routes(src, dst),
        Method::TwoHop => Theorem3::two_hop(ldi)
            .map_err(input_error)?
            .routes(src, dst),
    };
    // Every method returns at least one route, all of the same length.
    let hops = found[0].hops();
    let method = args.method.name();
    if args.graph.format == Format::Json {
        return json(&RoutesJson {
            m: ldi.m(),
            s: ldi.s(),
            method,
            src,
            dst,
            hops,
            routes: found
                .iter()
                .map(|r| RouteJson {
                    links: &r.links,
                    nodes: &r.nodes,
                })
                .collect(),
        });
    }
    let mut text = format!(
        "{ldi} {method} routes {src} -> {dst}: {} of {hops} hops\n",
        found.len()
    );
    for (i, route) in found.iter().enumerate() {
        writeln!(
            text,
            "route {i}: links {}, nodes {}",
            joined(&route.links),
            joined(&route.nodes)
        )?;
    }
    Ok(text)
}

#[derive(Serialize)]
struct SwitchesJson<'a> {
    m: usize,
    s: usize,
    method: &'static str,
    formula: &'static str,
    switches: Vec<SwitchJson<'a>>,
}

#[derive(Serialize)]
struct SwitchJson<'a> {
    switch: usize,
    targets: &'a [usize],
    links: &'a [usize],
}

fn switches(args: &SwitchesArgs) -> anyhow::Result<String> {
    let ldi = graph(&args.graph)?;
    let settings = ldi.switches().map_err(input_error)?;
    let (method, formula) = (settings.method.name(), settings.method.formula());
    if args.graph.format == Format::Json {
        return json(&SwitchesJson {
            m: ldi.m(),
            s: ldi.s(),
            method,
            formula,
            switches: settings
                .perms
                .iter()
                .zip(&settings.links)
                .enumerate()
                .map(|(switch, (targets, links))| SwitchJson {
                    switch,
                    targets,
                    links,
                })
                .collect(),
        });
    }
    let mut text = format!("{ldi} switches by {method}: {formula}\n");
    for (y, perm) in settings.perms.iter().enumerate() {
        write!(text, "switch {y}:")?;
        for (n, target) in perm.iter().enumerate() {
            write!(text, " {n}->{target}")?;
        }
        text.push('\n');
    }
    Ok(text)
}
