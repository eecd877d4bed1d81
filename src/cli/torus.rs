//! The `torus` subcommand: routes on the k-ary n-cube with the golden models of Demaine and
//! Srinivas's k-ary n-cube paper (docs/papers.md).
//!
//! In: k, n, an algorithm, source and destination, faulty links and nodes (`route`); k and
//! n (`header`). Out: every router evaluation of the route (node, header in, masked ports,
//! port, header out) or the header layout, as an aligned table or as JSON with fields in a
//! fixed order. The channel dependency analysis (`deadlock`) is in [`deadlock`].

use crate::choice::Choice;
use crate::cli::input_error;
use crate::cli::output::{Format, columns, print_stdout};
use crate::routing::torus::{
    Action, Algorithm, Header, HeaderLayout, Reading, Route, Router, RoutingError,
};
use crate::topology::torus::{Faults, Node, PortMask, Torus};
use crate::units::choice_arg::choice;
use clap::Subcommand;
use serde::Serialize;

mod deadlock;
mod witness;

/// Routing on the k-ary n-cube: e-cube, double e-cube, west-first, direction-first.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Routing on the k-ary n-cube with the golden models of Demaine and Srinivas, \
\"A novel routing algorithm for k-ary n-cube interconnection networks\": e-cube, double \
e-cube, west-first (2-D torus) and direction-first e-cube, around faulty links and nodes.\n\n\
Nodes are written most significant digit first, as the paper writes them: 0,1,1 (or 011 \
when k <= 10) is the paper's node 011, digit x0 = 1 written last. Port +d raises digit d \
by one (mod k), -d lowers it; a link is NODE:PORT, the output port of that node.",
    after_help = "Examples:\n  \
kautzgen torus route --k 3 --n 3 --algo direction-first --src 0,1,1 --dst 2,2,2\n  \
kautzgen torus route --k 4 --n 2 --algo west-first --src 0,0 --dst 2,3 --faulty-link 0,0:-0 --format json\n  \
kautzgen torus header --k 3 --n 3\n  \
kautzgen torus deadlock --k 5 --n 2 --algo direction-first"
)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Route one message and show every router evaluation on its way.
    #[command(
        after_help = "Example (Fig. 3 of Demaine and Srinivas's k-ary n-cube paper):\n  \
kautzgen torus route --k 3 --n 3 --algo direction-first --src 0,1,1 --dst 2,2,2\n\n\
Each row is one router: the node, the header (f, x, y) it receives, the ports the faults \
mask there, the port it chooses and the header it sends. A route ends delivered (eject) \
or blocked where every port the algorithm allows is faulty; both exit with status 0."
    )]
    Route(RouteArgs),
    /// Show the routing header's fields and width (Theorem 5.4 of Demaine and Srinivas's
    /// k-ary n-cube paper).
    #[command(after_help = "Example:\n  kautzgen torus header --k 3 --n 3")]
    Header(HeaderArgs),
    /// Build the channel dependency graph of a routing relation and look for a cycle.
    #[command(after_help = "Examples:\n  \
kautzgen torus deadlock --k 5 --n 2 --algo e-cube\n  \
kautzgen torus deadlock --k 4 --n 3 --algo direction-first --faulty-link 0,0,0:+0\n  \
kautzgen torus deadlock --k 5 --n 3 --algo direction-first --simulate\n\n\
Channels are the output links NODE:PORT. Channel a depends on channel b when a message \
that arrived over a may next ask for b: every node, destination and header state the \
golden routing function reaches is walked, and every port it may choose among free ones \
is followed. The answer is `acyclic` (deadlock-free by the Dally-Seitz condition) or the \
shortest cycle through the lowest channel on any cycle, and then the forced cycle: one \
whose every dependency is some message's only choice, a deadlock even for adaptive \
routing. docs/torus.md says what a cycle means for the adaptive algorithms.")]
    Deadlock(deadlock::DeadlockArgs),
    /// Run the deadlock analysis over a grid of cubes, every algorithm, three fault sets.
    #[command(after_help = "Example (the table of docs/torus.md):\n  \
kautzgen torus deadlock-sweep\n  \
kautzgen torus deadlock-sweep --ks 3,5 --ns 2 --shard 0/2 --out part-0.json\n\n\
Fault sets per cube: none; the link 0...0:+0; the links 0...0:+0 and 0...0:-0. Rows are \
ordered by n, k, algorithm (e-cube, double-e-cube, west-first on n = 2, direction-first) \
and fault set.")]
    DeadlockSweep(deadlock::SweepArgs),
}

#[derive(Debug, clap::Args)]
struct RouteArgs {
    /// Nodes per ring (k >= 2)
    #[arg(long)]
    k: u64,
    /// Number of dimensions (n >= 1)
    #[arg(long)]
    n: u64,
    /// Routing algorithm
    #[arg(long, value_parser = choice::<Algorithm>())]
    algo: Algorithm,
    /// When double-e-cube and direction-first select their pair of dimensions
    #[arg(long, value_parser = choice::<Reading>(), default_value = Reading::Reselect.name())]
    reading: Reading,
    /// Source node, most significant digit first, e.g. 0,1,1
    #[arg(long)]
    src: String,
    /// Destination node, most significant digit first, e.g. 2,2,2
    #[arg(long)]
    dst: String,
    /// A faulty output link NODE:PORT, e.g. 1,0:+0 (repeatable)
    #[arg(long = "faulty-link", value_name = "NODE:PORT")]
    faulty_links: Vec<String>,
    /// A faulty node, e.g. 1,1 (repeatable)
    #[arg(long = "faulty-node", value_name = "NODE")]
    faulty_nodes: Vec<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Debug, clap::Args)]
struct HeaderArgs {
    /// Nodes per ring (k >= 2)
    #[arg(long)]
    k: u64,
    /// Number of dimensions (n >= 1)
    #[arg(long)]
    n: u64,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The job of a shardable torus command line (`deadlock-sweep`); `None` for one that runs
/// whole.
pub fn job(args: Args) -> anyhow::Result<Option<Box<dyn crate::cli::shard::Job>>> {
    Ok(match args.command {
        Command::DeadlockSweep(args) => Some(Box::new(deadlock::sweep_job(args)?)),
        _ => None,
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Route(args) => route(args),
        Command::Header(args) => header(args),
        Command::Deadlock(args) => deadlock::run(args),
        Command::DeadlockSweep(args) => deadlock::sweep(args),
    }
}

fn route(args: RouteArgs) -> anyhow::Result<()> {
    let torus = Torus::new(args.k, args.n).map_err(input_error)?;
    let router = Router::with_reading(torus, args.algo, args.reading).map_err(input_error)?;
    let src = torus.parse_node(&args.src).map_err(input_error)?;
    let dst = torus.parse_node(&args.dst).map_err(input_error)?;
    let mut faults = Faults::new();
    for text in &args.faulty_links {
        faults.insert_link(torus.parse_link(text).map_err(input_error)?);
    }
    for text in &args.faulty_nodes {
        faults.insert_node(torus.parse_node(text).map_err(input_error)?);
    }
    let route = router.route(&src, &dst, &faults).map_err(|e| match e {
        RoutingError::HopLimit { .. } => anyhow::Error::new(e),
        _ => input_error(e),
    })?;
    let text = match args.format {
        Format::Text => route_text(&router, &src, &dst, &faults, &route),
        Format::Json => route_json(&router, &src, &dst, &faults, &route)?,
    };
    print_stdout(&text)
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

fn header_text(header: &Header) -> String {
    format!("f={} x={} y={}", u8::from(header.f), header.x, header.y)
}

fn masked_text(mask: PortMask) -> String {
    let ports: Vec<String> = mask.ports().map(|p| p.to_string()).collect();
    if ports.is_empty() {
        "-".to_string()
    } else {
        ports.join(",")
    }
}

fn route_text(router: &Router, src: &Node, dst: &Node, faults: &Faults, route: &Route) -> String {
    let hops = route.hop_count();
    let outcome = if route.delivered() {
        format!("delivered in {hops} hop{}", plural(hops))
    } else {
        let at = route.nodes().last().expect("a route has its source");
        format!("blocked at {at} after {hops} hop{}", plural(hops))
    };
    let mut text = format!(
        "{} on the {} from {src} to {dst}: {outcome}\n",
        router.label(),
        router.torus()
    );
    let links: Vec<String> = faults.links().map(|l| l.to_string()).collect();
    let nodes: Vec<String> = faults.nodes().map(|v| v.to_string()).collect();
    if !links.is_empty() {
        text += &format!("faulty links: {}\n", links.join(" "));
    }
    if !nodes.is_empty() {
        text += &format!("faulty nodes: {}\n", nodes.join(" "));
    }
    let mut rows = vec![[
        "hop".to_string(),
        "node".to_string(),
        "header in".to_string(),
        "masked".to_string(),
        "port".to_string(),
        "header out".to_string(),
    ]];
    for (i, hop) in route.hops.iter().enumerate() {
        let (port, out) = match hop.decision.action {
            Action::Forward(port) => (port.to_string(), header_text(&hop.decision.header)),
            Action::Deliver => ("eject".to_string(), String::new()),
            Action::Blocked => ("blocked".to_string(), String::new()),
        };
        rows.push([
            i.to_string(),
            hop.node.to_string(),
            header_text(&hop.header),
            masked_text(hop.mask),
            port,
            out,
        ]);
    }
    text + &columns(&rows)
}

#[derive(Serialize)]
struct RouteJson {
    k: u32,
    n: usize,
    algo: &'static str,
    /// Only under a reading other than the default ([`reading_json`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    reading: Option<&'static str>,
    src: Vec<u32>,
    dst: Vec<u32>,
    faulty_links: Vec<String>,
    faulty_nodes: Vec<Vec<u32>>,
    outcome: &'static str,
    len: usize,
    hops: Vec<HopJson>,
}

#[derive(Serialize)]
struct HopJson {
    node: Vec<u32>,
    #[serde(rename = "in")]
    header_in: HeaderJson,
    masked: Vec<String>,
    port: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<HeaderJson>,
}

#[derive(Serialize)]
struct HeaderJson {
    f: u8,
    x: usize,
    y: usize,
}

/// The reading as JSON prints it: only when it is not the default, so that the default's
/// output stays as it was before there were readings.
fn reading_json(router: &Router) -> Option<&'static str> {
    (router.reading() != Reading::default()).then(|| router.reading().name())
}

fn written(node: &Node) -> Vec<u32> {
    node.written().collect()
}

fn header_json(header: &Header) -> HeaderJson {
    HeaderJson {
        f: u8::from(header.f),
        x: header.x,
        y: header.y,
    }
}

fn route_json(
    router: &Router,
    src: &Node,
    dst: &Node,
    faults: &Faults,
    route: &Route,
) -> anyhow::Result<String> {
    let hops = route
        .hops
        .iter()
        .map(|hop| {
            let (port, out) = match hop.decision.action {
                Action::Forward(port) => {
                    (port.to_string(), Some(header_json(&hop.decision.header)))
                }
                Action::Deliver => ("eject".to_string(), None),
                Action::Blocked => ("blocked".to_string(), None),
            };
            HopJson {
                node: written(&hop.node),
                header_in: header_json(&hop.header),
                masked: hop.mask.ports().map(|p| p.to_string()).collect(),
                port,
                out,
            }
        })
        .collect();
    let json = RouteJson {
        k: router.torus().k(),
        n: router.torus().n(),
        algo: router.algorithm().name(),
        reading: reading_json(router),
        src: written(src),
        dst: written(dst),
        faulty_links: faults.links().map(|l| l.to_string()).collect(),
        faulty_nodes: faults.nodes().map(written).collect(),
        outcome: if route.delivered() {
            "delivered"
        } else {
            "blocked"
        },
        len: route.hop_count(),
        hops,
    };
    Ok(serde_json::to_string(&json)? + "\n")
}

#[derive(Serialize)]
struct HeaderLayoutJson {
    k: u32,
    n: usize,
    width: u32,
    fields: Vec<FieldJson>,
}

#[derive(Serialize)]
struct FieldJson {
    name: String,
    lsb: u32,
    width: u32,
}

fn header(args: HeaderArgs) -> anyhow::Result<()> {
    let torus = Torus::new(args.k, args.n).map_err(input_error)?;
    let fields = HeaderLayout::new(torus.k(), torus.n()).fields();
    let width: u32 = fields.iter().map(|f| f.width).sum();
    let text = match args.format {
        Format::Text => {
            let mut rows = vec![["field".to_string(), "bits".to_string(), "width".to_string()]];
            for field in &fields {
                let bits = match field.width {
                    0 => "-".to_string(),
                    1 => field.lsb.to_string(),
                    w => format!("{}..{}", field.lsb, field.lsb + w - 1),
                };
                rows.push([field.name.clone(), bits, field.width.to_string()]);
            }
            format!(
                "header of the {torus}: {width} bits (destination digits, x, y, f)\n{}",
                columns(&rows)
            )
        }
        Format::Json => {
            let json = HeaderLayoutJson {
                k: torus.k(),
                n: torus.n(),
                width,
                fields: fields
                    .into_iter()
                    .map(|f| FieldJson {
                        name: f.name,
                        lsb: f.lsb,
                        width: f.width,
                    })
                    .collect(),
            };
            serde_json::to_string(&json)? + "\n"
        }
    };
    print_stdout(&text)
}
