//! The k-ary n-cube routing-function unit ([`crate::rtl::torus_router`]) as a
//! [`FunctionUnit`]: its vectors and the golden model's answers from [`Router::step`].
//!
//! In: [`TorusRouterParams`] and which inputs to run: every input of a small cube
//! ([`TorusUnit::exhaustive`]), the router evaluations of whole routes
//! ([`TorusUnit::walks`]), or the one followed by the other ([`TorusUnit::with_walks`],
//! so that one simulator build serves both). Out: vectors in the unit's port order and expected outputs;
//! [`TorusUnit::inputs`] and [`TorusUnit::decision`] translate between port values and the
//! golden model's types, so routes can be chained through the unit's answers.

use crate::choice::Choice;
use crate::routing::torus::{Action, Algorithm, Decision, Header, Router};
use crate::rtl::ir::Design;
use crate::rtl::torus_router::{TorusRouterParams, design};
use crate::sim::function::FunctionUnit;
use crate::topology::torus::{Faults, Link, Node, Port, PortMask, Torus, TorusError};
use crate::units::check::with_fault;
use thiserror::Error;

/// Why a unit cannot be checked vector by vector.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UnitError {
    #[error(
        "the {cube} has {bits}-bit addresses; vectors carry at most 64 bits a port (use a smaller cube)"
    )]
    WideAddress { cube: String, bits: u32 },
    #[error(
        "the {cube} has too many inputs to enumerate ({what}); check a smaller cube, or walk routes"
    )]
    TooMany { cube: String, what: String },
    #[error("output words {0:x?} (hexadecimal) encode no decision of the unit")]
    NotADecision(Vec<u64>),
    #[error(transparent)]
    Node(#[from] TorusError),
}

/// Which header values (f, x, y) an exhaustive check applies, with every node, destination
/// and mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Headers {
    /// Everything [`Router::step`] accepts: f either way, x and y each in `0..n`.
    Domain,
    /// Only values a route of the algorithm can carry: the initial f = x = y = 0, and
    /// after a hop e-cube: the same; double e-cube: f = 0 and x != y; west-first: (x, y)
    /// = (0, 1), f either way; direction-first: x != y, f either way.
    Reachable,
}

/// The inputs of one router evaluation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Evaluation {
    node: Node,
    header: Header,
    mask: PortMask,
}

/// Where the vectors come from.
#[derive(Debug, Clone)]
enum Stimulus {
    /// Every node × destination × header field values × mask, mask fastest.
    Exhaustive {
        nodes: u64,
        fields: Vec<(bool, usize, usize)>,
    },
    /// These evaluations, in order.
    List(Vec<Evaluation>),
}

/// A routing-function unit and the vectors to check it with.
#[derive(Debug, Clone)]
pub struct TorusUnit {
    params: TorusRouterParams,
    /// The vectors, part after part.
    parts: Vec<Stimulus>,
}

impl TorusUnit {
    /// Every input of `headers` on every node, destination and mask. The count is
    /// `k^n · k^n · |headers| · 2^(2n)`: 3-ary 3-cube, direction-first, [`Headers::Domain`]:
    /// 839,808.
    pub fn exhaustive(params: TorusRouterParams, headers: Headers) -> Result<Self, UnitError> {
        check_widths(&params)?;
        let torus = *params.router.torus();
        let nodes = torus.enumerable_node_count()? as u64;
        let fields = header_fields(params.router, headers);
        let masks = 1u64.checked_shl(2 * torus.n() as u32);
        let count = masks.and_then(|masks| {
            (nodes * nodes)
                .checked_mul(fields.len() as u64)
                .and_then(|c| c.checked_mul(masks))
        });
        if count.is_none() {
            return Err(UnitError::TooMany {
                cube: torus.to_string(),
                what: format!("{nodes}^2 node pairs, 2^{} masks", 2 * torus.n()),
            });
        }
        Ok(TorusUnit {
            params,
            parts: vec![Stimulus::Exhaustive { nodes, fields }],
        })
    }

    /// The router evaluations of the route between every ordered pair of nodes under each
    /// fault set (pairs with a faulty end are left out), in order, each hop after the one
    /// before: where every vector passes, chaining the unit's decisions from source to
    /// destination walks exactly the golden model's route.
    pub fn walks(params: TorusRouterParams, fault_sets: &[Faults]) -> Result<Self, UnitError> {
        check_widths(&params)?;
        TorusUnit {
            params,
            parts: Vec::new(),
        }
        .with_walks(fault_sets)
    }

    /// These vectors, then those of [`TorusUnit::walks`].
    pub fn with_walks(mut self, fault_sets: &[Faults]) -> Result<Self, UnitError> {
        let router = self.params.router;
        let torus = *router.torus();
        let nodes: Vec<Node> = torus.nodes()?.collect();
        let mut list = Vec::new();
        for faults in fault_sets {
            for src in &nodes {
                for dst in &nodes {
                    if src == dst || faults.is_faulty_node(src) || faults.is_faulty_node(dst) {
                        continue;
                    }
                    let route = router
                        .route(src, dst, faults)
                        .expect("every algorithm here delivers or blocks within its hop limit");
                    list.extend(route.hops.into_iter().map(|hop| Evaluation {
                        node: hop.node,
                        header: hop.header,
                        mask: hop.mask,
                    }));
                }
            }
        }
        self.parts.push(Stimulus::List(list));
        Ok(self)
    }

    pub fn params(&self) -> &TorusRouterParams {
        &self.params
    }

    /// The input port values for one evaluation: `current`, `dst`, `f`, then `x` and `y`
    /// (when n > 1), then `mask`.
    pub fn inputs(&self, node: &Node, header: &Header, mask: PortMask) -> Vec<u64> {
        let mut values = vec![
            self.address(node),
            self.address(&header.dst),
            header.f as u64,
        ];
        if self.params.dim_bits() > 0 {
            values.extend([header.x as u64, header.y as u64]);
        }
        values.push(mask.bits());
        values
    }

    /// The golden model's decision for `inputs`, which must come from [`TorusUnit::inputs`]
    /// or [`FunctionUnit::vector`].
    pub fn golden(&self, inputs: &[u64]) -> Decision {
        let (node, header, mask) = self.evaluation(inputs);
        self.params.router.step(&node, &header, mask)
    }

    /// Output port values read back as a decision: `out_port`, `blocked`, `dst_out`,
    /// `f_out`, then `x_out` and `y_out` (when n > 1); values outside the encoding are an
    /// error.
    pub fn decision(&self, outputs: &[u64]) -> Result<Decision, UnitError> {
        let torus = self.params.router.torus();
        let eject = torus.eject_port() as u64;
        let fail = || UnitError::NotADecision(outputs.to_vec());
        let pairs = self.params.dim_bits() > 0;
        if outputs.len() != if pairs { 6 } else { 4 } {
            return Err(fail());
        }
        let action = match (outputs[0], outputs[1]) {
            (0, 1) => Action::Blocked,
            (port, 0) if port == eject => Action::Deliver,
            (port, 0) if port < eject => Action::Forward(Port::from_index(port as usize)),
            _ => return Err(fail()),
        };
        let dst = self.node(outputs[2]).map_err(|_| fail())?;
        let (x, y) = if pairs {
            (outputs[4] as usize, outputs[5] as usize)
        } else {
            (0, 0)
        };
        if outputs[3] > 1 || x >= torus.n() || y >= torus.n() {
            return Err(fail());
        }
        Ok(Decision {
            action,
            header: Header {
                dst,
                f: outputs[3] == 1,
                x,
                y,
            },
        })
    }

    /// The output port values of `decision`, as the unit encodes it.
    pub fn outputs(&self, decision: &Decision) -> Vec<u64> {
        let torus = self.params.router.torus();
        let (port, blocked) = match decision.action {
            Action::Forward(port) => (port.index() as u64, 0),
            Action::Deliver => (torus.eject_port() as u64, 0),
            Action::Blocked => (0, 1),
        };
        let header = &decision.header;
        let mut values = vec![port, blocked, self.address(&header.dst), header.f as u64];
        if self.params.dim_bits() > 0 {
            values.extend([header.x as u64, header.y as u64]);
        }
        values
    }

    /// A node's digits packed as the unit's address ports hold them, digit d at bit d·w.
    fn address(&self, node: &Node) -> u64 {
        let w = self.params.digit_bits();
        node.digits()
            .iter()
            .enumerate()
            .map(|(d, &digit)| (digit as u64) << (d as u32 * w))
            .sum()
    }

    fn node(&self, address: u64) -> Result<Node, TorusError> {
        let w = self.params.digit_bits();
        let digits = (0..self.params.n())
            .map(|d| (address >> (d as u32 * w) & ((1 << w) - 1)) as u32)
            .collect();
        self.params.router.torus().node(digits)
    }

    fn evaluation(&self, inputs: &[u64]) -> (Node, Header, PortMask) {
        let torus = self.params.router.torus();
        let contract = "inputs come from TorusUnit::inputs or FunctionUnit::vector";
        let node = self.node(inputs[0]).expect(contract);
        let dst = self.node(inputs[1]).expect(contract);
        let (x, y, mask) = if self.params.dim_bits() > 0 {
            (inputs[3] as usize, inputs[4] as usize, inputs[5])
        } else {
            (0, 0, inputs[3])
        };
        assert!(x < torus.n() && y < torus.n(), "{contract}");
        let mask = torus
            .ports()
            .filter(|p| mask >> p.index() & 1 == 1)
            .fold(PortMask::empty(), PortMask::with);
        let header = Header {
            dst,
            f: inputs[2] == 1,
            x,
            y,
        };
        (node, header, mask)
    }

    /// Vectors in one part.
    fn count(&self, part: &Stimulus) -> u64 {
        match part {
            Stimulus::Exhaustive { nodes, fields } => {
                nodes * nodes * fields.len() as u64 * (1 << (2 * self.params.n()))
            }
            Stimulus::List(list) => list.len() as u64,
        }
    }

    /// Vector `index` of `part`.
    fn vector_in(&self, part: &Stimulus, index: u64) -> Vec<u64> {
        let torus = self.params.router.torus();
        match part {
            Stimulus::Exhaustive { nodes, fields } => {
                let masks = 1u64 << (2 * torus.n());
                let mask = index % masks;
                let rest = index / masks;
                let (f, x, y) = fields[(rest % fields.len() as u64) as usize];
                let rest = rest / fields.len() as u64;
                let dst = torus.node_at((rest % nodes) as usize);
                let node = torus.node_at((rest / nodes) as usize);
                let mask = torus
                    .ports()
                    .filter(|p| mask >> p.index() & 1 == 1)
                    .fold(PortMask::empty(), PortMask::with);
                self.inputs(&node, &Header { dst, f, x, y }, mask)
            }
            Stimulus::List(list) => {
                let e = &list[index as usize];
                self.inputs(&e.node, &e.header, e.mask)
            }
        }
    }
}

/// Address ports must fit a vector field.
fn check_widths(params: &TorusRouterParams) -> Result<(), UnitError> {
    let bits = params.n() as u32 * params.digit_bits();
    if bits > 64 {
        return Err(UnitError::WideAddress {
            cube: params.router.torus().to_string(),
            bits,
        });
    }
    Ok(())
}

/// Fault sets for walks: none, then every `node_stride`-th single faulty node, then every
/// `link_stride`-th single faulty link, in node order and then port order.
pub fn single_faults(
    torus: &Torus,
    node_stride: usize,
    link_stride: usize,
) -> Result<Vec<Faults>, TorusError> {
    let nodes: Vec<Node> = torus.nodes()?.collect();
    let mut sets = vec![Faults::new()];
    for node in nodes.iter().step_by(node_stride) {
        let mut faults = Faults::new();
        faults.insert_node(node.clone());
        sets.push(faults);
    }
    let links = nodes.iter().flat_map(|node| {
        torus
            .ports()
            .filter(|&port| torus.has_port(node, port))
            .map(|port| Link {
                node: node.clone(),
                port,
            })
    });
    for link in links.step_by(link_stride) {
        let mut faults = Faults::new();
        faults.insert_link(link);
        sets.push(faults);
    }
    Ok(sets)
}

/// The (f, x, y) values of `headers` for `router`'s algorithm, f slowest, then x, y.
pub fn header_fields(router: Router, headers: Headers) -> Vec<(bool, usize, usize)> {
    let n = router.torus().n();
    let all =
        (0..2).flat_map(move |f| (0..n).flat_map(move |x| (0..n).map(move |y| (f == 1, x, y))));
    match headers {
        Headers::Domain => all.collect(),
        Headers::Reachable => all
            .filter(|&(f, x, y)| {
                let initial = (f, x, y) == (false, 0, 0);
                initial
                    || match router.algorithm() {
                        Algorithm::ECube => false,
                        Algorithm::DoubleECube => !f && x != y,
                        Algorithm::WestFirst => (x, y) == (0, 1),
                        Algorithm::DirectionFirst => x != y,
                    }
            })
            .collect(),
    }
}

impl FunctionUnit for TorusUnit {
    fn describe(&self) -> String {
        format!(
            "{} routing-function unit of the {}{}{}",
            self.params.algorithm().name(),
            self.params.router.torus(),
            if self.params.registered {
                ", registered"
            } else {
                ""
            },
            with_fault(self.params.fault)
        )
    }

    fn design(&self) -> Design {
        design(&self.params)
    }

    fn latency(&self) -> u32 {
        self.params.latency()
    }

    fn vector_count(&self) -> u64 {
        self.parts.iter().map(|part| self.count(part)).sum()
    }

    fn vector(&self, index: u64) -> Vec<u64> {
        let mut within = index;
        for part in &self.parts {
            let count = self.count(part);
            if within < count {
                return self.vector_in(part, within);
            }
            within -= count;
        }
        panic!(
            "vector {index} is beyond vector_count() = {}",
            self.vector_count()
        );
    }

    fn expected(&self, inputs: &[u64]) -> Vec<u64> {
        self.outputs(&self.golden(inputs))
    }
}
