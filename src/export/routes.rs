//! One pair's routes as JSON: the routes the source's router holds for the destination, in
//! the order it tries them, one per NACK ([`Plan::routes`]; on K(d,k) the route
//! generator's d node-disjoint routes, shortest first), each as the nodes it visits (index
//! and name) and its route bytes, the switch output port of every hop (docs/export.md).
//! One line of JSON whose fields keep the order below.

use super::VERSION;
use crate::network::plan::Plan;
use serde::Serialize;

#[derive(Serialize)]
struct RoutesJson<'a> {
    kautzgen: &'a str,
    command: &'a str,
    topology: String,
    src: Node,
    dst: Node,
    routes: Vec<Route>,
}

/// A node by its index in the network model's order and by its name.
#[derive(Serialize)]
struct Node {
    index: usize,
    name: String,
}

#[derive(Serialize)]
struct Route {
    hops: usize,
    nodes: Vec<Node>,
    bytes: Vec<u8>,
}

/// The routes of `plan` from `src` to `dst` (two different nodes) as one line of JSON that
/// records `command`.
pub fn json(plan: &dyn Plan, src: usize, dst: usize, command: &str) -> String {
    let node = |index: usize| Node {
        index,
        name: plan.node_name(index),
    };
    let routes = plan
        .routes(src, dst)
        .into_iter()
        .map(|route| Route {
            hops: route.bytes.len(),
            nodes: (0..=route.bytes.len())
                .map(|at| node(plan.route_node(src, &route.name, at)))
                .collect(),
            bytes: route.bytes,
        })
        .collect();
    let json = RoutesJson {
        kautzgen: VERSION,
        command,
        topology: plan.name(),
        src: node(src),
        dst: node(dst),
        routes,
    };
    serde_json::to_string(&json).expect("routes serialise") + "\n"
}
