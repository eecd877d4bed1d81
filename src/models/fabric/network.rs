//! A topology as a network of switches: its nodes and their names, and the wiring of its
//! arcs to the ports of one (d+1)x(d+1) switch per node. Every topology the network
//! generator and the simulator take is built here ([`SwitchNetwork::kautz`],
//! [`SwitchNetwork::debruijn`], [`SwitchNetwork::torus`], [`SwitchNetwork::mesh`],
//! [`SwitchNetwork::from_edge_list`]); docs/topologies.md gives each one's port numbering.
//!
//! A route is the output port to take at each switch, one route byte per hop
//! ([`SwitchNetwork::port_route`]), so the topology decides only the wiring and where
//! routes come from: the switch is the same everywhere.

use super::wiring::{End, Wiring, WiringError};
use crate::topology::debruijn::DeBruijn;
use crate::topology::digraph::Digraph;
use crate::topology::kautz::Kautz;
use crate::topology::torus::{Rings, Torus, TorusError};
use thiserror::Error;

/// Most nodes a network whose nodes are listed one by one may have.
pub const MAX_LISTED_NODES: usize = 1 << 16;

/// Why a topology cannot be built as a network of switches.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NetworkError {
    #[error(transparent)]
    Wiring(#[from] WiringError),
    #[error(transparent)]
    Torus(#[from] TorusError),
    #[error(
        "{name} has {nodes} nodes; a network built node by node holds at most {MAX_LISTED_NODES}"
    )]
    TooLarge { name: String, nodes: String },
}

/// A network of switches: who is linked to whom, by which ports, and what the nodes are
/// called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchNetwork {
    name: String,
    names: Vec<String>,
    wiring: Wiring,
    graph: Digraph,
    /// The bidirectional k-ary n-cube this network is, its switch port p + 1 the cube's
    /// port p, for switches that route with the cube's routing functions.
    cube: Option<Torus>,
}

impl SwitchNetwork {
    /// The network of `wiring`, called `name`, its nodes called `names`.
    fn new(name: String, names: Vec<String>, wiring: Wiring) -> Self {
        debug_assert_eq!(names.len(), wiring.nodes());
        let graph = Digraph::from_fn(wiring.nodes(), |v| {
            (1..=wiring.ports())
                .filter_map(|p| wiring.output(v, p))
                .map(|end| end.node)
                .collect::<Vec<_>>()
        });
        SwitchNetwork {
            name,
            names,
            wiring,
            graph,
            cube: None,
        }
    }

    /// K(d,k), wired as docs/network.md numbers it ([`Wiring::kautz`]).
    pub fn kautz(graph: &Kautz) -> Result<Self, NetworkError> {
        let nodes = listed(&graph.to_string(), graph.node_count())?;
        let names = (0..nodes)
            .map(|v| graph.format_letters(graph.word_at(v).letters()))
            .collect();
        Ok(SwitchNetwork::new(
            graph.to_string(),
            names,
            Wiring::kautz(graph)?,
        ))
    }

    /// B(d,k): the out-link to `a2..ak z` leaves by port z + 1 and enters by port a1 + 1.
    /// The d constant words' self-loops are left out, so their port z = a stays idle.
    pub fn debruijn(graph: &DeBruijn) -> Result<Self, NetworkError> {
        let (d, k) = (graph.d(), graph.k());
        let name = format!("B({d},{k})");
        let nodes = listed(&name, Some(graph.node_count() as u64))?;
        let mut wiring = Wiring::unconnected(nodes, d)?;
        for v in 0..nodes {
            let first = graph.word(v)[0];
            for z in 0..d {
                let w = graph.shift(v, z);
                if w != v {
                    let from = End {
                        node: v,
                        port: z + 1,
                    };
                    wiring.connect(
                        from,
                        End {
                            node: w,
                            port: first + 1,
                        },
                    )?;
                }
            }
        }
        let names = (0..nodes)
            .map(|v| graph.word(v).iter().map(|a| a.to_string()).collect())
            .collect();
        Ok(SwitchNetwork::new(name, names, wiring))
    }

    /// The k-ary n-cube: port 2i + 1 goes up dimension i's digit and 2i + 2 down it
    /// (bidirectional), or port i + 1 up it (unidirectional); a link enters by the port of
    /// the same number. In a 2-ary cube a dimension has one link each way, by the port
    /// that leads to the other digit, and the other port is idle.
    pub fn torus(torus: &Torus, rings: Rings) -> Result<Self, NetworkError> {
        let name = match rings {
            Rings::Unidirectional => format!("{torus}, unidirectional"),
            Rings::Bidirectional => format!("{torus}, bidirectional"),
        };
        let mut network = grid(torus, name, rings, true)?;
        if rings == Rings::Bidirectional {
            network.cube = Some(*torus);
        }
        Ok(network)
    }

    /// The k-ary n-mesh: the bidirectional torus without its wraparound links, whose ports
    /// stay idle at the boundary.
    pub fn mesh(torus: &Torus) -> Result<Self, NetworkError> {
        let name = format!("{}-ary {}-mesh", torus.k(), torus.n());
        grid(torus, name, Rings::Bidirectional, false)
    }

    /// Any digraph (`topology::edge_list`): the i-th arc listed out of a node leaves by
    /// port i + 1, and a node's inputs are numbered from 1 in the order of the nodes they
    /// come from (then of their ports), as [`Wiring::from_out_neighbours`] numbers them.
    /// Nodes are named by number.
    pub fn from_edge_list(name: &str, graph: &Digraph) -> Result<Self, NetworkError> {
        let nodes = listed(name, Some(graph.node_count() as u64))?;
        let ports = (0..nodes).map(|v| graph.out(v).len()).max().unwrap_or(0);
        let in_degree = graph.arcs().fold(vec![0; nodes], |mut d, (_, v)| {
            d[v] += 1;
            d
        });
        let ports = ports.max(in_degree.into_iter().max().unwrap_or(0));
        let wiring = Wiring::from_out_neighbours(nodes, ports, |v| graph.out(v).to_vec())?;
        let names = (0..nodes).map(|v| v.to_string()).collect();
        Ok(SwitchNetwork::new(name.to_string(), names, wiring))
    }

    /// What the network is, as reports name it: "K(2,3)", "B(2,3)", "3-ary 2-cube,
    /// unidirectional", "3-ary 2-mesh", or the edge list's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn node_count(&self) -> usize {
        self.names.len()
    }

    /// Network ports of every switch, d: the switch is (d+1)x(d+1), port 0 the router's.
    pub fn ports(&self) -> usize {
        self.wiring.ports()
    }

    pub fn wiring(&self) -> &Wiring {
        &self.wiring
    }

    /// The bidirectional k-ary n-cube this network is, if it is one: its switch port p + 1
    /// is the cube's port p ([`crate::topology::torus::Port::index`]).
    pub fn cube(&self) -> Option<Torus> {
        self.cube
    }

    /// The arcs, out of each node in port order, idle ports left out.
    pub fn digraph(&self) -> &Digraph {
        &self.graph
    }

    /// Node `v`'s name, as the user writes it.
    pub fn node_name(&self, v: usize) -> &str {
        &self.names[v]
    }

    /// The node called `name`, if there is one.
    pub fn node_named(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The route bytes of a node path: at each node but the last, the output port of the
    /// link to the next node (the lowest, where parallel links join the two).
    pub fn port_route(&self, path: &[usize]) -> Vec<u8> {
        path.windows(2)
            .map(|hop| {
                (1..=self.ports())
                    .find(|&p| {
                        self.wiring
                            .output(hop[0], p)
                            .is_some_and(|e| e.node == hop[1])
                    })
                    .expect("every hop of a route is a link") as u8
            })
            .collect()
    }
}

/// The node count of a network built node by node, or why it is too large.
fn listed(name: &str, count: Option<u64>) -> Result<usize, NetworkError> {
    match count {
        Some(n) if n <= MAX_LISTED_NODES as u64 => Ok(n as usize),
        _ => Err(NetworkError::TooLarge {
            name: name.to_string(),
            nodes: count.map_or_else(|| "too many".to_string(), |n| n.to_string()),
        }),
    }
}

/// The torus (`wrap`) or mesh of `cube`, its ports numbered as [`SwitchNetwork::torus`]
/// says.
fn grid(
    cube: &Torus,
    name: String,
    rings: Rings,
    wrap: bool,
) -> Result<SwitchNetwork, NetworkError> {
    listed(&name, cube.node_count())?;
    let wiring = grid_wiring(cube, rings, wrap)?;
    let names = (0..wiring.nodes())
        .map(|v| cube.node_at(v).to_string())
        .collect();
    Ok(SwitchNetwork::new(name, names, wiring))
}

/// The links of the torus (`wrap`) or mesh of `cube`, its ports numbered as
/// [`SwitchNetwork::torus`] says: a switch port for each of the cube's ports.
pub fn grid_wiring(cube: &Torus, rings: Rings, wrap: bool) -> Result<Wiring, WiringError> {
    let nodes = cube
        .node_count()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| WiringError::TooManyNodes(format!("{}^{}", cube.k(), cube.n())))?;
    let ports = match rings {
        Rings::Unidirectional => cube.n(),
        Rings::Bidirectional => 2 * cube.n(),
    };
    let mut wiring = Wiring::unconnected(nodes, ports)?;
    for v in 0..nodes {
        for (port, next) in grid_links(cube, v, rings, wrap) {
            let end = |node| End { node, port };
            wiring.connect(end(v), end(next))?;
        }
    }
    Ok(wiring)
}

/// The links out of node `v` of the torus or mesh: (switch port, node it leads to).
fn grid_links(cube: &Torus, v: usize, rings: Rings, wrap: bool) -> Vec<(usize, usize)> {
    let node = cube.node_at(v);
    match rings {
        // Up each digit, mod k: in a 2-ary cube too, where the bidirectional cube has one
        // link per dimension, this ring has two, 0 -> 1 and 1 -> 0.
        Rings::Unidirectional => (0..cube.n())
            .map(|dim| {
                let mut digits = node.digits().to_vec();
                digits[dim] = (digits[dim] + 1) % cube.k();
                let next = cube.node(digits).expect("a digit mod k is a digit");
                (dim + 1, cube.index_of(&next))
            })
            .collect(),
        Rings::Bidirectional => cube
            .ports()
            .filter(|&port| wrap || !cube.is_wrap(&node, port))
            .filter_map(|port| {
                let next = cube.neighbour(&node, port)?;
                Some((port.index() + 1, cube.index_of(&next)))
            })
            .collect(),
    }
}
