//! Golden models of Kautz routing as Smit, Havinga, Jansen, de Boer and Molenkamp describe
//! it in "On hardware for generating routes in Kautz digraphs" (Euromicro, 1991; see
//! docs/papers.md): the generic shift route, the shortest route, and the d node-disjoint
//! routes of phases A, B and C in their exact generation order.
//!
//! In: a [`Kautz`] graph and two node words. Out: routes given by their hops, the letters
//! shifted in one per step (route `30` from 01234 reaches 12343, then 23430).
//!
//! The route set is produced by [`DisjointRoutes`], an iterator that allocates nothing and
//! mirrors the hardware's control flow, so that the generated route generator can be
//! compared with it route by route:
//! - Phase A, overlap v from k-1 down to 0: when the last v letters of the source equal the
//!   first v of the destination, the route shifts in `b(v+1)..bk`. Its out-node is entered
//!   with letter `b(v+1)` and it reaches the destination from the in-node whose first
//!   letter is `a(k-v)`; the route is taken only if both letters are still free.
//! - Phase B, inserted letter c from 0 up to d: route `c, b1..bk` when c is free both as an
//!   out-letter and as an in-letter.
//! - Phase C, out-letter c from 0 up to d, each free one paired with the smallest free
//!   in-letter c': route `c, c', b1..bk`.
//!
//! Phases B and C keep no position: the next letter in increasing order is always the
//! smallest one still free, since every letter before it was taken or found used.
//!
//! Out-letter `ak` and in-letter `b1` start out used: they name no neighbour. Each phase
//! marks the letters of the routes it takes. Both sets start with d free letters and each
//! route takes one of each, so the set always has exactly d routes; after phase B no letter
//! is free on both sides, so the two letters of a phase C route always differ.

use crate::topology::kautz::{Kautz, KautzError, Letter};
use thiserror::Error;

/// Why no route set exists for a pair of words.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RouteError {
    #[error(transparent)]
    Word(#[from] KautzError),
    #[error("source and destination are both '{0}'; a route needs two different nodes")]
    SameNode(String),
}

/// The phase of the algorithm that produces a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Length at most k: a suffix of the source overlaps a prefix of the destination.
    A,
    /// Length k+1: one letter inserted between source and destination.
    B,
    /// Length k+2: two letters inserted.
    C,
}

/// One route of a route set, described by the choice the algorithm made for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RouteShape {
    /// Phase A: shifts in `b(v+1)..bk`, where `v` letters of source and destination overlap.
    Overlap { overlap: usize },
    /// Phase B: shifts in `letter, b1..bk`.
    Insert { letter: Letter },
    /// Phase C: shifts in `out, inn, b1..bk`.
    InsertTwo { out: Letter, inn: Letter },
}

impl RouteShape {
    pub fn phase(&self) -> Phase {
        match self {
            RouteShape::Overlap { .. } => Phase::A,
            RouteShape::Insert { .. } => Phase::B,
            RouteShape::InsertTwo { .. } => Phase::C,
        }
    }

    /// Number of hops for words of length `k`.
    pub fn len(&self, k: usize) -> usize {
        match self {
            RouteShape::Overlap { overlap } => k - overlap,
            RouteShape::Insert { .. } => k + 1,
            RouteShape::InsertTwo { .. } => k + 2,
        }
    }

    /// The letter that enters the out-node: the first hop.
    pub fn out_letter(&self, dst: &[Letter]) -> Letter {
        match *self {
            RouteShape::Overlap { overlap } => dst[overlap],
            RouteShape::Insert { letter } => letter,
            RouteShape::InsertTwo { out, .. } => out,
        }
    }

    /// The first letter of the in-node: the letter shifted out by the last hop.
    pub fn in_letter(&self, src: &[Letter]) -> Letter {
        match *self {
            RouteShape::Overlap { overlap } => src[src.len() - 1 - overlap],
            RouteShape::Insert { letter } => letter,
            RouteShape::InsertTwo { inn, .. } => inn,
        }
    }

    /// Appends the hops of this route towards `dst` to `hops`.
    pub fn push_hops(&self, dst: &[Letter], hops: &mut Vec<Letter>) {
        match *self {
            RouteShape::Overlap { overlap } => hops.extend_from_slice(&dst[overlap..]),
            RouteShape::Insert { letter } => {
                hops.push(letter);
                hops.extend_from_slice(dst);
            }
            RouteShape::InsertTwo { out, inn } => {
                hops.extend_from_slice(&[out, inn]);
                hops.extend_from_slice(dst);
            }
        }
    }

    /// The hops of this route towards `dst`.
    pub fn hops(&self, dst: &[Letter]) -> Vec<Letter> {
        let mut hops = Vec::with_capacity(dst.len() + 2);
        self.push_hops(dst, &mut hops);
        hops
    }
}

/// A set of letters `0..=255`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct LetterSet([u64; 4]);

impl LetterSet {
    fn contains(&self, a: Letter) -> bool {
        self.0[a as usize >> 6] >> (a & 63) & 1 == 1
    }

    fn insert(&mut self, a: Letter) {
        self.0[a as usize >> 6] |= 1 << (a & 63);
    }

    fn union(&self, other: &LetterSet) -> LetterSet {
        LetterSet(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The smallest letter of `0..=d` not in the set, if any.
    fn smallest_missing(&self, d: usize) -> Option<Letter> {
        let words = (d >> 6) + 1;
        let a = self.0[..words]
            .iter()
            .enumerate()
            .find(|(_, word)| **word != u64::MAX)
            .map(|(i, word)| i * 64 + word.trailing_ones() as usize)?;
        (a <= d).then_some(a as Letter)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Phase A; the next overlap to try is one less than this.
    A {
        above: usize,
    },
    /// Phases B and C need no position: each route takes the smallest letter still free,
    /// and taking it marks it used.
    B,
    C,
}

/// The node-disjoint route set of the route-generator paper (Smit et al. 1991), generated
/// lazily in the paper's order.
#[derive(Debug, Clone)]
pub struct DisjointRoutes<'a> {
    src: &'a [Letter],
    dst: &'a [Letter],
    d: usize,
    used_out: LetterSet,
    used_in: LetterSet,
    stage: Stage,
}

impl<'a> DisjointRoutes<'a> {
    /// The route set from `src` to `dst`, both checked to be distinct nodes of `graph`.
    pub fn new(graph: &Kautz, src: &'a [Letter], dst: &'a [Letter]) -> Result<Self, RouteError> {
        graph.check_letters(src)?;
        graph.check_letters(dst)?;
        // Byte loop rather than `==`: a `memcmp` call costs more than words this short.
        if src.iter().zip(dst).all(|(a, b)| a == b) {
            return Err(RouteError::SameNode(graph.format_letters(src)));
        }
        let mut used_out = LetterSet::default();
        let mut used_in = LetterSet::default();
        used_out.insert(src[src.len() - 1]);
        used_in.insert(dst[0]);
        Ok(DisjointRoutes {
            src,
            dst,
            d: graph.d(),
            used_out,
            used_in,
            stage: Stage::A { above: src.len() },
        })
    }

    fn is_free(&self, out: Letter, inn: Letter) -> bool {
        !self.used_out.contains(out) && !self.used_in.contains(inn)
    }

    #[inline]
    fn take(&mut self, shape: RouteShape) -> RouteShape {
        self.used_out.insert(shape.out_letter(self.dst));
        self.used_in.insert(shape.in_letter(self.src));
        shape
    }

    /// Whether the last `overlap` letters of the source are the first of the destination.
    /// A byte loop: for words this short it beats a call to `memcmp`.
    fn overlaps(&self, overlap: usize) -> bool {
        let suffix = &self.src[self.src.len() - overlap..];
        suffix.iter().zip(self.dst).all(|(a, b)| a == b)
    }
}

impl Iterator for DisjointRoutes<'_> {
    type Item = RouteShape;

    fn next(&mut self) -> Option<RouteShape> {
        while let Stage::A { above } = self.stage {
            let Some(overlap) = above.checked_sub(1) else {
                self.stage = Stage::B;
                break;
            };
            self.stage = Stage::A { above: overlap };
            let shape = RouteShape::Overlap { overlap };
            // The letter test is cheaper than the word comparison: do it first.
            if self.is_free(shape.out_letter(self.dst), shape.in_letter(self.src))
                && self.overlaps(overlap)
            {
                return Some(self.take(shape));
            }
        }
        if self.stage == Stage::B {
            match self.used_out.union(&self.used_in).smallest_missing(self.d) {
                Some(letter) => return Some(self.take(RouteShape::Insert { letter })),
                None => self.stage = Stage::C,
            }
        }
        let out = self.used_out.smallest_missing(self.d)?;
        let inn = self
            .used_in
            .smallest_missing(self.d)
            .expect("free out- and in-letters are equal in number");
        Some(self.take(RouteShape::InsertTwo { out, inn }))
    }
}

/// One route of a route set with its hops spelt out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub shape: RouteShape,
    pub hops: Vec<Letter>,
}

/// The whole route set from `src` to `dst`, in generation order.
pub fn route_set(graph: &Kautz, src: &[Letter], dst: &[Letter]) -> Result<Vec<Route>, RouteError> {
    Ok(DisjointRoutes::new(graph, src, dst)?
        .map(|shape| Route {
            shape,
            hops: shape.hops(dst),
        })
        .collect())
}

/// The generic shift route `b1..bk` of section 3.1: `None` when `ak == b1`, where shifting
/// in `b1` would repeat a letter.
pub fn shift_route(
    graph: &Kautz,
    src: &[Letter],
    dst: &[Letter],
) -> Result<Option<Vec<Letter>>, RouteError> {
    graph.check_letters(src)?;
    graph.check_letters(dst)?;
    Ok((src[src.len() - 1] != dst[0]).then(|| dst.to_vec()))
}

/// A shortest route: shift in the letters of the destination after the longest overlap.
/// It is always the first route of the disjoint route set.
pub fn shortest_route(
    graph: &Kautz,
    src: &[Letter],
    dst: &[Letter],
) -> Result<Vec<Letter>, RouteError> {
    graph.check_letters(src)?;
    graph.check_letters(dst)?;
    if src == dst {
        return Err(RouteError::SameNode(graph.format_letters(src)));
    }
    let k = src.len();
    let overlap = (1..k)
        .rev()
        .find(|&v| src[k - v..] == dst[..v])
        .unwrap_or(0);
    Ok(dst[overlap..].to_vec())
}

/// The nodes a route visits, source first: each hop shifts one letter in.
pub fn walk(src: &[Letter], hops: &[Letter]) -> Vec<Vec<Letter>> {
    let mut node = src.to_vec();
    let mut nodes = vec![node.clone()];
    for &hop in hops {
        node.remove(0);
        node.push(hop);
        nodes.push(node.clone());
    }
    nodes
}
