//! Every topology as a network of switches (`fabric::network`): exact wiring of small
//! instances, and routes as route bytes. The golden model of their routes
//! (`routing::disjoint`) is checked exhaustively on every kind of graph in its own unit
//! tests, where it runs optimised.

use kautzgen::fabric::network::SwitchNetwork;
use kautzgen::fabric::wiring::{End, kautz_route_bytes};
use kautzgen::routing::kautz::route_set;
use kautzgen::topology::debruijn::DeBruijn;
use kautzgen::topology::edge_list;
use kautzgen::topology::kautz::Kautz;
use kautzgen::topology::torus::{Rings, Torus};

fn debruijn(d: u64, k: u64) -> SwitchNetwork {
    SwitchNetwork::debruijn(&DeBruijn::new(d, k).unwrap()).unwrap()
}

fn torus(k: u64, n: u64, rings: Rings) -> SwitchNetwork {
    SwitchNetwork::torus(&Torus::new(k, n).unwrap(), rings).unwrap()
}

fn mesh(k: u64, n: u64) -> SwitchNetwork {
    SwitchNetwork::mesh(&Torus::new(k, n).unwrap()).unwrap()
}

/// A 10-node digraph: a ring 0 -> 1 -> ... -> 9 -> 0 with chords i -> i + 3 from the even
/// nodes, in the file format of docs/topologies.md.
const TEN_NODES: &str = "# ring\n0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 0\n\
                         # chords\n0 3\n2 5\n4 7\n6 9\n8 1\n";

fn ten_nodes() -> SwitchNetwork {
    let graph = edge_list::parse(TEN_NODES).unwrap();
    SwitchNetwork::from_edge_list("ten.txt", &graph).unwrap()
}

/// (node, port) -> Some((node, port)) as the wiring has it, by node names.
fn link(net: &SwitchNetwork, from: &str, port: usize) -> Option<(String, usize)> {
    let v = net.node_named(from).unwrap();
    net.wiring()
        .output(v, port)
        .map(|End { node, port }| (net.node_name(node).to_string(), port))
}

fn to(name: &str, port: usize) -> Option<(String, usize)> {
    Some((name.to_string(), port))
}

#[test]
fn each_topology_names_its_nodes_and_numbers_its_ports() {
    let b = debruijn(2, 3);
    assert_eq!((b.name(), b.node_count(), b.ports()), ("B(2,3)", 8, 2));
    assert_eq!(link(&b, "000", 1), None, "the self-loop's port is idle");
    assert_eq!(link(&b, "000", 2), to("001", 1));
    assert_eq!(link(&b, "110", 1), to("100", 2));
    assert_eq!(b.digraph().arc_count(), 14);

    let uni = torus(3, 2, Rings::Unidirectional);
    assert_eq!(uni.name(), "3-ary 2-cube, unidirectional");
    assert_eq!((uni.node_count(), uni.ports()), (9, 2));
    assert_eq!(link(&uni, "0,2", 1), to("0,0", 1));
    assert_eq!(link(&uni, "0,2", 2), to("1,2", 2));
    assert_eq!(uni.digraph().arc_count(), 18);

    let bi = torus(3, 2, Rings::Bidirectional);
    assert_eq!(
        (bi.node_count(), bi.ports(), bi.digraph().arc_count()),
        (9, 4, 36)
    );
    assert_eq!(link(&bi, "0,0", 2), to("0,2", 2));
    assert_eq!(link(&bi, "0,0", 4), to("2,0", 4));

    let m = mesh(3, 2);
    assert_eq!(m.name(), "3-ary 2-mesh");
    assert_eq!((m.ports(), m.digraph().arc_count()), (4, 24));
    assert_eq!(link(&m, "0,0", 2), None, "no wraparound");
    assert_eq!(link(&m, "1,1", 2), to("1,0", 2));

    let two = torus(2, 2, Rings::Unidirectional);
    assert_eq!(link(&two, "1,1", 1), to("1,0", 1), "2-ary rings wrap too");

    let file = ten_nodes();
    assert_eq!(
        (file.name(), file.node_count(), file.ports()),
        ("ten.txt", 10, 2)
    );
    assert_eq!(
        link(&file, "0", 2),
        to("3", 1),
        "0 -> 3 is the first link made into 3"
    );
    assert_eq!(link(&file, "8", 2), to("1", 2));
    assert_eq!(link(&file, "9", 1), to("0", 1));

    let kautz = SwitchNetwork::kautz(&Kautz::new(2, 3).unwrap()).unwrap();
    assert_eq!(
        (kautz.name(), kautz.node_count(), kautz.ports()),
        ("K(2,3)", 12, 2)
    );
    assert_eq!(kautz.node_name(0), "010");
}

#[test]
fn routes_become_the_output_port_of_each_hop() {
    let bi = torus(3, 2, Rings::Bidirectional);
    let path: Vec<usize> = ["0,0", "0,2", "1,2"]
        .iter()
        .map(|n| bi.node_named(n).unwrap())
        .collect();
    assert_eq!(bi.port_route(&path), [2, 3]);
}

#[test]
fn kautz_route_bytes_are_the_ports_of_the_wiring() {
    // K(2,3), 012 -> 201 by hops 0, 1: below the last letter 2, letter 0 leaves by port 1;
    // above 0, letter 1 by port 1 (docs/network.md, "Wiring").
    assert_eq!(kautz_route_bytes(2, &[0, 1]), [1, 1]);
    assert_eq!(kautz_route_bytes(2, &[1, 0, 2, 0, 1]), [2, 1, 2, 1, 1]);
    // Every route of every pair: the bytes the router model sends are the ports by which
    // the network's wiring joins the route's nodes.
    for (d, k) in [(2, 3), (3, 2), (3, 3)] {
        let graph = Kautz::new(d, k).unwrap();
        let net = SwitchNetwork::kautz(&graph).unwrap();
        for s in 0..net.node_count() {
            for t in (0..net.node_count()).filter(|&t| t != s) {
                let (src, dst) = (graph.word_at(s), graph.word_at(t));
                for route in route_set(&graph, src.letters(), dst.letters()).unwrap() {
                    let mut word = src.letters().to_vec();
                    let mut path = vec![s];
                    for &a in &route.hops {
                        word.remove(0);
                        word.push(a);
                        path.push(graph.index_of(&word));
                    }
                    let last = src.letters()[k as usize - 1];
                    assert_eq!(kautz_route_bytes(last, &route.hops), net.port_route(&path));
                }
            }
        }
    }
}
