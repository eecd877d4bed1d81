//! The Low Diameter Interconnection LDI(M,S) of Melhem, "Low Diameter Interconnections for
//! Routing in High Performance Parallel Systems" (see docs/papers.md), also known as the
//! generalised de Bruijn digraph, and its split into S crossbar switch settings.
//!
//! In: the node count M and the degree S. Out: the L-th link of node n, which runs to
//! `(S n + L) mod M` for `L = 0..S`; the whole graph as a [`Digraph`]; and S permutations
//! `perm[y][n]` (the settings of S crossbar switches) whose union is exactly the link set.
//!
//! The switch settings use the paper's eq. (3), `L = (y - n div S) mod S`, where that is a
//! permutation in every switch, and otherwise the class formula
//! `L = (y - n div (M/g)) mod S` with `g = gcd(M,S)`, which is a permutation for every
//! M > S (proof in docs/ldi.md). Eq. (3) is not a permutation for most M: see the tests
//! and docs/ldi.md for where it holds.

use crate::topology::digraph::Digraph;
use std::fmt;
use thiserror::Error;

/// Largest supported degree S.
pub const MAX_S: usize = 1 << 16;
/// Largest supported node count M. With `S <= 2^16` every `S n + L` stays below `2^48`, and
/// products of two numbers below M stay below `2^64`, so all arithmetic fits a 64-bit usize.
pub const MAX_M: usize = 1 << 32;
/// Largest number of links (M S) that is ever enumerated (digraph, switch settings).
pub const MAX_ENUMERATED_LINKS: usize = 1 << 24;

/// What is wrong with an LDI parameter or node; each message fits on one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LdiError {
    #[error("LDI(M,S) needs 2 <= S <= {MAX_S}, got S = {0}")]
    Degree(u64),
    #[error(
        "LDI(M,S) needs S < M <= {MAX_M} (the paper's S^(h-1) < M <= S^h with h > 1), got M = {m} and S = {s}"
    )]
    Nodes { m: u64, s: u64 },
    #[error("node {node} is not in LDI({m},{s}), whose nodes are 0 to {last}", last = m - 1)]
    Node { node: u64, m: usize, s: usize },
    #[error("LDI({m},{s}) has {links} links, more than the {MAX_ENUMERATED_LINKS} that can be enumerated", links = m * s)]
    TooLarge { m: usize, s: usize },
}

/// The parameters of one LDI(M,S), validated: `2 <= S < M`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ldi {
    m: usize,
    s: usize,
}

/// How a set of switch settings was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SwitchMethod {
    /// Eq. (3) of the paper: node n uses link `(y - n div S) mod S` in switch y.
    PaperEq3,
    /// Node n uses link `(y - n div (M/g)) mod S` in switch y, `g = gcd(M,S)`.
    GcdClasses,
}

impl SwitchMethod {
    /// Short name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            SwitchMethod::PaperEq3 => "paper-eq3",
            SwitchMethod::GcdClasses => "gcd-classes",
        }
    }

    /// The formula, for people reading the output.
    pub fn formula(self) -> &'static str {
        match self {
            SwitchMethod::PaperEq3 => "L = (y - n div S) mod S",
            SwitchMethod::GcdClasses => "L = (y - n div (M/gcd(M,S))) mod S",
        }
    }
}

/// The S switch settings of one LDI(M,S).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switches {
    pub method: SwitchMethod,
    /// `perms[y][n]`: the node that node n is connected to through switch y.
    pub perms: Vec<Vec<usize>>,
    /// `links[y][n]`: which of node n's links switch y carries.
    pub links: Vec<Vec<usize>>,
}

impl Ldi {
    pub fn new(m: u64, s: u64) -> Result<Self, LdiError> {
        if !(2..=MAX_S as u64).contains(&s) {
            return Err(LdiError::Degree(s));
        }
        if m <= s || m > MAX_M as u64 {
            return Err(LdiError::Nodes { m, s });
        }
        Ok(Ldi {
            m: m as usize,
            s: s as usize,
        })
    }

    /// Number of nodes M.
    pub fn m(&self) -> usize {
        self.m
    }

    /// Degree S: links per node, and in-degree of every node.
    pub fn s(&self) -> usize {
        self.s
    }

    /// The diameter h: the h with `S^(h-1) < M <= S^h`, always at least 2.
    pub fn h(&self) -> usize {
        let mut h = 1;
        let mut reach = self.s;
        while reach < self.m {
            reach *= self.s;
            h += 1;
        }
        h
    }

    /// `S^j`; callers keep `j <= h`, so the result stays below `M S`.
    pub fn s_pow(&self, j: usize) -> usize {
        (0..j).fold(1, |acc, _| acc * self.s)
    }

    /// Checks a node number given by a user.
    pub fn node(&self, node: u64) -> Result<usize, LdiError> {
        if node < self.m as u64 {
            Ok(node as usize)
        } else {
            Err(LdiError::Node {
                node,
                m: self.m,
                s: self.s,
            })
        }
    }

    /// The node that the L-th link of node n runs to: `(S n + L) mod M`.
    ///
    /// # Panics
    /// If n is not a node or L is not a link number.
    pub fn link_target(&self, n: usize, link: usize) -> usize {
        assert!(n < self.m, "node {n} is not in {self}");
        assert!(link < self.s, "link {link} is not a link of {self}");
        (self.s * n + link) % self.m
    }

    /// M S, if the links are few enough to enumerate.
    pub fn enumerable_link_count(&self) -> Result<usize, LdiError> {
        let links = self.m * self.s;
        if links <= MAX_ENUMERATED_LINKS {
            Ok(links)
        } else {
            Err(LdiError::TooLarge {
                m: self.m,
                s: self.s,
            })
        }
    }

    /// The whole graph: out-arc L of node n is its L-th link. Self-loops are kept (node 0's
    /// link 0 is one), as definition (1) gives them; parallel links cannot occur, because the
    /// S targets of a node are S consecutive nodes and S < M.
    pub fn digraph(&self) -> Result<Digraph, LdiError> {
        self.enumerable_link_count()?;
        Ok(Digraph::from_fn(self.m, |n| {
            (0..self.s).map(move |link| self.link_target(n, link))
        }))
    }

    /// The link node n uses in switch y under `method`. Either way, the S switches give node
    /// n its S links once each, because `L -> (y - c) mod S` is a bijection for fixed c.
    ///
    /// # Panics
    /// If n is not a node or y is not a switch.
    pub fn switch_link(&self, method: SwitchMethod, n: usize, y: usize) -> usize {
        assert!(n < self.m, "node {n} is not in {self}");
        assert!(y < self.s, "switch {y} is not a switch of {self}");
        let class = match method {
            SwitchMethod::PaperEq3 => n / self.s,
            // Nodes n and n + M/g have the same S targets; the class index tells the g
            // nodes of such a family apart, so they take g different links (docs/ldi.md).
            SwitchMethod::GcdClasses => n / (self.m / gcd(self.m, self.s)),
        };
        (y + self.s - class % self.s) % self.s
    }

    /// The S switch settings: by the paper's eq. (3) where every one of its S sets is a
    /// permutation, otherwise by [`SwitchMethod::GcdClasses`], which always is.
    pub fn switches(&self) -> Result<Switches, LdiError> {
        self.enumerable_link_count()?;
        let paper = self.switches_by(SwitchMethod::PaperEq3);
        if paper.perms.iter().all(|perm| is_permutation(perm)) {
            Ok(paper)
        } else {
            Ok(self.switches_by(SwitchMethod::GcdClasses))
        }
    }

    /// The S sets of links that `method` assigns to the switches, permutations or not.
    pub fn switches_by(&self, method: SwitchMethod) -> Switches {
        let links: Vec<Vec<usize>> = (0..self.s)
            .map(|y| {
                (0..self.m)
                    .map(|n| self.switch_link(method, n, y))
                    .collect()
            })
            .collect();
        let perms = links
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .map(|(n, &link)| self.link_target(n, link))
                    .collect()
            })
            .collect();
        Switches {
            method,
            perms,
            links,
        }
    }
}

impl fmt::Display for Ldi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LDI({},{})", self.m, self.s)
    }
}

/// Whether `map` sends `0..len` onto `0..len` one to one.
pub fn is_permutation(map: &[usize]) -> bool {
    let mut hit = vec![false; map.len()];
    map.iter()
        .all(|&v| v < map.len() && !std::mem::replace(&mut hit[v], true))
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ldi(m: usize, s: usize) -> Ldi {
        Ldi::new(m as u64, s as u64).unwrap()
    }

    /// Every (S, M) with S <= 6 and S < M <= S^4: the range the issue asks to be checked.
    fn small_instances() -> impl Iterator<Item = (usize, usize)> {
        (2..=6usize).flat_map(|s| (s + 1..=s.pow(4)).map(move |m| (m, s)))
    }

    fn gcd_of(a: usize, b: usize) -> usize {
        (1..=a.min(b))
            .rev()
            .find(|&k| a.is_multiple_of(k) && b.is_multiple_of(k))
            .unwrap()
    }

    /// The link multiset of definition (1), as sorted (source, target) pairs.
    fn link_multiset(m: usize, s: usize) -> Vec<(usize, usize)> {
        let mut links: Vec<(usize, usize)> = (0..m)
            .flat_map(|n| (0..s).map(move |l| (n, (s * n + l) % m)))
            .collect();
        links.sort_unstable();
        links
    }

    fn is_perm_by_sorting(map: &[usize]) -> bool {
        let mut sorted = map.to_vec();
        sorted.sort_unstable();
        sorted.iter().enumerate().all(|(i, &v)| i == v)
    }

    #[test]
    fn bad_parameters_say_what_is_allowed() {
        let message = |m: u64, s: u64| Ldi::new(m, s).unwrap_err().to_string();
        assert_eq!(message(9, 1), "LDI(M,S) needs 2 <= S <= 65536, got S = 1");
        assert_eq!(
            message(1 << 20, 65537),
            "LDI(M,S) needs 2 <= S <= 65536, got S = 65537"
        );
        assert_eq!(
            message(3, 3),
            "LDI(M,S) needs S < M <= 4294967296 (the paper's S^(h-1) < M <= S^h with h > 1), got M = 3 and S = 3"
        );
        assert_eq!(
            message((1 << 32) + 1, 2),
            "LDI(M,S) needs S < M <= 4294967296 (the paper's S^(h-1) < M <= S^h with h > 1), got M = 4294967297 and S = 2"
        );
        assert!(Ldi::new(1 << 32, 65536).is_ok());
        assert_eq!(
            ldi(18, 3).node(18).unwrap_err().to_string(),
            "node 18 is not in LDI(18,3), whose nodes are 0 to 17"
        );
        assert_eq!(ldi(18, 3).node(17), Ok(17));
        assert_eq!(
            ldi(1 << 22, 5).digraph().unwrap_err().to_string(),
            "LDI(4194304,5) has 20971520 links, more than the 16777216 that can be enumerated"
        );
    }

    #[test]
    fn diameter_parameter_h_brackets_m() {
        // Table 1 of the paper and the intro's LDI(1024,4) (diameter 5), worked by hand.
        for (m, s, h) in [
            (4096, 64, 2),
            (4096, 16, 3),
            (4096, 8, 4),
            (4096, 4, 6),
            (1024, 4, 5),
            (7, 2, 3),
            (9, 3, 2),
            (10, 3, 3),
            (1 << 32, 2, 32),
            ((1 << 32) - 1, 2, 32),
            ((1 << 31) + 1, 2, 32),
        ] {
            assert_eq!(ldi(m, s).h(), h, "LDI({m},{s})");
        }
    }

    #[test]
    fn figure_3_graphs_link_as_definition_1_says() {
        // LDI(7,2): node n links to 2n and 2n+1 mod 7, worked by hand.
        let g = ldi(7, 2).digraph().unwrap();
        let expected: [[usize; 2]; 7] = [[0, 1], [2, 3], [4, 5], [6, 0], [1, 2], [3, 4], [5, 6]];
        for (n, out) in expected.iter().enumerate() {
            assert_eq!(g.out(n), out, "node {n}");
        }
        // Self-loops are kept: 0 -> 0 in LDI(7,2) and LDI(9,3), 4 -> 4 in LDI(9,3).
        let g9 = ldi(9, 3).digraph().unwrap();
        assert!(g.has_arc(0, 0) && g9.has_arc(0, 0) && g9.has_arc(4, 4));
        assert_eq!(g9.out(4), &[3, 4, 5]);
        assert_eq!(g9.arc_count(), 27);
    }

    #[test]
    fn section_4_three_faults_isolate_two_nodes_of_ldi_15_5() {
        // Nodes 0 and 3 both link to 0..4 (3 * 3 = 9 + 0..4 = 15..19 = 0..4 mod 15), so with
        // nodes 1, 2 and 4 faulty they only reach each other, as Figure 6(b) says. (The
        // caption calls the graph LDI(15,3); the text and the picture are LDI(15,5).)
        let g = ldi(15, 5).digraph().unwrap();
        assert_eq!(g.out(0), &[0, 1, 2, 3, 4]);
        assert_eq!(g.out(3), &[0, 1, 2, 3, 4]);
    }

    #[test]
    fn every_node_has_s_distinct_targets_and_in_degree_s() {
        for (m, s) in small_instances() {
            let g = ldi(m, s).digraph().unwrap();
            let mut in_degree = vec![0; m];
            for n in 0..m {
                let mut out = g.out(n).to_vec();
                out.sort_unstable();
                out.dedup();
                assert_eq!(out.len(), s, "LDI({m},{s}) node {n} has parallel links");
                for v in out {
                    in_degree[v] += 1;
                }
            }
            assert!(in_degree.iter().all(|&d| d == s), "LDI({m},{s})");
        }
    }

    #[test]
    fn ldi_of_s_to_the_h_is_the_de_bruijn_graph_on_base_s_numbers() {
        // De Bruijn: word x_(h-1)..x_0 -> x_(h-2)..x_0 y, built on digit vectors and then
        // numbered as base-S numbers, most significant digit first.
        for (s, h) in [
            (2usize, 2usize),
            (2, 3),
            (2, 6),
            (3, 2),
            (3, 4),
            (4, 3),
            (5, 2),
            (6, 3),
        ] {
            let m = s.pow(h as u32);
            let value = |digits: &[usize]| digits.iter().fold(0, |acc, &x| acc * s + x);
            let digits_of = |mut n: usize| {
                let mut digits = vec![0; h];
                for slot in digits.iter_mut().rev() {
                    *slot = n % s;
                    n /= s;
                }
                digits
            };
            let g = ldi(m, s).digraph().unwrap();
            for n in 0..m {
                let word = digits_of(n);
                let de_bruijn: Vec<usize> = (0..s)
                    .map(|y| {
                        let mut shifted = word[1..].to_vec();
                        shifted.push(y);
                        value(&shifted)
                    })
                    .collect();
                assert_eq!(g.out(n), de_bruijn.as_slice(), "LDI({m},{s}) node {n}");
            }
        }
    }

    #[test]
    fn paper_decomposition_reproduces_the_ldi_9_3_example() {
        // sigma_0..sigma_2 of Section 3, copied from the paper as <source, target> pairs.
        let sigma: [[(usize, usize); 9]; 3] = [
            [
                (0, 0),
                (1, 3),
                (2, 6),
                (3, 2),
                (4, 5),
                (5, 8),
                (6, 1),
                (7, 4),
                (8, 7),
            ],
            [
                (0, 1),
                (1, 4),
                (2, 7),
                (3, 0),
                (4, 3),
                (5, 6),
                (6, 2),
                (7, 5),
                (8, 8),
            ],
            [
                (0, 2),
                (1, 5),
                (2, 8),
                (3, 1),
                (4, 4),
                (5, 7),
                (6, 0),
                (7, 3),
                (8, 6),
            ],
        ];
        let switches = ldi(9, 3).switches().unwrap();
        assert_eq!(switches.method, SwitchMethod::PaperEq3);
        for (y, set) in sigma.iter().enumerate() {
            let paper: Vec<usize> = set.iter().map(|&(_, to)| to).collect();
            assert_eq!(switches.perms[y], paper, "sigma_{y}");
        }
    }

    /// Eq. (2) read literally: switch y takes the link L of n with y = (n mod S + L) mod S.
    fn eq2_target(m: usize, s: usize, n: usize, y: usize) -> usize {
        let link = (0..s).find(|l| (n % s + l) % s == y).unwrap();
        (s * n + link) % m
    }

    /// Eq. (3) read literally: Dest(n,y) = (S n + (y - n div S) mod S) mod M.
    fn eq3_target(m: usize, s: usize, n: usize, y: usize) -> usize {
        let offset = (y as i64 - (n / s) as i64).rem_euclid(s as i64) as usize;
        (s * n + offset) % m
    }

    fn all_switches_are_permutations(
        m: usize,
        s: usize,
        target: fn(usize, usize, usize, usize) -> usize,
    ) -> bool {
        (0..s).all(|y| is_perm_by_sorting(&(0..m).map(|n| target(m, s, n, y)).collect::<Vec<_>>()))
    }

    #[test]
    fn paper_formulas_are_permutations_only_for_few_m() {
        let mut total = 0;
        let mut eq2_holds = Vec::new();
        let mut eq3_holds = Vec::new();
        for (m, s) in small_instances() {
            total += 1;
            let eq2 = all_switches_are_permutations(m, s, eq2_target);
            let eq3 = all_switches_are_permutations(m, s, eq3_target);
            // The characterisations found by this brute force, checked on every instance.
            let eq2_rule = m.is_multiple_of(s) && gcd_of(m / s, s) == 1;
            let eq3_rule = m.is_multiple_of(s * s) && gcd_of(m / (s * s), s) == 1;
            assert_eq!(eq2, eq2_rule, "eq. (2) on LDI({m},{s})");
            assert_eq!(eq3, eq3_rule, "eq. (3) on LDI({m},{s})");
            if eq2 {
                eq2_holds.push((m, s));
            }
            if eq3 {
                eq3_holds.push((m, s));
            }
        }
        assert_eq!(total, 14 + 78 + 252 + 620 + 1290);
        assert_eq!(eq2_holds.len(), 221);
        assert_eq!(eq3_holds.len(), 48);
        let for_s = |list: &[(usize, usize)], s: usize| -> Vec<usize> {
            list.iter().filter(|p| p.1 == s).map(|p| p.0).collect()
        };
        assert_eq!(for_s(&eq2_holds, 2), [6, 10, 14]);
        assert_eq!(for_s(&eq3_holds, 2), [4, 12]);
        assert_eq!(for_s(&eq3_holds, 3), [9, 18, 36, 45, 63, 72]);
        // The paper's own LDI(7,2) of Figure 3: eq. (3) sends nodes 0 and 3 both to node 0
        // in switch 0 (0 -> 0 by link 0, 3 -> 6 + 1 = 7 = 0 by link (0 - 1) mod 2 = 1).
        assert_eq!(eq3_target(7, 2, 0, 0), 0);
        assert_eq!(eq3_target(7, 2, 3, 0), 0);
        // And eq. (2) fails on the paper's LDI(9,3) example: nodes 0 and 3 meet in switch 0.
        assert_eq!(eq2_target(9, 3, 0, 0), 0);
        assert_eq!(eq2_target(9, 3, 3, 0), 0);
    }

    #[test]
    fn switch_settings_are_permutations_covering_exactly_the_links() {
        for (m, s) in small_instances() {
            let switches = ldi(m, s).switches().unwrap();
            let eq3_rule = m.is_multiple_of(s * s) && gcd_of(m / (s * s), s) == 1;
            let expected_method = if eq3_rule {
                SwitchMethod::PaperEq3
            } else {
                SwitchMethod::GcdClasses
            };
            assert_eq!(switches.method, expected_method, "LDI({m},{s})");
            assert_eq!(switches.perms.len(), s);
            let mut union = Vec::with_capacity(m * s);
            for (perm, links) in switches.perms.iter().zip(&switches.links) {
                assert!(is_perm_by_sorting(perm), "LDI({m},{s})");
                for n in 0..m {
                    assert_eq!(perm[n], (s * n + links[n]) % m, "LDI({m},{s}) node {n}");
                    union.push((n, perm[n]));
                }
            }
            union.sort_unstable();
            assert_eq!(union, link_multiset(m, s), "LDI({m},{s})");
        }
    }

    #[test]
    fn gcd_classes_are_permutations_beyond_the_small_range() {
        // Degrees up to 12 and node counts up to 600, by the same independent checks.
        for s in 7..=12usize {
            for m in s + 1..=600 {
                let switches = ldi(m, s).switches_by(SwitchMethod::GcdClasses);
                let mut union = Vec::new();
                for perm in &switches.perms {
                    assert!(is_perm_by_sorting(perm), "LDI({m},{s})");
                    union.extend(perm.iter().enumerate().map(|(n, &v)| (n, v)));
                }
                union.sort_unstable();
                assert_eq!(union, link_multiset(m, s), "LDI({m},{s})");
            }
        }
    }

    #[test]
    fn gcd_classes_reduce_to_simple_cases() {
        // gcd(M,S) = 1: switch y is simply link y for every node.
        let coprime = ldi(7, 2).switches().unwrap();
        assert_eq!(coprime.method, SwitchMethod::GcdClasses);
        assert_eq!(coprime.links, vec![vec![0; 7], vec![1; 7]]);
        assert_eq!(coprime.perms[0], [0, 2, 4, 6, 1, 3, 5]);
        // LDI(12,4), g = 4, M/g = 3: nodes 0..2 take link y, 3..5 link y-1, and so on.
        let twelve = ldi(12, 4).switches().unwrap();
        assert_eq!(twelve.method, SwitchMethod::GcdClasses);
        assert_eq!(twelve.links[0], [0, 0, 0, 3, 3, 3, 2, 2, 2, 1, 1, 1]);
        assert_eq!(twelve.perms[0], [0, 4, 8, 3, 7, 11, 2, 6, 10, 1, 5, 9]);
    }

    #[test]
    fn is_permutation_rejects_repeats_and_range() {
        assert!(is_permutation(&[2, 0, 1]));
        assert!(!is_permutation(&[0, 0, 1]));
        assert!(!is_permutation(&[0, 3, 1]));
        assert!(is_permutation(&[]));
    }
}
