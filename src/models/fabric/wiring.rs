//! Which switch port of which node drives which input port of which node: the links of a
//! network of switches, computed once from its topology's arcs and read by both the RTL
//! network generator and the network model, so that the two cannot wire differently.
//!
//! Every node's switch has ports 0..=d; port 0 is its own router, ports 1..=d are network
//! links. A [`Wiring`] is built link by link ([`Wiring::connect`]), from lists of
//! out-neighbours ([`Wiring::from_out_neighbours`], the port being the place in the list),
//! or from the Kautz digraph ([`Wiring::kautz`], the numbering of docs/network.md,
//! "Wiring").

use super::switch::MAX_D;
use crate::topology::kautz::{Kautz, Letter};
use thiserror::Error;

/// Most nodes a wiring holds: a node and a port share one `u32`.
pub const MAX_NODES: usize = (1 << 28) - 1;

/// One end of a link: a port (1..=d) of a node (by index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct End {
    pub node: usize,
    pub port: usize,
}

/// Why a wiring cannot be built as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WiringError {
    #[error("a switch has 1 to {MAX_D} network ports, got {0}")]
    Ports(usize),
    #[error("a wiring holds at most {MAX_NODES} nodes, got {0}")]
    TooManyNodes(String),
    #[error("a link from node {} port {} to node {} port {} leaves the {nodes} nodes of {ports} ports", .from.node, .from.port, .to.node, .to.port)]
    NoSuchEnd {
        from: End,
        to: End,
        nodes: usize,
        ports: usize,
    },
    #[error("output port {} of node {} drives two links", .0.port, .0.node)]
    OutputTwice(End),
    #[error("input port {} of node {} is driven by two links", .0.port, .0.node)]
    InputTwice(End),
}

/// The links of a network of `nodes` switches with `ports` network ports each: for every
/// node and output port the input it drives, and for every node and input port the output
/// that drives it. Ports without a link stay unconnected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wiring {
    ports: usize,
    /// Per node and port 1..=d, at `node * ports + port - 1`: the other end of the link
    /// that leaves by that output, packed ([`pack`]) to a quarter of an [`End`]'s size,
    /// since a network model wires millions of ports.
    outputs: Vec<u32>,
    /// The same for the link that enters by that input.
    inputs: Vec<u32>,
}

/// A port without a link.
const UNCONNECTED: u32 = u32::MAX;

/// `end` in one word: its node times 16 plus its port - 1 (ports are at most 15).
fn pack(end: End) -> u32 {
    (end.node as u32) << 4 | (end.port - 1) as u32
}

fn unpack(packed: u32) -> Option<End> {
    (packed != UNCONNECTED).then(|| End {
        node: (packed >> 4) as usize,
        port: (packed & 0xf) as usize + 1,
    })
}

const _: () = assert!(MAX_D <= 16 && (MAX_NODES as u64) << 4 < UNCONNECTED as u64);

impl Wiring {
    /// `nodes` switches with `ports` network ports each, no link yet.
    pub fn unconnected(nodes: usize, ports: usize) -> Result<Self, WiringError> {
        if !(1..=MAX_D as usize).contains(&ports) {
            return Err(WiringError::Ports(ports));
        }
        if nodes > MAX_NODES {
            return Err(WiringError::TooManyNodes(nodes.to_string()));
        }
        Ok(Wiring {
            ports,
            outputs: vec![UNCONNECTED; nodes * ports],
            inputs: vec![UNCONNECTED; nodes * ports],
        })
    }

    /// The wiring of a digraph given by its out-neighbours, `out(v)` for node v: the
    /// i-th out-neighbour (from 0) is driven by output port i + 1, and each node's inputs
    /// are numbered from 1 in the order their links are made, out-lists of node 0 first,
    /// then node 1, and so on.
    pub fn from_out_neighbours<I, F>(
        nodes: usize,
        ports: usize,
        mut out: F,
    ) -> Result<Self, WiringError>
    where
        F: FnMut(usize) -> I,
        I: IntoIterator<Item = usize>,
    {
        let mut wiring = Wiring::unconnected(nodes, ports)?;
        let mut inputs_used = vec![0u8; nodes];
        for u in 0..nodes {
            for (i, v) in out(u).into_iter().enumerate() {
                let q = inputs_used.get(v).map_or(1, |&used| usize::from(used) + 1);
                let (from, to) = (
                    End {
                        node: u,
                        port: i + 1,
                    },
                    End { node: v, port: q },
                );
                wiring.connect(from, to)?;
                inputs_used[v] += 1;
            }
        }
        Ok(wiring)
    }

    /// The wiring of K(d,k) (docs/network.md, "Wiring"): out-neighbours by increasing
    /// letter, so that the out-link by letter a leaves by [`kautz_out_port`], and in-links by
    /// increasing in-letter, as the lexicographic order of the nodes lists them. The graph
    /// must have at most [`MAX_NODES`] nodes and d at most [`MAX_D`].
    pub fn kautz(graph: &Kautz) -> Result<Self, WiringError> {
        let nodes = match graph.node_count() {
            Some(n) if n <= MAX_NODES as u64 => n as usize,
            _ => return Err(WiringError::TooManyNodes(graph.node_count_decimal())),
        };
        Wiring::from_out_neighbours(nodes, graph.d(), |v| {
            let word = graph.word_at(v);
            graph
                .out_neighbours(word.letters())
                .map(|w| graph.index_of(w.letters()))
                .collect::<Vec<_>>()
        })
    }

    /// Links output `from` to input `to`; both must be free.
    pub fn connect(&mut self, from: End, to: End) -> Result<(), WiringError> {
        let (Some(out), Some(into)) = (self.slot(from), self.slot(to)) else {
            return Err(WiringError::NoSuchEnd {
                from,
                to,
                nodes: self.nodes(),
                ports: self.ports,
            });
        };
        if self.outputs[out] != UNCONNECTED {
            return Err(WiringError::OutputTwice(from));
        }
        if self.inputs[into] != UNCONNECTED {
            return Err(WiringError::InputTwice(to));
        }
        self.outputs[out] = pack(to);
        self.inputs[into] = pack(from);
        Ok(())
    }

    /// Where port `end` is kept, if the node and port exist.
    fn slot(&self, end: End) -> Option<usize> {
        (end.node < self.nodes() && (1..=self.ports).contains(&end.port))
            .then(|| end.node * self.ports + end.port - 1)
    }

    pub fn nodes(&self) -> usize {
        self.outputs.len() / self.ports
    }

    /// Network ports of every switch, d (port 0, the router's, not counted).
    pub fn ports(&self) -> usize {
        self.ports
    }

    /// The input that output `port` of `node` drives, if it is linked.
    pub fn output(&self, node: usize, port: usize) -> Option<End> {
        let slot = self.slot(End { node, port }).expect("a port of the wiring");
        unpack(self.outputs[slot])
    }

    /// The output that drives input `port` of `node`, if it is linked.
    pub fn input(&self, node: usize, port: usize) -> Option<End> {
        let slot = self.slot(End { node, port }).expect("a port of the wiring");
        unpack(self.inputs[slot])
    }
}

/// The output port of the out-link by letter `a` at a Kautz node whose last letter is `last`
/// (docs/network.md, "Wiring"): `a + 1` below `last`, `a` above it. Route bytes name it.
pub fn kautz_out_port(last: Letter, a: Letter) -> u64 {
    debug_assert_ne!(a, last);
    u64::from(a) + u64::from(a < last)
}

/// The route bytes of a Kautz route from a node whose last letter is `last`: the output
/// port of each hop, the letter `hops` shifts in ([`kautz_out_port`] against the letter
/// before it).
pub fn kautz_route_bytes(mut last: Letter, hops: &[Letter]) -> Vec<u8> {
    hops.iter()
        .map(|&a| {
            let port = kautz_out_port(last, a) as u8;
            last = a;
            port
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/network.md's numbering, written out: the arc by letter a out of x1..xk leaves
    /// by [`kautz_out_port`] and enters x2..xk a by in-letter x1 against its first letter x2.
    #[test]
    fn the_kautz_wiring_numbers_ports_as_docs_network_says() {
        for (d, k) in [(1, 3), (2, 3), (3, 2), (4, 3)] {
            let graph = Kautz::new(d, k).unwrap();
            let wiring = Wiring::kautz(&graph).unwrap();
            let n = graph.node_count().unwrap() as usize;
            assert_eq!((wiring.nodes(), wiring.ports()), (n, d as usize));
            for v in 0..n {
                let word = graph.word_at(v);
                let x = word.letters();
                for a in (0..=d as Letter).filter(|&a| a != x[x.len() - 1]) {
                    let mut next = x[1..].to_vec();
                    next.push(a);
                    let p = kautz_out_port(x[x.len() - 1], a) as usize;
                    let to = End {
                        node: graph.index_of(&next),
                        port: kautz_out_port(next[0], x[0]) as usize,
                    };
                    assert_eq!(wiring.output(v, p), Some(to), "K({d},{k}) {x:?} by {a}");
                    assert_eq!(
                        wiring.input(to.node, to.port),
                        Some(End { node: v, port: p })
                    );
                }
            }
        }
    }

    #[test]
    fn out_neighbour_lists_number_inputs_in_the_order_links_are_made() {
        // Node 0 with a self-loop, node 1 linked both ways with it, node 2 a sink.
        let wiring = Wiring::from_out_neighbours(3, 2, |v| match v {
            0 => vec![1, 0],
            1 => vec![2, 0],
            _ => vec![],
        })
        .unwrap();
        let end = |node, port| Some(End { node, port });
        assert_eq!(wiring.output(0, 1), end(1, 1));
        assert_eq!(wiring.output(0, 2), end(0, 1));
        assert_eq!(wiring.output(1, 2), end(0, 2));
        assert_eq!(wiring.output(1, 1), end(2, 1));
        assert_eq!(wiring.output(2, 1), None);
        assert_eq!(wiring.input(0, 1), end(0, 2));
        assert_eq!(wiring.input(2, 2), None);
    }

    #[test]
    fn a_port_is_linked_once_and_exists() {
        let mut wiring = Wiring::unconnected(2, 1).unwrap();
        let end = |node, port| End { node, port };
        wiring.connect(end(0, 1), end(1, 1)).unwrap();
        assert_eq!(
            wiring.connect(end(0, 1), end(0, 1)),
            Err(WiringError::OutputTwice(end(0, 1)))
        );
        assert_eq!(
            wiring.connect(end(1, 1), end(1, 1)),
            Err(WiringError::InputTwice(end(1, 1)))
        );
        assert!(matches!(
            wiring.connect(end(1, 2), end(0, 1)),
            Err(WiringError::NoSuchEnd { .. })
        ));
        assert!(matches!(
            Wiring::from_out_neighbours(2, 1, |_| vec![0, 1]),
            Err(WiringError::NoSuchEnd { .. })
        ));
        assert_eq!(Wiring::unconnected(1, 16), Err(WiringError::Ports(16)));
    }
}
