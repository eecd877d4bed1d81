//! The k-ary n-cube: n dimensions, a ring of k nodes in each (section 3 of Demaine and
//! Srinivas, "A novel routing algorithm for k-ary n-cube interconnection networks"; see
//! docs/papers.md).
//!
//! In: the parameters k and n, node addresses and link names as text. Out: validated
//! [`Node`]s, [`Port`]s and [`Link`]s, neighbours, the fault set of a network with the mask
//! of unusable output ports it presents to each router, and the [`Digraph`] lowering.
//!
//! Conventions (docs/torus.md explains the choices):
//! - A node is written as the paper writes it, most significant digit first:
//!   `x(n-1),...,x1,x0`, so "0,1,1" is the paper's node 011 and, read as a base-k numeral,
//!   is the node's index. A plain digit string ("011") is accepted when k <= 10.
//! - Port `2d` is `+d` (digit d goes up by one, mod k) and port `2d+1` is `-d`; port `2n` is
//!   the local (eject) port. Links are unidirectional output channels named `NODE:PORT`,
//!   e.g. "1,0:+0".
//! - The wraparound links of a ring (k >= 3) are `+d` from digit k-1 and `-d` from digit 0.
//! - For k = 2 a ring of two nodes has one link each way, not two: the 2-ary n-cube is the
//!   hypercube of the paper's Fig. 1. The link is the mesh move, so node digit 0 has only
//!   `+d` and digit 1 only `-d`; there are no wraparound links.

use crate::choice::choice;
use crate::topology::digraph::Digraph;
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;
use thiserror::Error;

/// Largest supported ring size: digits fit in 16 bits.
pub const MAX_K: u64 = 1 << 16;
/// Largest supported dimension count: 2n output ports fit in a 64-bit [`PortMask`].
pub const MAX_N: u64 = 32;
/// Largest cube that is ever enumerated node by node (digraph, exhaustive checks).
pub const MAX_ENUMERATED_NODES: u64 = 1 << 24;

/// What is wrong with a cube parameter, node address or link name; one line each.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TorusError {
    #[error("the k-ary n-cube needs 2 <= k <= {MAX_K}, got k = {0}")]
    Radix(u64),
    #[error("the k-ary n-cube needs 1 <= n <= {MAX_N}, got n = {0}")]
    Dimensions(u64),
    #[error(
        "node '{text}': '{token}' is not a digit (write digits as numbers, most significant first, e.g. 0,1,2)"
    )]
    NodeSyntax { text: String, token: String },
    #[error("node '{text}' has {got} digits, but nodes of the {cube} have {n}")]
    DigitCount {
        text: String,
        got: usize,
        cube: Torus,
        n: usize,
    },
    #[error(
        "node '{text}': digit {digit} at position {position} is out of range; the {cube} uses digits 0 to {max}", max = .cube.k() - 1
    )]
    DigitRange {
        text: String,
        digit: u64,
        position: usize,
        cube: Torus,
    },
    #[error("link '{0}': expected NODE:PORT, e.g. 1,0:+0")]
    LinkSyntax(String),
    #[error("link '{text}': port '{port}' is not + or - followed by a dimension, e.g. +0 or -1")]
    PortSyntax { text: String, port: String },
    #[error("link '{text}': dimension {dim} does not exist; the {cube} has dimensions 0 to {max}", max = .cube.n() - 1)]
    PortDimension { text: String, dim: u64, cube: Torus },
    #[error(
        "link '{text}' does not exist: in a 2-ary cube node {node} leaves dimension {dim} only through port {other}", dim = .other.dim
    )]
    AbsentPort {
        text: String,
        node: Node,
        other: Port,
    },
    #[error(
        "the {cube} has {nodes} nodes, more than the {MAX_ENUMERATED_NODES} that can be enumerated"
    )]
    TooLarge { cube: Torus, nodes: String },
}

/// The parameters of one k-ary n-cube, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Torus {
    k: u32,
    n: usize,
}

/// A node address: one digit per dimension, indexed by dimension (`digit(0)` is x0, the
/// least significant, written last).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node(Vec<u32>);

/// Which way along a ring a port leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// The digit goes up by one (mod k).
    Plus,
    /// The digit goes down by one (mod k).
    Minus,
}

choice! {
    /// Whether a torus's rings carry traffic one way or both ways, in a network of switches
    /// (`fabric::network`); the cube of Demaine and Srinivas's router is bidirectional.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Rings {
        Unidirectional = "uni": "One link per dimension out of each node, up the digit: switch degree n",
        Bidirectional = "bi": "Two links per dimension, up and down: switch degree 2n",
    }
}

/// An output port of a router other than the local (eject) port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Port {
    pub dim: usize,
    pub dir: Dir,
}

/// A unidirectional link: the output `port` of `node`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Link {
    pub node: Node,
    pub port: Port,
}

/// One bit per output port, bit `p` for port number `p`: the ports a router must not use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct PortMask(u64);

/// The faulty links and nodes of a network.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Faults {
    links: BTreeSet<Link>,
    nodes: BTreeSet<Node>,
}

impl Torus {
    pub fn new(k: u64, n: u64) -> Result<Self, TorusError> {
        if !(2..=MAX_K).contains(&k) {
            return Err(TorusError::Radix(k));
        }
        if !(1..=MAX_N).contains(&n) {
            return Err(TorusError::Dimensions(n));
        }
        Ok(Torus {
            k: k as u32,
            n: n as usize,
        })
    }

    /// Ring size: digits are `0..k`.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Number of dimensions (digits per address).
    pub fn n(&self) -> usize {
        self.n
    }

    /// `k^n`, or `None` where it does not fit in 64 bits.
    pub fn node_count(&self) -> Option<u64> {
        (self.k as u64).checked_pow(self.n as u32)
    }

    /// The node count, if the cube is small enough to enumerate.
    pub fn enumerable_node_count(&self) -> Result<usize, TorusError> {
        match self.node_count() {
            Some(count) if count <= MAX_ENUMERATED_NODES => Ok(count as usize),
            _ => Err(TorusError::TooLarge {
                cube: *self,
                nodes: format!("{}^{}", self.k, self.n),
            }),
        }
    }

    /// Number of the local (eject) port; the network ports are `0..eject_port()`.
    pub fn eject_port(&self) -> usize {
        2 * self.n
    }

    /// Every network port number in order: `+0, -0, +1, -1, ...`.
    pub fn ports(&self) -> impl Iterator<Item = Port> {
        (0..2 * self.n).map(Port::from_index)
    }

    /// Whether `node` has output `port`: always for k >= 3; for k = 2 only the mesh move.
    pub fn has_port(&self, node: &Node, port: Port) -> bool {
        port.dim < self.n
            && (self.k > 2
                || match port.dir {
                    Dir::Plus => node.digit(port.dim) == 0,
                    Dir::Minus => node.digit(port.dim) == 1,
                })
    }

    /// The node at the far end of `port`, or `None` if the node has no such port.
    pub fn neighbour(&self, node: &Node, port: Port) -> Option<Node> {
        if !self.has_port(node, port) {
            return None;
        }
        let mut digits = node.0.clone();
        let digit = &mut digits[port.dim];
        *digit = match port.dir {
            Dir::Plus => (*digit + 1) % self.k,
            Dir::Minus => (*digit + self.k - 1) % self.k,
        };
        Some(Node(digits))
    }

    /// Whether `port` of `node` is a wraparound link (between digits k-1 and 0, k >= 3).
    pub fn is_wrap(&self, node: &Node, port: Port) -> bool {
        self.k > 2
            && match port.dir {
                Dir::Plus => node.digit(port.dim) == self.k - 1,
                Dir::Minus => node.digit(port.dim) == 0,
            }
    }

    /// Checks that `digits` (indexed by dimension) address a node of this cube.
    pub fn node(&self, digits: Vec<u32>) -> Result<Node, TorusError> {
        let node = Node(digits);
        self.check_node(&node, &node.to_string())?;
        Ok(node)
    }

    /// Parses "x(n-1),...,x0" (any k) or "x(n-1)...x0" (k <= 10), most significant first.
    pub fn parse_node(&self, text: &str) -> Result<Node, TorusError> {
        let text = text.trim();
        let tokens: Vec<String> = if text.contains(',') || self.k > 10 {
            text.split(',').map(|t| t.trim().to_string()).collect()
        } else {
            text.chars().map(String::from).collect()
        };
        let mut written = Vec::with_capacity(tokens.len());
        for token in tokens {
            let digit: u64 = token.parse().map_err(|_| TorusError::NodeSyntax {
                text: text.to_string(),
                token: token.clone(),
            })?;
            written.push(digit);
        }
        if written.len() != self.n {
            return Err(TorusError::DigitCount {
                text: text.to_string(),
                got: written.len(),
                cube: *self,
                n: self.n,
            });
        }
        if let Some(i) = written.iter().position(|&d| d >= self.k as u64) {
            return Err(TorusError::DigitRange {
                text: text.to_string(),
                digit: written[i],
                position: i + 1,
                cube: *self,
            });
        }
        Ok(Node(written.iter().rev().map(|&d| d as u32).collect()))
    }

    fn check_node(&self, node: &Node, text: &str) -> Result<(), TorusError> {
        if node.0.len() != self.n {
            return Err(TorusError::DigitCount {
                text: text.to_string(),
                got: node.0.len(),
                cube: *self,
                n: self.n,
            });
        }
        let written: Vec<u32> = node.written().collect();
        if let Some(i) = written.iter().position(|&d| d >= self.k) {
            return Err(TorusError::DigitRange {
                text: text.to_string(),
                digit: written[i] as u64,
                position: i + 1,
                cube: *self,
            });
        }
        Ok(())
    }

    /// Parses "NODE:PORT", e.g. "1,0:+0", and checks the node has that port.
    pub fn parse_link(&self, text: &str) -> Result<Link, TorusError> {
        let text = text.trim();
        let (node_text, port_text) = text
            .split_once(':')
            .ok_or_else(|| TorusError::LinkSyntax(text.to_string()))?;
        let node = self.parse_node(node_text)?;
        let port_text = port_text.trim();
        let syntax = || TorusError::PortSyntax {
            text: text.to_string(),
            port: port_text.to_string(),
        };
        let dir = match port_text.chars().next() {
            Some('+') => Dir::Plus,
            Some('-') => Dir::Minus,
            _ => return Err(syntax()),
        };
        let digits = &port_text[1..];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        let dim: u64 = digits.parse().map_err(|_| syntax())?;
        if dim >= self.n as u64 {
            return Err(TorusError::PortDimension {
                text: text.to_string(),
                dim,
                cube: *self,
            });
        }
        let port = Port {
            dim: dim as usize,
            dir,
        };
        if !self.has_port(&node, port) {
            let other = Port {
                dim: port.dim,
                dir: port.dir.opposite(),
            };
            return Err(TorusError::AbsentPort {
                text: text.to_string(),
                node,
                other,
            });
        }
        Ok(Link { node, port })
    }

    /// The node's index: its written digits read as a base-k numeral.
    pub fn index_of(&self, node: &Node) -> usize {
        node.written()
            .fold(0, |index, digit| index * self.k as usize + digit as usize)
    }

    /// The node of index `index` (inverse of [`Torus::index_of`]).
    pub fn node_at(&self, mut index: usize) -> Node {
        let mut digits = Vec::with_capacity(self.n);
        for _ in 0..self.n {
            digits.push((index % self.k as usize) as u32);
            index /= self.k as usize;
        }
        Node(digits)
    }

    /// Every node in index order; the cube must be enumerable.
    pub fn nodes(&self) -> Result<impl Iterator<Item = Node> + '_, TorusError> {
        let count = self.enumerable_node_count()?;
        Ok((0..count).map(|i| self.node_at(i)))
    }

    /// The whole cube, nodes numbered by [`Torus::index_of`], out-arcs in port order.
    pub fn digraph(&self) -> Result<Digraph, TorusError> {
        let count = self.enumerable_node_count()?;
        Ok(Digraph::from_fn(count, |v| {
            let node = self.node_at(v);
            self.ports()
                .filter_map(|port| self.neighbour(&node, port))
                .map(|w| self.index_of(&w))
                .collect::<Vec<_>>()
        }))
    }
}

impl fmt::Display for Torus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-ary {}-cube", self.k, self.n)
    }
}

impl Node {
    /// Digit of dimension `dim` (dimension 0 is the least significant).
    pub fn digit(&self, dim: usize) -> u32 {
        self.0[dim]
    }

    /// Digits indexed by dimension.
    pub fn digits(&self) -> &[u32] {
        &self.0
    }

    /// Digits in written order, most significant first.
    pub fn written(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().rev().copied()
    }
}

/// Nodes order as their written numerals do, so sets of nodes print in index order.
impl Ord for Node {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.written().cmp(other.written()))
    }
}

impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.written().map(|d| d.to_string()).collect();
        f.write_str(&parts.join(","))
    }
}

impl Dir {
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Plus => Dir::Minus,
            Dir::Minus => Dir::Plus,
        }
    }
}

impl Port {
    /// Port number: `2*dim` for `+dim`, `2*dim + 1` for `-dim`.
    pub fn index(self) -> usize {
        2 * self.dim + usize::from(self.dir == Dir::Minus)
    }

    /// The port of number `index` (inverse of [`Port::index`]).
    pub fn from_index(index: usize) -> Port {
        Port {
            dim: index / 2,
            dir: if index.is_multiple_of(2) {
                Dir::Plus
            } else {
                Dir::Minus
            },
        }
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = match self.dir {
            Dir::Plus => '+',
            Dir::Minus => '-',
        };
        write!(f, "{sign}{}", self.dim)
    }
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.node, self.port)
    }
}

impl PortMask {
    pub fn empty() -> PortMask {
        PortMask(0)
    }

    /// This mask with `port` also masked.
    pub fn with(self, port: Port) -> PortMask {
        PortMask(self.0 | 1 << port.index())
    }

    pub fn contains(self, port: Port) -> bool {
        self.0 >> port.index() & 1 == 1
    }

    /// The mask as an integer, bit `p` for port `p`, as a router's input sees it.
    pub fn bits(self) -> u64 {
        self.0
    }

    /// The masked ports, in port order.
    pub fn ports(self) -> impl Iterator<Item = Port> {
        (0..64)
            .filter(move |&p| self.0 >> p & 1 == 1)
            .map(Port::from_index)
    }
}

impl Faults {
    pub fn new() -> Faults {
        Faults::default()
    }

    pub fn insert_link(&mut self, link: Link) {
        self.links.insert(link);
    }

    pub fn insert_node(&mut self, node: Node) {
        self.nodes.insert(node);
    }

    /// Faulty links in node order, then port order.
    pub fn links(&self) -> impl Iterator<Item = &Link> {
        self.links.iter()
    }

    /// Faulty nodes in index order.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter()
    }

    pub fn is_faulty_node(&self, node: &Node) -> bool {
        self.nodes.contains(node)
    }

    /// The ports `node` must not use: faulty links, and links into faulty nodes, which a
    /// router learns from its neighbours rather than from the link itself.
    pub fn mask(&self, torus: &Torus, node: &Node) -> PortMask {
        torus
            .ports()
            .filter(|&port| {
                let faulty_link = self.links.contains(&Link {
                    node: node.clone(),
                    port,
                });
                faulty_link
                    || torus
                        .neighbour(node, port)
                        .is_some_and(|w| self.nodes.contains(&w))
            })
            .fold(PortMask::empty(), PortMask::with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(k: u64, n: u64) -> Torus {
        Torus::new(k, n).unwrap()
    }

    /// Ring distance, the shorter way round.
    fn ring(k: u32, a: u32, b: u32) -> usize {
        let up = ((b + k - a) % k) as usize;
        up.min(k as usize - up)
    }

    #[test]
    fn digraph_is_the_product_of_rings() {
        for (k, n) in [
            (2, 1),
            (2, 4),
            (3, 1),
            (3, 3),
            (4, 2),
            (5, 2),
            (6, 2),
            (4, 3),
        ] {
            let torus = cube(k, n);
            let graph = torus.digraph().unwrap();
            assert_eq!(graph.node_count() as u64, k.pow(n as u32), "{torus}");
            let degree = if k == 2 { n } else { 2 * n } as usize;
            for v in 0..graph.node_count() {
                let out = graph.out(v);
                assert_eq!(out.len(), degree, "{torus} node {v}");
                let mut sorted = out.to_vec();
                sorted.dedup();
                assert_eq!(sorted.len(), degree, "{torus}: parallel arcs at {v}");
            }
            for (u, v) in graph.arcs() {
                assert!(graph.has_arc(v, u), "{torus}: {u}->{v} has no reverse");
                // Brute force on the numerals: exactly one digit differs, by one mod k.
                let (a, b) = (torus.node_at(u), torus.node_at(v));
                let differing: Vec<usize> = (0..n as usize)
                    .filter(|&d| a.digit(d) != b.digit(d))
                    .collect();
                assert_eq!(differing.len(), 1, "{torus}: {a} -> {b}");
                assert_eq!(
                    ring(k as u32, a.digit(differing[0]), b.digit(differing[0])),
                    1
                );
            }
            // Every pair's BFS distance is the sum of ring distances (Dally's torus metric).
            for s in 0..graph.node_count() {
                let dist = graph.distances_from(s);
                for (t, d) in dist.iter().enumerate() {
                    let (a, b) = (torus.node_at(s), torus.node_at(t));
                    let sum: usize = (0..n as usize)
                        .map(|i| ring(k as u32, a.digit(i), b.digit(i)))
                        .sum();
                    assert_eq!(*d, Some(sum), "{torus}: {a} -> {b}");
                }
            }
            assert_eq!(
                graph.diameter(),
                Some(n as usize * (k as usize / 2)),
                "{torus}"
            );
        }
    }

    #[test]
    fn ports_are_numbered_plus_then_minus_per_dimension() {
        let torus = cube(4, 2);
        let ports: Vec<String> = torus.ports().map(|p| p.to_string()).collect();
        assert_eq!(ports, ["+0", "-0", "+1", "-1"]);
        for (i, port) in torus.ports().enumerate() {
            assert_eq!(port.index(), i);
            assert_eq!(Port::from_index(i), port);
        }
        assert_eq!(torus.eject_port(), 4);
        let node = torus.parse_node("1,3").unwrap();
        let after = |p: usize| torus.neighbour(&node, Port::from_index(p)).unwrap();
        assert_eq!(after(0).to_string(), "1,0");
        assert_eq!(after(1).to_string(), "1,2");
        assert_eq!(after(2).to_string(), "2,3");
        assert_eq!(after(3).to_string(), "0,3");
        let wraps: Vec<usize> = (0..4)
            .filter(|&p| torus.is_wrap(&node, Port::from_index(p)))
            .collect();
        assert_eq!(wraps, [0]);
        let corner = torus.parse_node("0,0").unwrap();
        let wraps: Vec<usize> = (0..4)
            .filter(|&p| torus.is_wrap(&corner, Port::from_index(p)))
            .collect();
        assert_eq!(wraps, [1, 3]);
    }

    #[test]
    fn a_binary_cube_has_one_link_per_dimension_and_no_wraparound() {
        let torus = cube(2, 3);
        let node = torus.parse_node("1,0,1").unwrap();
        let present: Vec<String> = torus
            .ports()
            .filter(|&p| torus.has_port(&node, p))
            .map(|p| p.to_string())
            .collect();
        assert_eq!(present, ["-0", "+1", "-2"]);
        assert!(torus.ports().all(|p| !torus.is_wrap(&node, p)));
        assert_eq!(
            torus.neighbour(&node, Port::from_index(0)),
            None,
            "+0 from digit 1"
        );
        assert_eq!(
            torus.parse_link("1,0,1:+0").unwrap_err().to_string(),
            "link '1,0,1:+0' does not exist: in a 2-ary cube node 1,0,1 leaves dimension 0 only through port -0"
        );
    }

    #[test]
    fn nodes_parse_most_significant_first_in_both_spellings() {
        let torus = cube(3, 3);
        let node = torus.parse_node("0,1,2").unwrap();
        assert_eq!(node.digits(), &[2, 1, 0]);
        assert_eq!(torus.parse_node("012").unwrap(), node);
        assert_eq!(node.to_string(), "0,1,2");
        assert_eq!(torus.index_of(&node), 5);
        for i in 0..27 {
            assert_eq!(torus.index_of(&torus.node_at(i)), i);
        }
        let wide = cube(12, 2);
        assert_eq!(wide.parse_node("11, 3").unwrap().digits(), &[3, 11]);
        assert_eq!(wide.node(vec![3, 11]).unwrap().to_string(), "11,3");
    }

    #[test]
    fn bad_nodes_and_links_say_what_is_wrong() {
        let torus = cube(4, 2);
        let node = |text: &str| torus.parse_node(text).unwrap_err().to_string();
        assert_eq!(
            node("1,4"),
            "node '1,4': digit 4 at position 2 is out of range; the 4-ary 2-cube uses digits 0 to 3"
        );
        assert_eq!(
            node("1,2,3"),
            "node '1,2,3' has 3 digits, but nodes of the 4-ary 2-cube have 2"
        );
        assert_eq!(
            node("1,x"),
            "node '1,x': 'x' is not a digit (write digits as numbers, most significant first, e.g. 0,1,2)"
        );
        assert_eq!(
            torus.node(vec![0, 7]).unwrap_err().to_string(),
            "node '7,0': digit 7 at position 1 is out of range; the 4-ary 2-cube uses digits 0 to 3"
        );
        let link = |text: &str| torus.parse_link(text).unwrap_err().to_string();
        assert_eq!(
            link("1,0+0"),
            "link '1,0+0': expected NODE:PORT, e.g. 1,0:+0"
        );
        assert_eq!(
            link("1,0:*0"),
            "link '1,0:*0': port '*0' is not + or - followed by a dimension, e.g. +0 or -1"
        );
        assert_eq!(
            link("1,0:+"),
            "link '1,0:+': port '+' is not + or - followed by a dimension, e.g. +0 or -1"
        );
        assert_eq!(
            link("1,0:-2"),
            "link '1,0:-2': dimension 2 does not exist; the 4-ary 2-cube has dimensions 0 to 1"
        );
        assert_eq!(
            link("1,9:+0"),
            "node '1,9': digit 9 at position 2 is out of range; the 4-ary 2-cube uses digits 0 to 3"
        );
        let parsed = torus.parse_link(" 1,0:-1 ").unwrap();
        assert_eq!(parsed.to_string(), "1,0:-1");
        assert_eq!(parsed.port.index(), 3);
    }

    #[test]
    fn bad_parameters_say_what_is_allowed() {
        assert_eq!(
            Torus::new(1, 2).unwrap_err().to_string(),
            "the k-ary n-cube needs 2 <= k <= 65536, got k = 1"
        );
        assert_eq!(
            Torus::new(4, 0).unwrap_err().to_string(),
            "the k-ary n-cube needs 1 <= n <= 32, got n = 0"
        );
        assert_eq!(
            cube(16, 8).digraph().unwrap_err().to_string(),
            "the 16-ary 8-cube has 16^8 nodes, more than the 16777216 that can be enumerated"
        );
        assert_eq!(cube(65536, 32).node_count(), None);
    }

    #[test]
    fn masks_cover_faulty_links_and_links_into_faulty_nodes() {
        let torus = cube(4, 2);
        let mut faults = Faults::new();
        faults.insert_link(torus.parse_link("1,0:+0").unwrap());
        faults.insert_node(torus.parse_node("2,1").unwrap());
        let mask = |text: &str| {
            let node = torus.parse_node(text).unwrap();
            let ports: Vec<String> = faults
                .mask(&torus, &node)
                .ports()
                .map(|p| p.to_string())
                .collect();
            ports.join(" ")
        };
        assert_eq!(mask("1,0"), "+0");
        assert_eq!(mask("1,1"), "+1", "2,1 is one up in dimension 1");
        assert_eq!(mask("2,0"), "+0");
        assert_eq!(mask("2,2"), "-0");
        assert_eq!(mask("3,1"), "-1");
        assert_eq!(
            mask("2,1"),
            "",
            "a faulty node's own outputs are not its neighbours'"
        );
        assert_eq!(mask("0,0"), "");
        let node = torus.parse_node("1,0").unwrap();
        assert_eq!(faults.mask(&torus, &node).bits(), 0b0001);
    }
}
