//! Test vectors from the golden model.
//!
//! In: a Kautz graph, which pairs to simulate ([`Pairs`]: every ordered pair, or a seeded
//! sample) and which shard of them ([`Shard`]). Out: a [`VectorSet`], whose [`Vector`]s carry
//! a source and a destination (the selected pairs, then a fixed list of invalid words,
//! [`invalid_pairs`]) and what the route generator must answer ([`Expected`], from
//! `route_set`).
//!
//! Vectors are made on demand from their position, so that a sweep over every pair of a
//! large graph never holds more than one batch in memory.

use crate::bits::bits_for;
use crate::random::{SplitMix64, distinct_pairs};
use crate::routing::kautz::route_set;

use crate::topology::kautz::{Kautz, KautzError, Letter};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Largest seeded sample: the sample is held in memory, one pair of words per entry.
pub const MAX_SAMPLE: u64 = 1 << 24;

/// Why a selection of vectors cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VectorError {
    #[error(transparent)]
    Graph(#[from] KautzError),
    #[error("shard '{0}' is not I/N with 0 <= I < N (for example 0/8)")]
    Shard(String),
    #[error(
        "a sample holds at most {MAX_SAMPLE} pairs, got {0}; verify every pair in shards instead"
    )]
    SampleTooLarge(u64),
}

/// Which ordered pairs of distinct nodes to simulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairs {
    /// Every ordered pair, in lexicographic order of (src, dst).
    All,
    /// `count` distinct pairs drawn with a generator seeded by `seed`, in drawing order:
    /// a smaller sample with the same seed is a prefix of a larger one. When `count` reaches
    /// the number of pairs, every pair in lexicographic order.
    Sample { count: u64, seed: u64 },
}

/// Slice `index` of `count`: the vectors whose position p has `p % count == index`.
/// The shards of one `count` are disjoint and together hold every vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole selection: shard 0/1.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    pub fn new(index: u64, count: u64) -> Result<Self, VectorError> {
        if index < count {
            Ok(Shard { index, count })
        } else {
            Err(VectorError::Shard(format!("{index}/{count}")))
        }
    }

    pub fn index(&self) -> u64 {
        self.index
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether the vector at `position` of the whole selection is in this shard.
    pub fn selects(&self, position: u64) -> bool {
        position % self.count == self.index
    }

    /// How many of `total` vectors this shard selects.
    pub fn len_of(&self, total: u64) -> u64 {
        (total + self.count - 1 - self.index) / self.count
    }
}

impl FromStr for Shard {
    type Err = VectorError;

    fn from_str(text: &str) -> Result<Self, VectorError> {
        let bad = || VectorError::Shard(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index = index.trim().parse().map_err(|_| bad())?;
        let count = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).map_err(|_| bad())
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What the route generator must answer for one vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// These routes (their hops) in this order, then `done` with `error` low.
    Routes(Vec<Vec<Letter>>),
    /// `error` and `done`, and no route: a word is not a node, or source equals destination.
    Error,
}

/// One simulated source and destination with its stimulus and expected answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vector {
    /// Position in the whole selection (pairs first, then invalid words), before sharding.
    pub position: u64,
    pub src: Vec<Letter>,
    pub dst: Vec<Letter>,
    pub expected: Expected,
}

#[derive(Debug, Clone)]
enum Source {
    /// Every ordered pair of distinct nodes of a graph with this many nodes.
    All {
        nodes: u64,
    },
    Listed(Vec<(Vec<Letter>, Vec<Letter>)>),
}

/// The vectors of one verification run: the selected pairs, then the invalid words,
/// restricted to one shard.
#[derive(Debug, Clone)]
pub struct VectorSet {
    graph: Kautz,
    pairs: Pairs,
    source: Source,
    invalid: Vec<(Vec<Letter>, Vec<Letter>)>,
    shard: Shard,
}

impl VectorSet {
    pub fn new(graph: &Kautz, pairs: Pairs, shard: Shard) -> Result<Self, VectorError> {
        let source = match pairs {
            Pairs::All => Source::All {
                nodes: graph.enumerable_node_count()? as u64,
            },
            Pairs::Sample { count, seed } => sample(graph, count, seed)?,
        };
        Ok(VectorSet {
            graph: *graph,
            pairs,
            source,
            invalid: invalid_pairs(graph),
            shard,
        })
    }

    pub fn graph(&self) -> &Kautz {
        &self.graph
    }

    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// Selected pairs, before sharding.
    pub fn pair_count(&self) -> u64 {
        match &self.source {
            Source::All { nodes } => nodes * nodes.saturating_sub(1),
            Source::Listed(pairs) => pairs.len() as u64,
        }
    }

    /// Invalid source/destination vectors added after the pairs, before sharding.
    pub fn invalid_count(&self) -> u64 {
        self.invalid.len() as u64
    }

    /// Vectors in this shard.
    pub fn len(&self) -> u64 {
        self.shard.len_of(self.pair_count() + self.invalid_count())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th vector of this shard, `i < len()`.
    pub fn get(&self, i: u64) -> Vector {
        let position = self.shard.index + i * self.shard.count;
        let (src, dst) = self.words_at(position);
        let expected = match route_set(&self.graph, &src, &dst) {
            Ok(routes) => Expected::Routes(routes.into_iter().map(|r| r.hops).collect()),
            Err(_) => Expected::Error,
        };
        Vector {
            position,
            src,
            dst,
            expected,
        }
    }

    fn words_at(&self, position: u64) -> (Vec<Letter>, Vec<Letter>) {
        let pairs = self.pair_count();
        if position >= pairs {
            return self.invalid[(position - pairs) as usize].clone();
        }
        match &self.source {
            Source::All { nodes } => {
                let (s, r) = (position / (nodes - 1), position % (nodes - 1));
                let t = r + u64::from(r >= s);
                let word = |i: u64| self.graph.word_at(i as usize).letters().to_vec();
                (word(s), word(t))
            }
            Source::Listed(pairs) => pairs[position as usize].clone(),
        }
    }

    /// One line for reports: what was selected and which shard of it runs.
    pub fn describe(&self) -> String {
        let shard = self.shard;
        let selection = match (&self.pairs, &self.source) {
            (Pairs::Sample { seed, .. }, Source::Listed(_)) => {
                format!(
                    "{} (seed {seed})",
                    counted(self.pair_count(), "sampled pair")
                )
            }
            _ => format!("all {} pairs", self.pair_count()),
        };
        let shown = if shard == Shard::WHOLE {
            String::new()
        } else {
            format!(", shard {shard}")
        };
        format!(
            "{}: {selection} and {} invalid vectors{shown}: {}",
            self.graph,
            self.invalid_count(),
            counted(
                shard.len_of(self.pair_count() + self.invalid_count()),
                "vector"
            )
        )
    }
}

/// Source/destination vectors that are not a pair of distinct nodes, built from the lowest
/// node `0101..` and the highest `d(d-1)d..`: source equal to destination (both nodes),
/// two equal neighbouring letters (source's last two, destination's first two; k >= 2),
/// and a letter above d (source's last, destination's first; only when d+1 is not a power
/// of two, since otherwise every W-bit value is a letter).
pub fn invalid_pairs(graph: &Kautz) -> Vec<(Vec<Letter>, Vec<Letter>)> {
    let (d, k) = (graph.d(), graph.k());
    let low: Vec<Letter> = (0..k).map(|i| (i % 2) as Letter).collect();
    let high: Vec<Letter> = (0..k).map(|i| (d - i % 2) as Letter).collect();
    let mut pairs = vec![(low.clone(), low.clone()), (high.clone(), high.clone())];
    if k >= 2 {
        let mut src = low.clone();
        src[k - 1] = src[k - 2];
        pairs.push((src, high.clone()));
        let mut dst = high.clone();
        dst[0] = dst[1];
        pairs.push((low.clone(), dst));
    }
    let largest = (1usize << bits_for(d as u64 + 1)) - 1;
    if largest > d {
        let mut src = low.clone();
        src[k - 1] = (d + 1) as Letter;
        pairs.push((src, high.clone()));
        let mut dst = high;
        dst[0] = largest as Letter;
        pairs.push((low, dst));
    }
    pairs
}

fn sample(graph: &Kautz, count: u64, seed: u64) -> Result<Source, VectorError> {
    if count > MAX_SAMPLE {
        return Err(VectorError::SampleTooLarge(count));
    }
    if let Some(nodes) = graph.node_count()
        && u128::from(count) >= u128::from(nodes) * u128::from(nodes - 1)
    {
        // At most MAX_SAMPLE pairs, so the graph is small enough to enumerate.
        return Ok(Source::All {
            nodes: graph.enumerable_node_count()? as u64,
        });
    }
    let pairs = distinct_pairs(&mut SplitMix64::new(seed), count, |rng| {
        draw_word(rng, graph)
    });
    Ok(Source::Listed(pairs))
}

/// A node drawn uniformly: the first letter is one of d+1, each later one of the d that
/// differ from its left neighbour, and every node is one such choice.
fn draw_word(rng: &mut SplitMix64, graph: &Kautz) -> Vec<Letter> {
    let d = graph.d() as u64;
    let mut letters = Vec::with_capacity(graph.k());
    letters.push(rng.below(d + 1) as Letter);
    for _ in 1..graph.k() {
        let previous = *letters.last().expect("first letter pushed");
        let rank = rng.below(d) as Letter;
        letters.push(rank + Letter::from(rank >= previous));
    }
    letters
}

/// "1 vector", "2 vectors": a count and its noun, for messages.
fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
}
