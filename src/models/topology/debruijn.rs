//! The de Bruijn digraph B(d,k): all d^k words of k letters over `0..d`.
//!
//! Node `(a1..ak)` has the d out-neighbours `(a2..ak, z)` for every letter z, so unlike
//! Kautz words neighbouring letters may repeat and constant words carry a self-loop. Nodes
//! are numbered by the base-d value of their word, `a1` most significant; with that
//! numbering B(S,h) is LDI(S^h, S) of Melhem's LDI paper (see docs/papers.md), arc for arc.

use crate::topology::digraph::Digraph;
use thiserror::Error;

/// Largest graph that is enumerated node by node.
pub const MAX_NODES: u64 = 1 << 24;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeBruijnError {
    #[error("B(d,k) needs d >= 2 and k >= 1, got B({d},{k})")]
    Parameters { d: u64, k: u64 },
    #[error("B({d},{k}) has more than {MAX_NODES} nodes, more than can be enumerated")]
    TooLarge { d: u64, k: u64 },
}

/// The parameters of one de Bruijn digraph, validated and small enough to enumerate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeBruijn {
    d: usize,
    k: usize,
    nodes: usize,
}

impl DeBruijn {
    pub fn new(d: u64, k: u64) -> Result<Self, DeBruijnError> {
        if d < 2 || k < 1 {
            return Err(DeBruijnError::Parameters { d, k });
        }
        let nodes = u32::try_from(k)
            .ok()
            .and_then(|k| d.checked_pow(k))
            .filter(|&n| n <= MAX_NODES)
            .ok_or(DeBruijnError::TooLarge { d, k })?;
        Ok(DeBruijn {
            d: d as usize,
            k: k as usize,
            nodes: nodes as usize,
        })
    }

    pub fn d(&self) -> usize {
        self.d
    }

    pub fn k(&self) -> usize {
        self.k
    }

    pub fn node_count(&self) -> usize {
        self.nodes
    }

    /// The word of node `v`, most significant letter first.
    pub fn word(&self, mut v: usize) -> Vec<usize> {
        let mut letters = vec![0; self.k];
        for slot in letters.iter_mut().rev() {
            *slot = v % self.d;
            v /= self.d;
        }
        letters
    }

    /// Node `v` shifted one letter left with `z` shifted in: `(d v + z) mod d^k`.
    pub fn shift(&self, v: usize, z: usize) -> usize {
        (v * self.d + z) % self.nodes
    }

    /// The graph with out-arcs of each node by increasing shifted-in letter.
    pub fn digraph(&self) -> Digraph {
        Digraph::from_fn(self.nodes, |v| (0..self.d).map(move |z| self.shift(v, z)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_1_node_counts() {
        // Table 1 of the route-generator paper (Smit et al. 1991) counts in- plus
        // out-degree: "d=k=4" is B(2,4), "d=k=6" B(3,6).
        assert_eq!(DeBruijn::new(2, 4).unwrap().node_count(), 16);
        assert_eq!(DeBruijn::new(3, 6).unwrap().node_count(), 729);
        assert_eq!(DeBruijn::new(4, 8).unwrap().node_count(), 65536);
    }

    #[test]
    fn arcs_shift_words() {
        let g = DeBruijn::new(3, 3).unwrap();
        for v in 0..g.node_count() {
            for (z, &w) in g.digraph().out(v).iter().enumerate() {
                let mut expected = g.word(v)[1..].to_vec();
                expected.push(z);
                assert_eq!(g.word(w), expected);
            }
        }
        assert_eq!(g.digraph().out(0), &[0, 1, 2], "000 has a self-loop");
    }

    #[test]
    fn is_ldi_of_s_to_the_h_arc_for_arc() {
        use crate::topology::ldi::Ldi;
        for s in 2..=5u64 {
            for h in 2..=4u32 {
                let de_bruijn = DeBruijn::new(s, h as u64).unwrap().digraph();
                let ldi = Ldi::new(s.pow(h), s).unwrap().digraph().unwrap();
                assert_eq!(de_bruijn, ldi, "B({s},{h}) vs LDI({},{s})", s.pow(h));
            }
        }
    }

    #[test]
    fn bad_parameters() {
        assert_eq!(
            DeBruijn::new(1, 3).unwrap_err().to_string(),
            "B(d,k) needs d >= 2 and k >= 1, got B(1,3)"
        );
        assert_eq!(
            DeBruijn::new(4, 13).unwrap_err().to_string(),
            "B(4,13) has more than 16777216 nodes, more than can be enumerated"
        );
    }
}
