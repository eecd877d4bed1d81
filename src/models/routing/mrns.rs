//! Golden model of the node-disjoint routing in an MRNS network of Choi and Chung,
//! "Application of the Special Matrices to the Parallel Routing Algorithm on MRNS Network"
//! (§3, algorithm MRNS_Routing; see docs/papers.md).
//!
//! In: a network, a source A and a destination B != A that differ in k digits. Out: the
//! l = sum (m_i - 1) node-disjoint paths of the paper, generated one per request by
//! [`DisjointPaths`] in the paper's order, each a sequence of [`Move`]s (dimension, new digit)
//! from which [`MrnsPath::nodes`] gives the node sequence:
//!
//! 1. k shortest paths, one per row of the Hamiltonian-circuit Latin square ([`Hcls`]) over
//!    the differing dimensions: row r corrects the differing digits in the cyclic order that
//!    starts at the r-th of them.
//! 2. For each dimension m = 0, 1, .., n-1, and in it each digit value v = 0, 1, .. that is
//!    neither a_m nor b_m, one more path:
//!    - if A and B differ in m, a [`PathKind::Detour`] of length k+1: set digit m to v, then
//!      the rest of the HCLS row that starts with m, then digit m to b_m (m_m - 2 such paths);
//!    - if they agree in m, a [`PathKind::Excursion`] of length k+2: set digit m to v, then
//!      HCLS row 0, then digit m back to a_m (m_m - 1 such paths).
//!
//! The circuit is the differing dimensions in increasing order, and row r starts at its r-th
//! entry, so row r is the circuit rotated left by r; this is the choice that reproduces the
//! paper's Example 3 exactly (its circuit 1 -> 2 -> 0 -> 1 is the same cycle). Every choice is
//! fixed so that hardware generating these paths can be compared with this model path by path.

use crate::topology::mrns::{Address, Digit, Mrns, MrnsError};
use thiserror::Error;

/// One hop: digit `dimension` of the current node becomes `value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pub dimension: usize,
    pub value: Digit,
}

/// Which part of the paper's construction a path comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathKind {
    /// Proposition 1: HCLS row `row` applied to A; length k.
    Shortest { row: usize },
    /// Proposition 2, first type: leaves along an incorrect link of differing dimension
    /// `dimension` to digit `value`; length k+1.
    Detour { dimension: usize, value: Digit },
    /// Proposition 2, second type: leaves along agreeing dimension `dimension` to digit
    /// `value` and changes it back last; length k+2.
    Excursion { dimension: usize, value: Digit },
}

impl PathKind {
    /// A lower-case name for printing: "shortest", "detour" or "excursion".
    pub fn name(&self) -> &'static str {
        match self {
            PathKind::Shortest { .. } => "shortest",
            PathKind::Detour { .. } => "detour",
            PathKind::Excursion { .. } => "excursion",
        }
    }
}

/// One path of the set: how it was built and the moves that walk it from the source.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MrnsPath {
    kind: PathKind,
    moves: Vec<Move>,
}

impl MrnsPath {
    pub fn kind(&self) -> PathKind {
        self.kind
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Number of hops.
    pub fn length(&self) -> usize {
        self.moves.len()
    }

    /// The nodes visited from `src`, source first and destination last.
    pub fn nodes(&self, src: &Address) -> Vec<Address> {
        let mut nodes = vec![src.clone()];
        for m in &self.moves {
            let here = nodes.last().expect("starts with the source");
            nodes.push(here.with_digit(m.dimension, m.value));
        }
        nodes
    }
}

/// Hamiltonian-circuit Latin square (Definition 1 of Choi and Chung's MRNS paper) over a
/// circuit of points: row r, column j holds `circuit[(r + j) mod k]`, i.e. row r is the
/// circuit rotated left by r.
/// Hardware produces a row with a counter modulo k started at r.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hcls {
    circuit: Vec<usize>,
}

impl Hcls {
    /// The square of the Hamiltonian circuit `circuit[0] -> circuit[1] -> .. -> circuit[0]`.
    pub fn new(circuit: Vec<usize>) -> Self {
        Hcls { circuit }
    }

    /// k, the number of rows and columns.
    pub fn order(&self) -> usize {
        self.circuit.len()
    }

    pub fn circuit(&self) -> &[usize] {
        &self.circuit
    }

    /// The entry in row `row`, column `column`.
    pub fn entry(&self, row: usize, column: usize) -> usize {
        self.circuit[(row + column) % self.order()]
    }

    /// Row `row`, left to right.
    pub fn row(&self, row: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.order()).map(move |j| self.entry(row, j))
    }
}

/// Why no paths can be generated for a pair of nodes.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RoutingError {
    #[error(
        "source and destination are both {address}; node-disjoint paths need two different nodes"
    )]
    SameNode { address: String },
    #[error(transparent)]
    Address(#[from] MrnsError),
}

/// Where the generator stands: the next path it will produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cursor {
    Shortest(usize),
    /// Leave A along dimension `dimension` to digit `value` (a detour or an excursion).
    Side {
        dimension: usize,
        value: Digit,
    },
    Done,
}

/// The l node-disjoint paths from A to B, one per call of `next`, in the order of the module
/// documentation. Its state is a cursor (row, or dimension and digit value), so it is the
/// model of a generator that answers one request at a time.
#[derive(Debug, Clone)]
pub struct DisjointPaths {
    src: Address,
    dst: Address,
    /// `radices[i]` = m_i.
    radices: Vec<usize>,
    hcls: Hcls,
    cursor: Cursor,
    remaining: usize,
}

/// Starts generating the paths from `src` to `dst` in `network`.
pub fn disjoint_paths(
    network: &Mrns,
    src: &Address,
    dst: &Address,
) -> Result<DisjointPaths, RoutingError> {
    network.check_address(src)?;
    network.check_address(dst)?;
    if src == dst {
        return Err(RoutingError::SameNode {
            address: src.to_string(),
        });
    }
    let radices: Vec<usize> = (0..network.dimensions())
        .map(|i| network.radix(i))
        .collect();
    Ok(DisjointPaths {
        src: src.clone(),
        dst: dst.clone(),
        radices,
        hcls: Hcls::new(src.differing_dimensions(dst)),
        cursor: Cursor::Shortest(0),
        remaining: network.degree(),
    })
}

impl DisjointPaths {
    pub fn src(&self) -> &Address {
        &self.src
    }

    pub fn dst(&self) -> &Address {
        &self.dst
    }

    /// The square whose rows give the shortest paths; its circuit is C, the differing
    /// dimensions in increasing order.
    pub fn hcls(&self) -> &Hcls {
        &self.hcls
    }

    /// k = H(A, B), the length of the shortest paths.
    pub fn hamming_distance(&self) -> usize {
        self.hcls.order()
    }

    /// The move that corrects digit `dimension` to the destination's.
    fn correct(&self, dimension: usize) -> Move {
        Move {
            dimension,
            value: self.dst.digit(dimension),
        }
    }

    /// The first side exit at or after (`dimension`, `value`) in (dimension, value) order: a
    /// digit value that is neither the source's nor the destination's.
    fn side_from(&self, mut dimension: usize, mut value: usize) -> Cursor {
        while dimension < self.radices.len() {
            let (a, b) = (self.src.digit(dimension), self.dst.digit(dimension));
            while value < self.radices[dimension] {
                let v = value as Digit;
                if v != a && v != b {
                    return Cursor::Side {
                        dimension,
                        value: v,
                    };
                }
                value += 1;
            }
            dimension += 1;
            value = 0;
        }
        Cursor::Done
    }

    fn path_at(&self, cursor: Cursor) -> Option<MrnsPath> {
        let k = self.hcls.order();
        match cursor {
            Cursor::Shortest(row) => Some(MrnsPath {
                kind: PathKind::Shortest { row },
                moves: self.hcls.row(row).map(|d| self.correct(d)).collect(),
            }),
            Cursor::Side { dimension, value } => {
                let leave = Move { dimension, value };
                let mut moves = vec![leave];
                let (kind, last) = match self.hcls.circuit().iter().position(|&d| d == dimension) {
                    // Row `row` starts with `dimension`; its other k-1 entries follow the
                    // wrong first move, and the last move puts the right digit in.
                    Some(row) => {
                        moves.extend(self.hcls.row(row).skip(1).map(|d| self.correct(d)));
                        (
                            PathKind::Detour { dimension, value },
                            self.correct(dimension),
                        )
                    }
                    None => {
                        moves.extend(self.hcls.row(0).map(|d| self.correct(d)));
                        let back = Move {
                            dimension,
                            value: self.src.digit(dimension),
                        };
                        (PathKind::Excursion { dimension, value }, back)
                    }
                };
                moves.push(last);
                debug_assert!(moves.len() == k + 1 || moves.len() == k + 2);
                Some(MrnsPath { kind, moves })
            }
            Cursor::Done => None,
        }
    }

    fn after(&self, cursor: Cursor) -> Cursor {
        match cursor {
            Cursor::Shortest(row) if row + 1 < self.hcls.order() => Cursor::Shortest(row + 1),
            Cursor::Shortest(_) => self.side_from(0, 0),
            Cursor::Side { dimension, value } => self.side_from(dimension, value as usize + 1),
            Cursor::Done => Cursor::Done,
        }
    }
}

impl Iterator for DisjointPaths {
    type Item = MrnsPath;

    fn next(&mut self) -> Option<MrnsPath> {
        let path = self.path_at(self.cursor)?;
        self.cursor = self.after(self.cursor);
        self.remaining -= 1;
        Some(path)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for DisjointPaths {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::flow::min_cost_disjoint_paths;
    use crate::routing::paths::{NodePath, check_node_disjoint};
    use crate::topology::mrns::link_number;

    fn net(written: &[u64]) -> Mrns {
        Mrns::new(written).unwrap()
    }

    /// A move in the paper's notation (dimension, link number), taken from the node it
    /// leaves: Example 3 writes (0,5) for digit 0 going from 1 to 3.
    fn paper_link(g: &Mrns, from: &Address, m: Move) -> (usize, usize) {
        let radix = g.radix(m.dimension);
        (
            m.dimension,
            link_number(radix, from.digit(m.dimension), m.value),
        )
    }

    /// Node addresses spelt as the paper does: "0223".
    fn plain(a: &Address) -> String {
        a.written().iter().map(|u| u.to_string()).collect()
    }

    #[test]
    fn example_3_of_the_mrns_paper_exactly() {
        // Z2xZ3xZ3xZ4, A = (0000), B = (0223): eight paths, transcribed from the paper.
        let g = net(&[2, 3, 3, 4]);
        let a = g.parse_address("0000").unwrap();
        let b = g.parse_address("0223").unwrap();
        let generator = disjoint_paths(&g, &a, &b).unwrap();
        assert_eq!(generator.len(), 8);
        assert_eq!(generator.hamming_distance(), 3);

        // Step (1): C = {(0,3), (1,2), (2,2)}.
        let c: Vec<(usize, usize)> = generator
            .hcls()
            .circuit()
            .iter()
            .map(|&d| paper_link(&g, &a, generator.correct(d)))
            .collect();
        assert_eq!(c, [(0, 3), (1, 2), (2, 2)]);
        // Step (2): the 3x3 HCLS of circuit 1 -> 2 -> 0 -> 1, rows from its 3rd, 1st, 2nd points.
        let square: Vec<Vec<(usize, usize)>> = (0..3)
            .map(|r| generator.hcls().row(r).map(|j| c[j]).collect())
            .collect();
        assert_eq!(
            square,
            [
                [(0, 3), (1, 2), (2, 2)],
                [(1, 2), (2, 2), (0, 3)],
                [(2, 2), (0, 3), (1, 2)],
            ]
        );

        let paths: Vec<MrnsPath> = generator.collect();
        let s: Vec<Vec<(usize, usize)>> = paths
            .iter()
            .map(|p| {
                let nodes = p.nodes(&a);
                p.moves()
                    .iter()
                    .zip(&nodes)
                    .map(|(&m, from)| paper_link(&g, from, m))
                    .collect()
            })
            .collect();
        let paper_s: [&[(usize, usize)]; 8] = [
            &[(0, 3), (1, 2), (2, 2)],
            &[(1, 2), (2, 2), (0, 3)],
            &[(2, 2), (0, 3), (1, 2)],
            &[(0, 1), (1, 2), (2, 2), (0, 5)],
            &[(0, 2), (1, 2), (2, 2), (0, 6)],
            &[(1, 1), (2, 2), (0, 3), (1, 3)],
            &[(2, 1), (0, 3), (1, 2), (2, 3)],
            &[(3, 1), (0, 3), (1, 2), (2, 2), (3, 1)],
        ];
        assert_eq!(s, paper_s);

        let paper_p: [&[&str]; 8] = [
            &["0000", "0003", "0023", "0223"],
            &["0000", "0020", "0220", "0223"],
            &["0000", "0200", "0203", "0223"],
            &["0000", "0001", "0021", "0221", "0223"],
            &["0000", "0002", "0022", "0222", "0223"],
            &["0000", "0010", "0210", "0213", "0223"],
            &["0000", "0100", "0103", "0123", "0223"],
            &["0000", "1000", "1003", "1023", "1223", "0223"],
        ];
        for (i, (path, expected)) in paths.iter().zip(paper_p).enumerate() {
            let shown: Vec<String> = path.nodes(&a).iter().map(plain).collect();
            assert_eq!(shown, expected, "P_{i}");
        }
        // "each of three paths has length 3, each of four paths has length 4, and the
        // remaining path has length 5".
        let lengths: Vec<usize> = paths.iter().map(MrnsPath::length).collect();
        assert_eq!(lengths, [3, 3, 3, 4, 4, 4, 4, 5]);
        let kinds: Vec<PathKind> = paths.iter().map(MrnsPath::kind).collect();
        assert_eq!(
            kinds,
            [
                PathKind::Shortest { row: 0 },
                PathKind::Shortest { row: 1 },
                PathKind::Shortest { row: 2 },
                PathKind::Detour {
                    dimension: 0,
                    value: 1
                },
                PathKind::Detour {
                    dimension: 0,
                    value: 2
                },
                PathKind::Detour {
                    dimension: 1,
                    value: 1
                },
                PathKind::Detour {
                    dimension: 2,
                    value: 1
                },
                PathKind::Excursion {
                    dimension: 3,
                    value: 1
                },
            ]
        );
    }

    #[test]
    fn hcls_rows_are_rotations_and_form_a_latin_square() {
        for circuit in [vec![4], vec![1, 0], vec![0, 2, 5], vec![3, 1, 4, 0, 2, 6]] {
            let k = circuit.len();
            let square = Hcls::new(circuit.clone());
            let mut sorted = circuit.clone();
            sorted.sort_unstable();
            for r in 0..k {
                let mut rotated = circuit.clone();
                rotated.rotate_left(r);
                assert_eq!(square.row(r).collect::<Vec<_>>(), rotated, "row {r}");
                let mut row: Vec<usize> = square.row(r).collect();
                let mut column: Vec<usize> = (0..k).map(|i| square.entry(i, r)).collect();
                row.sort_unstable();
                column.sort_unstable();
                assert_eq!((&row, &column), (&sorted, &sorted), "{circuit:?}");
            }
        }
    }

    /// Node paths of the rows `rows` (lists of dimensions) corrected one at a time from `a`
    /// towards `b`, built without the generator.
    fn row_paths(g: &Mrns, a: &Address, b: &Address, rows: &[Vec<usize>]) -> Vec<NodePath> {
        rows.iter()
            .map(|row| {
                let mut node = a.clone();
                let mut path = vec![g.index_of(&node) as usize];
                for &d in row {
                    node = node.with_digit(d, b.digit(d));
                    path.push(g.index_of(&node) as usize);
                }
                path
            })
            .collect()
    }

    fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut all = Vec::new();
        for i in 0..items.len() {
            let mut rest = items.to_vec();
            let first = rest.remove(i);
            for mut tail in permutations(&rest) {
                tail.insert(0, first);
                all.push(tail);
            }
        }
        all
    }

    #[test]
    fn any_hamiltonian_circuit_gives_disjoint_shortest_paths() {
        // Definition 1 lets the circuit be "randomly selected": every one of them must work,
        // not only the increasing circuit the generator uses.
        let g = net(&[3, 2, 4, 2, 3]);
        let graph = g.digraph().unwrap();
        let a = g.address(&[0, 0, 0, 0, 0]).unwrap();
        let b = g.address(&[2, 1, 3, 1, 1]).unwrap();
        for circuit in permutations(&[0, 1, 2, 3, 4]) {
            let square = Hcls::new(circuit.clone());
            let rows: Vec<Vec<usize>> = (0..5).map(|r| square.row(r).collect()).collect();
            let paths = row_paths(&g, &a, &b, &rows);
            let (s, t) = (g.index_of(&a) as usize, g.index_of(&b) as usize);
            assert_eq!(
                check_node_disjoint(&graph, s, t, &paths),
                Ok(()),
                "{circuit:?}"
            );
        }
    }

    #[test]
    fn a_latin_square_that_is_no_hcls_can_share_nodes() {
        // Proposition 1's proof asks only for "k permutations" in a Latin square; the Cayley
        // table of the Klein four-group is a Latin square, yet rows 0 and 1 both correct
        // dimensions {0, 1} first and meet at (0011). The Hamiltonian-circuit shape matters.
        let g = net(&[2, 2, 2, 2]);
        let graph = g.digraph().unwrap();
        let a = g.address(&[0, 0, 0, 0]).unwrap();
        let b = g.address(&[1, 1, 1, 1]).unwrap();
        let klein = [
            vec![0, 1, 2, 3],
            vec![1, 0, 3, 2],
            vec![2, 3, 0, 1],
            vec![3, 2, 1, 0],
        ];
        let paths = row_paths(&g, &a, &b, &klein);
        assert_eq!(
            check_node_disjoint(&graph, 0, 15, &paths),
            Err(crate::routing::paths::PathViolation::Shared {
                first: 0,
                second: 1,
                node: 3
            })
        );
    }

    /// The networks checked pair by pair: Example 3's, the binary 4-cube, and small mixes
    /// with radix-2 dimensions, one dimension, and every Hamming distance.
    const NETWORKS: [&[u64]; 9] = [
        &[2, 3, 3, 4],
        &[2, 2, 2, 2],
        &[3, 3],
        &[4],
        &[2],
        &[2, 5],
        &[3, 4, 2],
        &[3, 3, 3],
        &[5, 2, 3],
    ];

    #[test]
    fn every_pair_gets_the_papers_disjoint_paths_of_least_total_length() {
        for written in NETWORKS {
            let g = net(written);
            let graph = g.digraph().unwrap();
            let nodes = graph.node_count();
            let n = written.len();
            // Written radices run from dimension n-1 down to dimension 0.
            let radix = |d: usize| written[n - 1 - d] as usize;
            let l: usize = written.iter().map(|&m| m as usize - 1).sum();
            let mut seen_distances = vec![0usize; n + 1];
            for t in 0..nodes {
                let to_dst = graph.distances_from(t); // the graph is symmetric
                let b = g.address_at(t as u64);
                for s in (0..nodes).filter(|&s| s != t) {
                    let a = g.address_at(s as u64);
                    let pair = format!("{g} {a} -> {b}");
                    let (aw, bw) = (a.written(), b.written());
                    let differ = |d: usize| aw[n - 1 - d] != bw[n - 1 - d];
                    let k = (0..n).filter(|&d| differ(d)).count();
                    seen_distances[k] += 1;

                    let generator = disjoint_paths(&g, &a, &b).unwrap();
                    assert_eq!(generator.len(), l, "{pair}");
                    let paths: Vec<MrnsPath> = generator.collect();
                    assert_eq!(paths.len(), l, "{pair}: l = sum (m_i - 1) paths");
                    let node_paths: Vec<NodePath> = paths
                        .iter()
                        .map(|p| p.nodes(&a).iter().map(|v| g.index_of(v) as usize).collect())
                        .collect();
                    assert_eq!(
                        check_node_disjoint(&graph, s, t, &node_paths),
                        Ok(()),
                        "{pair}"
                    );

                    // Proposition 2 and steps (4.1)/(4.2): k paths of length k, then
                    // m_d - 2 of length k+1 per differing dimension d and m_d - 1 of length
                    // k+2 per agreeing one, in that order, sides by (dimension, digit).
                    let lengths: Vec<usize> = paths.iter().map(MrnsPath::length).collect();
                    let detours: usize = (0..n).filter(|&d| differ(d)).map(|d| radix(d) - 2).sum();
                    let excursions: usize =
                        (0..n).filter(|&d| !differ(d)).map(|d| radix(d) - 1).sum();
                    let count = |len: usize| lengths.iter().filter(|&&x| x == len).count();
                    assert_eq!(
                        (count(k), count(k + 1), count(k + 2)),
                        (k, detours, excursions),
                        "{pair}"
                    );
                    assert!(lengths[..k].iter().all(|&x| x == k), "{pair}");
                    let sides: Vec<Move> = paths[k..].iter().map(|p| p.moves()[0]).collect();
                    assert!(sides.windows(2).all(|w| w[0] < w[1]), "{pair}: side order");
                    for (p, side) in paths[k..].iter().zip(&sides) {
                        let expected = if differ(side.dimension) { k + 1 } else { k + 2 };
                        assert_eq!(p.length(), expected, "{pair}: {side:?}");
                    }

                    // No path is longer than it must be once its first hop is chosen, and
                    // the flow reference agrees: l is the most disjoint paths there are, and
                    // no l disjoint paths are shorter in total.
                    for p in &node_paths {
                        assert_eq!(p.len() - 1, 1 + to_dst[p[1]].unwrap(), "{pair}: {p:?}");
                    }
                    let total: usize = lengths.iter().sum();
                    let best = min_cost_disjoint_paths(&graph, s, t, l + 1);
                    assert_eq!(best.paths.len(), l, "{pair}: connectivity");
                    assert_eq!(best.total_len, total, "{pair}: total length");
                }
            }
            // Every Hamming distance 1..=n occurs, k = n included, which the paper's
            // propositions exclude by assuming H(A, B) < n.
            assert!(seen_distances[1..].iter().all(|&c| c > 0), "{g}");
        }
    }

    #[test]
    fn same_node_and_foreign_addresses_are_rejected() {
        let g = net(&[2, 3, 3, 4]);
        let a = g.parse_address("0,1,2,3").unwrap();
        assert_eq!(
            disjoint_paths(&g, &a, &a).unwrap_err().to_string(),
            "source and destination are both 0,1,2,3; node-disjoint paths need two different nodes"
        );
        let foreign = net(&[3, 3]).parse_address("2,2").unwrap();
        assert_eq!(
            disjoint_paths(&g, &a, &foreign).unwrap_err().to_string(),
            "address '2,2' has 2 digits, but nodes of Z2xZ3xZ3xZ4 have 4"
        );
    }
}
