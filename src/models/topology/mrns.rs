//! The MRNS network of Choi and Chung, "Application of the Special Matrices to the Parallel
//! Routing Algorithm on MRNS Network" (see docs/papers.md): mixed-radix digit vectors, the
//! generalised hypercube.
//!
//! In: the radices as the paper writes them, most significant dimension first
//! (`Z2xZ3xZ3xZ4` is `2,3,3,4`, so m_3 = 2 and m_0 = 4). Out: a validated [`Mrns`] network,
//! node [`Address`]es parsed from and printed as "0,2,2,3" (most significant digit first, the
//! paper's (0223)), node numbers u = sum u_i * w_i (§2.1), neighbours, the paper's link
//! numbers within a dimension (§2.2 (3)) and the symmetric [`Digraph`] lowering. Two nodes
//! are adjacent iff their addresses differ in exactly one digit; with every radix 2 this is
//! the binary hypercube.

use crate::topology::digraph::Digraph;
use std::fmt;
use thiserror::Error;

/// One digit of an address; radices up to [`MAX_RADIX`] keep every digit in a byte.
pub type Digit = u8;

/// Largest supported radix: digits `0..=255` fill a byte.
pub const MAX_RADIX: u64 = 256;
/// Largest network that is ever enumerated node by node (digraph, exhaustive checks).
pub const MAX_ENUMERATED_NODES: u64 = 1 << 24;

/// What is wrong with a radix list or an address; each message fits on one line.
///
/// Positions count from the left of what the user wrote, from 1; dimensions are the paper's,
/// counted from the right, from 0. Messages give both because they run in opposite directions.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MrnsError {
    #[error("an MRNS network needs at least one radix, e.g. 2,3,3,4 for Z2xZ3xZ3xZ4")]
    NoRadices,
    #[error(
        "radix list '{list}': '{token}' is not a number (write radices separated by commas, most significant first, e.g. 2,3,3,4)"
    )]
    RadixSyntax { list: String, token: String },
    #[error(
        "radix list '{list}': radix {radix} at position {position} (dimension {dimension}) is out of range; MRNS radices must be 2 to {MAX_RADIX}"
    )]
    Radix {
        list: String,
        radix: u64,
        position: usize,
        dimension: usize,
    },
    #[error("{network} has 2^64 nodes or more; node numbers must fit in 64 bits")]
    Unnumberable { network: String },
    #[error("{network} has {nodes} nodes, more than the {limit} that can be enumerated")]
    TooLarge {
        network: String,
        nodes: u64,
        limit: u64,
    },
    #[error("address '{address}' has {got} digits, but nodes of {network} have {n}")]
    AddressLength {
        address: String,
        got: usize,
        network: String,
        n: usize,
    },
    #[error(
        "address '{address}': '{token}' is not a digit (write digits separated by commas, most significant first, e.g. 0,2,2,3)"
    )]
    AddressSyntax { address: String, token: String },
    #[error(
        "address '{address}': digit {digit} at position {position} (dimension {dimension}) is out of range; that dimension has radix {radix}, digits 0 to {max}",
        max = radix - 1
    )]
    DigitRange {
        address: String,
        digit: u64,
        position: usize,
        dimension: usize,
        radix: usize,
    },
}

/// One MRNS network `Z(m_(n-1)) x .. x Z(m_0)`, validated: n >= 1, every radix 2 to
/// [`MAX_RADIX`], fewer than 2^64 nodes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Mrns {
    /// `radices[i]` = m_i: indexed by dimension, the reverse of the written order.
    radices: Vec<usize>,
    node_count: u64,
}

impl Mrns {
    /// The network with radices `written`, most significant first: `[2, 3, 3, 4]` is
    /// Z2xZ3xZ3xZ4.
    pub fn new(written: &[u64]) -> Result<Self, MrnsError> {
        let list = join(written.iter());
        if written.is_empty() {
            return Err(MrnsError::NoRadices);
        }
        let n = written.len();
        for (p, &radix) in written.iter().enumerate() {
            if !(2..=MAX_RADIX).contains(&radix) {
                return Err(MrnsError::Radix {
                    list,
                    radix,
                    position: p + 1,
                    dimension: n - 1 - p,
                });
            }
        }
        let radices: Vec<usize> = written.iter().rev().map(|&m| m as usize).collect();
        let node_count = radices
            .iter()
            .try_fold(1u64, |n, &m| n.checked_mul(m as u64))
            .ok_or_else(|| MrnsError::Unnumberable {
                network: spell(&radices),
            })?;
        Ok(Mrns {
            radices,
            node_count,
        })
    }

    /// Parses a radix list such as "2,3,3,4" (most significant first).
    pub fn parse(text: &str) -> Result<Self, MrnsError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MrnsError::NoRadices);
        }
        let mut written = Vec::new();
        for token in text.split(',').map(str::trim) {
            written.push(token.parse().map_err(|_| MrnsError::RadixSyntax {
                list: text.to_string(),
                token: token.to_string(),
            })?);
        }
        Mrns::new(&written).map_err(|e| match e {
            MrnsError::Radix {
                radix,
                position,
                dimension,
                ..
            } => MrnsError::Radix {
                list: text.to_string(),
                radix,
                position,
                dimension,
            },
            other => other,
        })
    }

    /// n, the number of dimensions (digits of an address); also the diameter.
    pub fn dimensions(&self) -> usize {
        self.radices.len()
    }

    /// m_i, the radix of dimension `dimension`.
    pub fn radix(&self, dimension: usize) -> usize {
        self.radices[dimension]
    }

    /// The radices as written, most significant first.
    pub fn written_radices(&self) -> Vec<usize> {
        self.radices.iter().rev().copied().collect()
    }

    /// l = sum (m_i - 1): the degree of every node, and the number of disjoint paths.
    pub fn degree(&self) -> usize {
        self.radices.iter().map(|m| m - 1).sum()
    }

    /// N = product of the radices.
    pub fn node_count(&self) -> u64 {
        self.node_count
    }

    /// w_i = m_(i-1) * .. * m_0, the weight of digit i in the node number (w_0 = 1).
    pub fn weight(&self, dimension: usize) -> u64 {
        self.radices[..dimension]
            .iter()
            .map(|&m| m as u64)
            .product()
    }

    /// The node count, if the network is small enough to enumerate.
    pub fn enumerable_node_count(&self) -> Result<usize, MrnsError> {
        if self.node_count <= MAX_ENUMERATED_NODES {
            Ok(self.node_count as usize)
        } else {
            Err(MrnsError::TooLarge {
                network: self.to_string(),
                nodes: self.node_count,
                limit: MAX_ENUMERATED_NODES,
            })
        }
    }

    /// Parses an address written most significant digit first: "0,2,2,3", or, when every
    /// radix is at most 10, the paper's plain digit string "0223".
    pub fn parse_address(&self, text: &str) -> Result<Address, MrnsError> {
        let text = text.trim();
        let tokens: Vec<&str> = if text.contains(',') || self.radices.iter().any(|&m| m > 10) {
            text.split(',').map(str::trim).collect()
        } else {
            (0..text.len()).map(|i| &text[i..i + 1]).collect()
        };
        let mut written = Vec::with_capacity(tokens.len());
        for token in tokens {
            written.push(token.parse().map_err(|_| MrnsError::AddressSyntax {
                address: text.to_string(),
                token: token.to_string(),
            })?);
        }
        self.checked_address(text, &written)
    }

    /// The address with digits `written`, most significant first: `[0, 2, 2, 3]` is (0223).
    pub fn address(&self, written: &[u64]) -> Result<Address, MrnsError> {
        self.checked_address(&join(written.iter()), written)
    }

    fn checked_address(&self, shown: &str, written: &[u64]) -> Result<Address, MrnsError> {
        let n = self.dimensions();
        if written.len() != n {
            return Err(MrnsError::AddressLength {
                address: shown.to_string(),
                got: written.len(),
                network: self.to_string(),
                n,
            });
        }
        for (p, &digit) in written.iter().enumerate() {
            let dimension = n - 1 - p;
            let radix = self.radices[dimension];
            if digit >= radix as u64 {
                return Err(MrnsError::DigitRange {
                    address: shown.to_string(),
                    digit,
                    position: p + 1,
                    dimension,
                    radix,
                });
            }
        }
        Ok(Address(written.iter().rev().map(|&u| u as Digit).collect()))
    }

    /// Checks that `address` (perhaps made for another network) is a node of this one.
    pub fn check_address(&self, address: &Address) -> Result<(), MrnsError> {
        let written: Vec<u64> = address.written().iter().map(|&u| u as u64).collect();
        self.address(&written).map(|_| ())
    }

    /// The node number u = sum u_i * w_i of Choi and Chung's MRNS paper, §2.1.
    pub fn index_of(&self, address: &Address) -> u64 {
        address
            .0
            .iter()
            .zip(&self.radices)
            .rev()
            .fold(0, |u, (&digit, &m)| u * m as u64 + digit as u64)
    }

    /// The node numbered `index` (inverse of [`Mrns::index_of`]); `index` must be below N.
    pub fn address_at(&self, mut index: u64) -> Address {
        assert!(index < self.node_count, "{self} has no node {index}");
        let mut digits = Vec::with_capacity(self.dimensions());
        for &m in &self.radices {
            digits.push((index % m as u64) as Digit);
            index /= m as u64;
        }
        Address(digits)
    }

    /// The l neighbours of `address`: by increasing dimension, then increasing digit value.
    pub fn neighbours<'a>(&'a self, address: &'a Address) -> impl Iterator<Item = Address> + 'a {
        self.radices.iter().enumerate().flat_map(move |(i, &m)| {
            (0..m as Digit)
                .filter(move |&v| v != address.digit(i))
                .map(move |v| address.with_digit(i, v))
        })
    }

    /// The whole network, nodes numbered by [`Mrns::index_of`], arcs both ways for every link,
    /// out-arcs in [`Mrns::neighbours`] order.
    pub fn digraph(&self) -> Result<Digraph, MrnsError> {
        let n = self.enumerable_node_count()?;
        Ok(Digraph::from_fn(n, |v| {
            let address = self.address_at(v as u64);
            self.neighbours(&address)
                .map(|w| self.index_of(&w) as usize)
                .collect::<Vec<_>>()
        }))
    }
}

/// The paper's number j of the link between digit values `a != b` of a dimension of radix
/// `radix` (§2.2 (3)): with p = min(a, b) < q = max(a, b),
/// j = sum_(k=0..p-1) (radix - k - 1) + (q - p), which counts the pairs (p, q) in
/// lexicographic order from 1. Example 3 names moves (dimension, j) this way.
pub fn link_number(radix: usize, a: Digit, b: Digit) -> usize {
    let (p, q) = (a.min(b) as usize, a.max(b) as usize);
    assert!(
        p < q && q < radix,
        "no link {a}-{b} in a dimension of radix {radix}"
    );
    (0..p).map(|k| radix - k - 1).sum::<usize>() + (q - p)
}

impl fmt::Display for Mrns {
    /// The paper's name, most significant dimension first: "Z2xZ3xZ3xZ4".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&spell(&self.radices))
    }
}

fn spell(radices: &[usize]) -> String {
    let parts: Vec<String> = radices.iter().rev().map(|m| format!("Z{m}")).collect();
    parts.join("x")
}

fn join<T: ToString>(items: impl Iterator<Item = T>) -> String {
    items.map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// A node address checked against its network. Stored by dimension (digit u_i at index i);
/// printed most significant first, "0,2,2,3".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Address(Vec<Digit>);

impl Address {
    /// u_i, the digit of dimension `dimension`.
    pub fn digit(&self, dimension: usize) -> Digit {
        self.0[dimension]
    }

    pub fn dimensions(&self) -> usize {
        self.0.len()
    }

    /// The digits as written, most significant first.
    pub fn written(&self) -> Vec<Digit> {
        self.0.iter().rev().copied().collect()
    }

    /// This address with digit `dimension` set to `value`: one move along a link.
    pub fn with_digit(&self, dimension: usize, value: Digit) -> Address {
        let mut digits = self.0.clone();
        digits[dimension] = value;
        Address(digits)
    }

    /// The dimensions in which the two addresses differ, in increasing order.
    pub fn differing_dimensions(&self, other: &Address) -> Vec<usize> {
        (0..self.0.len())
            .filter(|&i| self.0[i] != other.0[i])
            .collect()
    }

    /// H(A, B), the number of differing digits: the distance between the nodes.
    pub fn hamming_distance(&self, other: &Address) -> usize {
        self.differing_dimensions(other).len()
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&join(self.0.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(written: &[u64]) -> Mrns {
        Mrns::new(written).unwrap()
    }

    #[test]
    fn example_1_weights_numbers_and_neighbours() {
        // Example 1 of Choi and Chung's MRNS paper: 24 = 4*3*2, m_0 = 2, m_1 = 3, m_2 = 4,
        // w = 1, 2, 6.
        let g = net(&[4, 3, 2]);
        assert_eq!(g.to_string(), "Z4xZ3xZ2");
        assert_eq!((g.radix(0), g.radix(1), g.radix(2)), (2, 3, 4));
        assert_eq!((g.weight(0), g.weight(1), g.weight(2)), (1, 2, 6));
        assert_eq!(g.node_count(), 24);
        assert_eq!(g.address_at(0).to_string(), "0,0,0");
        assert_eq!(g.address_at(23).to_string(), "3,2,1");
        // "Node (000) is directly connected to nodes (001), (010), (020), (100), (200), (300)".
        let origin = g.address_at(0);
        let shown: Vec<String> = g.neighbours(&origin).map(|a| a.to_string()).collect();
        assert_eq!(
            shown,
            ["0,0,1", "0,1,0", "0,2,0", "1,0,0", "2,0,0", "3,0,0"]
        );
    }

    #[test]
    fn numbering_is_the_mixed_radix_value_in_counting_order() {
        // Brute force: count through the digit vectors like an odometer, digit 0 fastest.
        let g = net(&[3, 4, 2]);
        let mut digits = [0u64; 3]; // written order: u_2, u_1, u_0
        for index in 0..24 {
            let a = g.address(&digits).unwrap();
            assert_eq!(g.index_of(&a), index);
            assert_eq!(g.address_at(index), a);
            let value = digits[0] * 8 + digits[1] * 2 + digits[2];
            assert_eq!(value, index, "u = sum u_i w_i with w = 1, 2, 8");
            for (p, m) in [(2, 2), (1, 4), (0, 3)] {
                digits[p] += 1;
                if digits[p] < m {
                    break;
                }
                digits[p] = 0;
            }
        }
    }

    #[test]
    fn adjacency_is_exactly_one_differing_digit() {
        for written in [&[2u64, 3, 3, 4][..], &[3, 3], &[5], &[2, 2, 2, 2]] {
            let g = net(written);
            let graph = g.digraph().unwrap();
            let n = graph.node_count();
            for u in 0..n {
                let a = g.address_at(u as u64);
                for v in 0..n {
                    let b = g.address_at(v as u64);
                    let (x, y) = (a.written(), b.written());
                    let differing = x.iter().zip(&y).filter(|(p, q)| p != q).count();
                    assert_eq!(graph.has_arc(u, v), differing == 1, "{g}: {a} -> {b}");
                }
            }
        }
    }

    #[test]
    fn links_degree_and_diameter_match_section_2_2() {
        // (1) degree l, (2) N/2 * l links, (4) diameter n.
        for written in [
            &[2u64, 3, 3, 4][..],
            &[4, 3, 2],
            &[2, 2, 2, 2],
            &[7],
            &[2, 5],
        ] {
            let g = net(written);
            let graph = g.digraph().unwrap();
            let l: usize = written.iter().map(|&m| m as usize - 1).sum();
            assert_eq!(g.degree(), l);
            assert!((0..graph.node_count()).all(|v| graph.out(v).len() == l));
            assert!(
                graph.arcs().all(|(u, v)| graph.has_arc(v, u)),
                "{g}: symmetric"
            );
            assert_eq!(graph.arc_count() / 2, graph.node_count() * l / 2, "{g}");
            assert_eq!(graph.diameter(), Some(written.len()), "{g}");
        }
    }

    #[test]
    fn example_2_link_totals() {
        // Example 2 of Choi and Chung's MRNS paper: 144, 108, 96, 72 links for the four
        // 24-node networks.
        for (written, links) in [
            (&[2u64, 12][..], 144),
            (&[3, 8], 108),
            (&[4, 6], 96),
            (&[2, 3, 4], 72),
        ] {
            let graph = net(written).digraph().unwrap();
            assert_eq!(graph.node_count(), 24);
            assert_eq!(graph.arc_count() / 2, links, "{written:?}");
        }
    }

    #[test]
    fn link_numbers_count_pairs_lexicographically() {
        for radix in 2..=9usize {
            let mut j = 0;
            for p in 0..radix {
                for q in p + 1..radix {
                    j += 1;
                    assert_eq!(link_number(radix, p as Digit, q as Digit), j);
                    assert_eq!(link_number(radix, q as Digit, p as Digit), j);
                }
            }
            assert_eq!(j, radix * (radix - 1) / 2, "§2.2 (3): m(m-1)/2 links");
        }
        // Example 3 in Z4: 1 -> 3 is link 5, 2 -> 3 is link 6.
        assert_eq!(link_number(4, 1, 3), 5);
        assert_eq!(link_number(4, 2, 3), 6);
    }

    #[test]
    fn parses_and_prints_addresses_most_significant_first() {
        let g = net(&[2, 3, 3, 4]);
        let b = g.parse_address("0,2,2,3").unwrap();
        assert_eq!(
            (b.digit(3), b.digit(2), b.digit(1), b.digit(0)),
            (0, 2, 2, 3)
        );
        assert_eq!(b.to_string(), "0,2,2,3");
        assert_eq!(b.written(), vec![0, 2, 2, 3]);
        assert_eq!(g.parse_address("0223").unwrap(), b);
        assert_eq!(g.parse_address(" 0, 2,2 ,3 ").unwrap(), b);
        assert_eq!(g.address(&[0, 2, 2, 3]).unwrap(), b);
        assert_eq!(g.index_of(&b), 2 * 12 + 2 * 4 + 3);
        let wide = net(&[12, 3]);
        assert_eq!(wide.parse_address("11,2").unwrap().to_string(), "11,2");
        assert_eq!(Mrns::parse(" 2, 3,3,4").unwrap(), g);
        assert_eq!(g.written_radices(), vec![2, 3, 3, 4]);
    }

    #[test]
    fn bad_addresses_say_what_is_wrong() {
        let g = net(&[2, 3, 3, 4]);
        let message = |text: &str| g.parse_address(text).unwrap_err().to_string();
        assert_eq!(
            message("0,5,0,0"),
            "address '0,5,0,0': digit 5 at position 2 (dimension 2) is out of range; that dimension has radix 3, digits 0 to 2"
        );
        assert_eq!(
            message("0,0,0"),
            "address '0,0,0' has 3 digits, but nodes of Z2xZ3xZ3xZ4 have 4"
        );
        assert_eq!(
            message("0,x,0,0"),
            "address '0,x,0,0': 'x' is not a digit (write digits separated by commas, most significant first, e.g. 0,2,2,3)"
        );
        assert_eq!(
            message("0,0,0,-1"),
            "address '0,0,0,-1': '-1' is not a digit (write digits separated by commas, most significant first, e.g. 0,2,2,3)"
        );
        let other = net(&[2, 3, 3, 5]).address(&[0, 0, 0, 4]).unwrap();
        assert_eq!(
            g.check_address(&other).unwrap_err().to_string(),
            "address '0,0,0,4': digit 4 at position 4 (dimension 0) is out of range; that dimension has radix 4, digits 0 to 3"
        );
    }

    #[test]
    fn bad_radices_say_what_is_allowed() {
        let message = |text: &str| Mrns::parse(text).unwrap_err().to_string();
        assert_eq!(
            message("2,1,3"),
            "radix list '2,1,3': radix 1 at position 2 (dimension 1) is out of range; MRNS radices must be 2 to 256"
        );
        assert_eq!(
            message("257"),
            "radix list '257': radix 257 at position 1 (dimension 0) is out of range; MRNS radices must be 2 to 256"
        );
        assert_eq!(
            message("2,,3"),
            "radix list '2,,3': '' is not a number (write radices separated by commas, most significant first, e.g. 2,3,3,4)"
        );
        assert_eq!(
            message(" "),
            "an MRNS network needs at least one radix, e.g. 2,3,3,4 for Z2xZ3xZ3xZ4"
        );
        assert_eq!(
            Mrns::new(&[256; 8]).unwrap_err().to_string(),
            "Z256xZ256xZ256xZ256xZ256xZ256xZ256xZ256 has 2^64 nodes or more; node numbers must fit in 64 bits"
        );
        assert_eq!(Mrns::new(&[256; 7]).unwrap().node_count(), 1 << 56);
        assert_eq!(
            net(&[2; 25]).digraph().unwrap_err().to_string(),
            format!(
                "{} has 33554432 nodes, more than the 16777216 that can be enumerated",
                vec!["Z2"; 25].join("x")
            )
        );
    }
}
