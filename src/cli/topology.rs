//! `kautzgen topology`: a topology as a network of switches (its size, switch, links, idle
//! ports, diameter, mean distance and route table), or one pair's routes with their route
//! bytes.

use super::output::{Format, broken_pipe_is_the_end, columns, print_stdout};
use crate::cli::input_error;
use crate::fabric::network::SwitchNetwork;
use crate::network::distances::{Distances, distances};
use crate::routing::paths::NodePath;
use crate::topologies::Built;
use crate::units::topology_args::TopologyArgs;
use serde::Serialize;
use std::io::Write;

/// Describe a network of one (d+1)x(d+1) switch per node on any topology, or print one
/// pair's routes, in the order the source router tries them, with their route bytes.
///
/// A route byte is the output port a switch takes (1 to d; port 0 is the router's). Kautz
/// routes come from the route generator; the others from the min-cost flow: as many
/// node-disjoint routes as the pair has, of least total length, shortest first
/// (docs/topologies.md).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen topology --topology torus --k 3 --n 2 --rings uni
  kautzgen topology --topology debruijn --d 2 --k 3 --src 000 --dst 111
  kautzgen topology --topology mesh --k 4 --n 2 --routes dimension-order --src 0,3 --dst 2,0
  kautzgen topology --topology file:graph.txt --all --format json")]
pub struct Args {
    #[command(flatten)]
    topology: TopologyArgs,
    /// Source node of the routes to print, named as the topology names its nodes (a Kautz
    /// or de Bruijn word, torus and mesh digits most significant first with commas, an edge
    /// list's number).
    #[arg(long, value_name = "NODE", requires = "dst")]
    src: Option<String>,
    /// Destination node, named like --src.
    #[arg(long, value_name = "NODE", requires = "src")]
    dst: Option<String>,
    /// Every ordered pair's routes, in node order, a line each: the route bytes of each
    /// route, or with --format json one JSON object per pair.
    #[arg(long, conflicts_with_all = ["src", "dst"])]
    all: bool,
    /// Output: lines for people, or one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Most nodes whose every pair's routes are listed to give the route table's size.
const MAX_TABULATED_NODES: usize = 256;
/// Most nodes whose diameter and mean distance are found, by a search from every node: a
/// few seconds at most.
const MAX_DISTANCE_NODES: usize = 4096;

pub fn run(args: Args) -> anyhow::Result<()> {
    let built = args.topology.build().map_err(input_error)?;
    let network = built.network().map_err(input_error)?;
    let net = network.as_ref();
    if args.all {
        return all_pairs(&built, net, args.format);
    }
    let text = match (&args.src, &args.dst) {
        (Some(src), Some(dst)) => {
            let (src, dst) = (node(net, src)?, node(net, dst)?);
            if src == dst {
                return Err(same_node(net.node_name(src)));
            }
            let routes = built.routes(src, dst).map_err(input_error)?;
            pair(&built, net, src, dst, &routes, args.format)
        }
        _ => summary(&built, net, args.format),
    };
    print_stdout(&text)
}

/// The refusal of a pair whose --src and --dst are both the node `name`.
pub(super) fn same_node(name: &str) -> anyhow::Error {
    input_error(anyhow::anyhow!(
        "--src and --dst are the same node, {name}; a route joins two different nodes"
    ))
}

fn node(network: &SwitchNetwork, name: &str) -> anyhow::Result<usize> {
    network.node_named(name.trim()).ok_or_else(|| {
        input_error(anyhow::anyhow!(
            "{} has no node '{name}'; its nodes are named like {} and {}",
            network.name(),
            network.node_name(0),
            network.node_name(network.node_count() - 1)
        ))
    })
}

/// What the whole network is, in JSON; field order is part of the interface.
#[derive(Serialize)]
struct SummaryJson<'a> {
    topology: &'a str,
    nodes: usize,
    ports: usize,
    links: usize,
    idle_ports: usize,
    diameter: Option<u32>,
    /// Over every ordered pair of distinct nodes, as `netsim compare` reports it.
    mean_distance: Option<f64>,
    routes: &'a str,
    table: Option<Table>,
}

/// The routes of every ordered pair, as a source router's table would hold them.
#[derive(Serialize, Clone, Copy)]
struct Table {
    pairs: usize,
    routes: usize,
    fewest_per_pair: usize,
    most_per_pair: usize,
    route_bytes: usize,
    longest_route: usize,
}

fn table(built: &Built, net: &SwitchNetwork) -> Option<Table> {
    let n = net.node_count();
    if n > MAX_TABULATED_NODES {
        return None;
    }
    let mut table = Table {
        pairs: 0,
        routes: 0,
        fewest_per_pair: usize::MAX,
        most_per_pair: 0,
        route_bytes: 0,
        longest_route: 0,
    };
    for s in 0..n {
        for t in (0..n).filter(|&t| t != s) {
            let routes = built
                .routes(s, t)
                .expect("two distinct nodes of the network");
            table.pairs += 1;
            table.routes += routes.len();
            table.fewest_per_pair = table.fewest_per_pair.min(routes.len());
            table.most_per_pair = table.most_per_pair.max(routes.len());
            for r in &routes {
                table.route_bytes += r.len() - 1;
                table.longest_route = table.longest_route.max(r.len() - 1);
            }
        }
    }
    Some(table)
}

fn summary(built: &Built, net: &SwitchNetwork, format: Format) -> String {
    let links = net.digraph().arc_count();
    let distances = all_distances(built, net);
    let json = SummaryJson {
        topology: net.name(),
        nodes: net.node_count(),
        ports: net.ports(),
        links,
        idle_ports: net.node_count() * net.ports() - links,
        diameter: distances.map(|d| d.diameter),
        mean_distance: distances.map(|d| d.mean),
        routes: built.route_source(),
        table: table(built, net),
    };
    if format == Format::Json {
        return serde_json::to_string(&json).expect("summaries serialise") + "\n";
    }
    let switch = net.ports() + 1;
    let mut text = format!(
        "{}: {} nodes, a {switch}x{switch} switch at each ({} network ports), {links} links, {} idle output ports\n",
        json.topology, json.nodes, json.ports, json.idle_ports
    );
    if let Some(d) = distances {
        text += &format!("diameter: {}, mean distance: {:.4}\n", d.diameter, d.mean);
    }
    text += &format!("routes: {}\n", json.routes);
    text += &match json.table {
        Some(t) => format!(
            "route table: {} ordered pairs, {} to {} routes each, {} routes, {} route bytes, the longest {} hops\n",
            t.pairs, t.fewest_per_pair, t.most_per_pair, t.routes, t.route_bytes, t.longest_route
        ),
        None => format!(
            "route table: not listed above {MAX_TABULATED_NODES} nodes; give --src and --dst for a pair's routes\n"
        ),
    };
    text
}

/// The distances between every ordered pair of a network of at most
/// [`MAX_DISTANCE_NODES`] nodes, by the search `netsim compare` makes.
fn all_distances(built: &Built, net: &SwitchNetwork) -> Option<Distances> {
    let n = net.node_count();
    if n > MAX_DISTANCE_NODES {
        return None;
    }
    let plan = built
        .plan()
        .expect("a plan holds more nodes than are searched");
    distances(plan.as_ref(), n)
}

/// One pair's routes in JSON; field order is part of the interface.
#[derive(Serialize)]
struct PairJson<'a> {
    topology: &'a str,
    src: &'a str,
    dst: &'a str,
    routes: Vec<RouteJson<'a>>,
}

#[derive(Serialize)]
struct RouteJson<'a> {
    len: usize,
    ports: Vec<u8>,
    walk: Vec<&'a str>,
}

fn pair(
    built: &Built,
    net: &SwitchNetwork,
    src: usize,
    dst: usize,
    routes: &[NodePath],
    format: Format,
) -> String {
    let json = PairJson {
        topology: net.name(),
        src: net.node_name(src),
        dst: net.node_name(dst),
        routes: routes
            .iter()
            .map(|r| RouteJson {
                len: r.len() - 1,
                ports: net.port_route(r),
                walk: r.iter().map(|&v| net.node_name(v)).collect(),
            })
            .collect(),
    };
    if format == Format::Json {
        return serde_json::to_string(&json).expect("routes serialise") + "\n";
    }
    let header = ["#", "len", "ports", "walk"].map(String::from);
    let rows: Vec<[String; 4]> = std::iter::once(header)
        .chain(json.routes.iter().enumerate().map(|(i, r)| {
            let ports: Vec<String> = r.ports.iter().map(u8::to_string).collect();
            [
                (i + 1).to_string(),
                r.len.to_string(),
                ports.join(" "),
                r.walk.join(" "),
            ]
        }))
        .collect();
    let text = format!(
        "{} route{} from {} to {} in {} ({}):\n",
        routes.len(),
        if routes.len() == 1 { "" } else { "s" },
        json.src,
        json.dst,
        json.topology,
        built.route_source()
    );
    text + &columns(&rows)
}

/// Streams every ordered pair's routes; a closed pipe ends the output quietly.
fn all_pairs(built: &Built, net: &SwitchNetwork, format: Format) -> anyhow::Result<()> {
    let n = net.node_count();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for s in 0..n {
        for t in (0..n).filter(|&t| t != s) {
            let routes = built
                .routes(s, t)
                .expect("two distinct nodes of the network");
            let line = match format {
                Format::Text => {
                    let bytes: Vec<String> = routes
                        .iter()
                        .map(|r| {
                            let ports: Vec<String> =
                                net.port_route(r).iter().map(u8::to_string).collect();
                            ports.join(" ")
                        })
                        .collect();
                    format!(
                        "{} -> {}: {}\n",
                        net.node_name(s),
                        net.node_name(t),
                        bytes.join(" | ")
                    )
                }
                Format::Json => pair(built, net, s, t, &routes, Format::Json),
            };
            if let Err(e) = out.write_all(line.as_bytes()) {
                return broken_pipe_is_the_end(e);
            }
        }
    }
    out.flush().or_else(broken_pipe_is_the_end)
}
