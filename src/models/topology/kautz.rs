//! The Kautz digraph K(d,k): words of k letters over `0..=d` with no two equal neighbours.
//!
//! Node `(a1..ak)` has the d out-neighbours `(a2..ak, z)`, `z != ak`, and the d in-neighbours
//! `(z, a1..a(k-1))`, `z != a1`; there are `d^k + d^(k-1)` nodes. Words are parsed from
//! letters separated by commas ("0,1,2,3,4") or, when d <= 9, a plain digit string
//! ("01234"), and ranked in lexicographic order so that small graphs can be enumerated.

use crate::topology::digraph::Digraph;
use std::fmt;
use thiserror::Error;

/// One letter of a node word; `d <= 255` keeps every letter in a byte.
pub type Letter = u8;

/// Largest supported degree: letters `0..=255` fill a byte.
pub const MAX_D: usize = 255;
/// Largest supported word length.
pub const MAX_K: usize = 64;
/// Largest graph that is ever enumerated node by node (drawing, exhaustive checks).
pub const MAX_ENUMERATED_NODES: u64 = 1 << 24;

/// What is wrong with a Kautz parameter or node word; each message fits on one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KautzError {
    #[error("K(d,k) needs 1 <= d <= {MAX_D}, got d = {0}")]
    Degree(u64),
    #[error("K(d,k) needs 1 <= k <= {MAX_K}, got k = {0}")]
    Length(u64),
    #[error("node word '{word}' has {got} letters, but nodes of K({d},{k}) have {k}")]
    WordLength {
        word: String,
        got: usize,
        d: usize,
        k: usize,
    },
    #[error("node word '{word}': '{token}' is not a letter (write letters as numbers, e.g. 0,1,2)")]
    Syntax { word: String, token: String },
    #[error(
        "node word '{word}': letter {letter} at position {position} is out of range; K({d},{k}) uses letters 0 to {d}"
    )]
    LetterRange {
        word: String,
        letter: u64,
        position: usize,
        d: usize,
        k: usize,
    },
    #[error("node word '{word}': letters {position} and {next} are both {letter}; neighbouring letters of a Kautz word must differ", next = position + 1)]
    EqualNeighbours {
        word: String,
        letter: Letter,
        position: usize,
    },
    #[error("K({d},{k}) has {nodes} nodes, more than the {limit} that can be enumerated")]
    TooLarge {
        d: usize,
        k: usize,
        nodes: String,
        limit: u64,
    },
}

/// The parameters of one Kautz digraph, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kautz {
    d: usize,
    k: usize,
}

impl Kautz {
    pub fn new(d: u64, k: u64) -> Result<Self, KautzError> {
        if !(1..=MAX_D as u64).contains(&d) {
            return Err(KautzError::Degree(d));
        }
        if !(1..=MAX_K as u64).contains(&k) {
            return Err(KautzError::Length(k));
        }
        Ok(Kautz {
            d: d as usize,
            k: k as usize,
        })
    }

    /// Degree: in- and out-degree of every node; letters are `0..=d`.
    pub fn d(&self) -> usize {
        self.d
    }

    /// Word length, which is also the diameter.
    pub fn k(&self) -> usize {
        self.k
    }

    /// `d^k + d^(k-1)` as an exact decimal, whatever its size.
    pub fn node_count_decimal(&self) -> String {
        match self.node_count() {
            Some(n) => n.to_string(),
            None => format!("{}^{} + {}^{}", self.d, self.k, self.d, self.k - 1),
        }
    }

    /// `d^k + d^(k-1)`, or `None` where it does not fit in 64 bits.
    pub fn node_count(&self) -> Option<u64> {
        let below = (self.d as u64).checked_pow(self.k as u32 - 1)?;
        below.checked_mul(self.d as u64)?.checked_add(below)
    }

    /// The node count, if the graph is small enough to enumerate.
    pub fn enumerable_node_count(&self) -> Result<usize, KautzError> {
        match self.node_count() {
            Some(n) if n <= MAX_ENUMERATED_NODES => Ok(n as usize),
            _ => Err(KautzError::TooLarge {
                d: self.d,
                k: self.k,
                nodes: self.node_count_decimal(),
                limit: MAX_ENUMERATED_NODES,
            }),
        }
    }

    /// Parses "0,1,2,3,4" (any d) or "01234" (d <= 9) and checks it is a node.
    pub fn parse_word(&self, text: &str) -> Result<Word, KautzError> {
        let text = text.trim();
        let tokens: Vec<&str> = if text.contains(',') || self.d > 9 {
            text.split(',').map(str::trim).collect()
        } else {
            (0..text.len()).map(|i| &text[i..i + 1]).collect()
        };
        let mut letters = Vec::with_capacity(tokens.len());
        for (i, token) in tokens.iter().enumerate() {
            let value: u64 = token.parse().map_err(|_| KautzError::Syntax {
                word: text.to_string(),
                token: token.to_string(),
            })?;
            if value > self.d as u64 {
                return Err(KautzError::LetterRange {
                    word: text.to_string(),
                    letter: value,
                    position: i + 1,
                    d: self.d,
                    k: self.k,
                });
            }
            letters.push(value as Letter);
        }
        self.word(letters).map_err(|e| e.with_text(text))
    }

    /// Checks that `letters` is a node of this graph.
    pub fn word(&self, letters: Vec<Letter>) -> Result<Word, KautzError> {
        self.check_letters(&letters)?;
        Ok(Word(letters))
    }

    /// Checks that `letters` is a node of this graph without taking ownership.
    pub fn check_letters(&self, letters: &[Letter]) -> Result<(), KautzError> {
        // One pass for the common case, a valid word; the diagnosis below runs only on error.
        let valid = letters.len() == self.k
            && letters[0] as usize <= self.d
            && letters
                .windows(2)
                .all(|w| w[1] as usize <= self.d && w[0] != w[1]);
        if valid {
            return Ok(());
        }
        self.diagnose(letters)
    }

    /// Names the first thing wrong with `letters`.
    fn diagnose(&self, letters: &[Letter]) -> Result<(), KautzError> {
        let shown = || self.format_letters(letters);
        if letters.len() != self.k {
            return Err(KautzError::WordLength {
                word: shown(),
                got: letters.len(),
                d: self.d,
                k: self.k,
            });
        }
        if let Some(i) = letters.iter().position(|&a| a as usize > self.d) {
            return Err(KautzError::LetterRange {
                word: shown(),
                letter: letters[i] as u64,
                position: i + 1,
                d: self.d,
                k: self.k,
            });
        }
        if let Some(i) = letters.windows(2).position(|w| w[0] == w[1]) {
            return Err(KautzError::EqualNeighbours {
                word: shown(),
                letter: letters[i],
                position: i + 1,
            });
        }
        Ok(())
    }

    /// The conventional spelling: plain digits when d <= 9, comma-separated otherwise.
    pub fn format_letters(&self, letters: &[Letter]) -> String {
        let parts: Vec<String> = letters.iter().map(|a| a.to_string()).collect();
        parts.join(if self.d <= 9 { "" } else { "," })
    }

    /// Lexicographic rank of a node word: first letter one of d+1, every other one of d.
    pub fn index_of(&self, word: &[Letter]) -> usize {
        let mut index = word[0] as usize;
        for pair in word.windows(2) {
            let skipped = usize::from(pair[1] > pair[0]);
            index = index * self.d + pair[1] as usize - skipped;
        }
        index
    }

    /// The node of lexicographic rank `index` (inverse of [`Kautz::index_of`]).
    pub fn word_at(&self, mut index: usize) -> Word {
        let mut ranks = vec![0usize; self.k];
        for slot in ranks.iter_mut().skip(1).rev() {
            *slot = index % self.d;
            index /= self.d;
        }
        ranks[0] = index;
        let mut letters = Vec::with_capacity(self.k);
        letters.push(ranks[0] as Letter);
        for &rank in &ranks[1..] {
            let previous = *letters.last().expect("first letter pushed") as usize;
            letters.push((rank + usize::from(rank >= previous)) as Letter);
        }
        Word(letters)
    }

    /// Every node in lexicographic order; the graph must be enumerable.
    pub fn words(&self) -> Result<impl Iterator<Item = Word> + '_, KautzError> {
        let n = self.enumerable_node_count()?;
        Ok((0..n).map(|i| self.word_at(i)))
    }

    /// Out-neighbours `(a2..ak, z)` with `z != ak`, by increasing `z`.
    pub fn out_neighbours<'a>(&self, word: &'a [Letter]) -> impl Iterator<Item = Word> + 'a {
        let last = word[word.len() - 1];
        (0..=self.d as Letter)
            .filter(move |&z| z != last)
            .map(move |z| {
                let mut next = word[1..].to_vec();
                next.push(z);
                Word(next)
            })
    }

    /// In-neighbours `(z, b1..b(k-1))` with `z != b1`, by increasing `z`: the nodes whose
    /// out-neighbours include `word` (the in-letters z of the used in-node register of the
    /// route-generator paper, Smit et al. 1991).
    pub fn in_neighbours<'a>(&self, word: &'a [Letter]) -> impl Iterator<Item = Word> + 'a {
        let first = word[0];
        (0..=self.d as Letter)
            .filter(move |&z| z != first)
            .map(move |z| {
                let mut previous = Vec::with_capacity(word.len());
                previous.push(z);
                previous.extend_from_slice(&word[..word.len() - 1]);
                Word(previous)
            })
    }

    /// The whole graph, nodes numbered by [`Kautz::index_of`], out-arcs by increasing letter.
    pub fn digraph(&self) -> Result<Digraph, KautzError> {
        let n = self.enumerable_node_count()?;
        Ok(Digraph::from_fn(n, |v| {
            let word = self.word_at(v);
            self.out_neighbours(word.letters())
                .map(|w| self.index_of(w.letters()))
                .collect::<Vec<_>>()
        }))
    }
}

impl fmt::Display for Kautz {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "K({},{})", self.d, self.k)
    }
}

impl KautzError {
    /// Shows the word as the user typed it rather than as it was re-spelt.
    fn with_text(mut self, text: &str) -> Self {
        match &mut self {
            KautzError::WordLength { word, .. }
            | KautzError::LetterRange { word, .. }
            | KautzError::EqualNeighbours { word, .. } => *word = text.to_string(),
            _ => {}
        }
        self
    }
}

/// A node word that has been checked against its graph.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Word(Vec<Letter>);

impl Word {
    pub fn letters(&self) -> &[Letter] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_counts_match_table_1_of_the_route_generator_paper() {
        for (d, k, n) in [
            (4, 4, 320),
            (2, 3, 12),
            (4, 5, 1280),
            (3, 6, 972),
            (8, 4, 4608),
        ] {
            assert_eq!(
                Kautz::new(d, k).unwrap().node_count(),
                Some(n),
                "K({d},{k})"
            );
        }
        // Table 1 lists "d=k=4: 24" and "d=k=8: 81920"; those are K(2,4)=24 and K(4,8)=81920
        // under its own note that degrees in the table count in- and out-links together.
        assert_eq!(Kautz::new(2, 4).unwrap().node_count(), Some(24));
        assert_eq!(Kautz::new(4, 8).unwrap().node_count(), Some(81920));
        assert_eq!(Kautz::new(255, 64).unwrap().node_count(), None);
    }

    #[test]
    fn ranks_are_lexicographic_and_invertible() {
        for (d, k) in [(1, 1), (1, 4), (2, 3), (3, 3), (4, 2)] {
            let g = Kautz::new(d, k).unwrap();
            let words: Vec<Word> = g.words().unwrap().collect();
            assert_eq!(words.len() as u64, g.node_count().unwrap());
            let mut sorted = words.clone();
            sorted.sort();
            assert_eq!(words, sorted, "K({d},{k}) not in lexicographic order");
            for (i, w) in words.iter().enumerate() {
                assert_eq!(g.check_letters(w.letters()), Ok(()));
                assert_eq!(g.index_of(w.letters()), i);
            }
        }
    }

    #[test]
    fn every_word_over_the_alphabet_is_counted_once() {
        // Brute force: all (d+1)^k strings, keep those without equal neighbours.
        let g = Kautz::new(3, 4).unwrap();
        let mut brute = Vec::new();
        for code in 0..4u32.pow(4) {
            let letters: Vec<Letter> = (0..4)
                .rev()
                .map(|i| (code / 4u32.pow(i) % 4) as Letter)
                .collect();
            if letters.windows(2).all(|w| w[0] != w[1]) {
                brute.push(Word(letters));
            }
        }
        assert_eq!(g.words().unwrap().collect::<Vec<_>>(), brute);
    }

    #[test]
    fn digraph_is_d_regular_with_diameter_k() {
        for (d, k) in [(1, 2), (1, 5), (2, 3), (3, 3), (2, 4)] {
            let g = Kautz::new(d, k).unwrap();
            let graph = g.digraph().unwrap();
            let mut in_degree = vec![0; graph.node_count()];
            for (u, v) in graph.arcs() {
                assert_ne!(u, v, "Kautz graphs have no self-loops");
                in_degree[v] += 1;
            }
            assert!(in_degree.iter().all(|&x| x == d as usize));
            // In-neighbours are exactly the tails of the arcs into a node.
            for v in 0..graph.node_count() {
                let mut tails: Vec<usize> = graph
                    .arcs()
                    .filter(|&(_, head)| head == v)
                    .map(|(tail, _)| tail)
                    .collect();
                tails.sort();
                let word = g.word_at(v);
                let listed: Vec<usize> = g
                    .in_neighbours(word.letters())
                    .map(|w| g.index_of(w.letters()))
                    .collect();
                assert!(listed.is_sorted_by_key(|&u| g.word_at(u).letters()[0]));
                let mut listed = listed;
                listed.sort();
                assert_eq!(listed, tails, "K({d},{k}) node {v}");
            }
            assert!((0..graph.node_count()).all(|v| graph.out(v).len() == d as usize));
            // K(1,k) is the 2-cycle 0101.. <-> 1010..: its diameter is 1, not k.
            let diameter = if d == 1 { 1 } else { k as usize };
            assert_eq!(graph.diameter(), Some(diameter), "K({d},{k})");
        }
    }

    #[test]
    fn parses_both_spellings() {
        let g = Kautz::new(4, 5).unwrap();
        let w = g.parse_word("01234").unwrap();
        assert_eq!(w.letters(), &[0, 1, 2, 3, 4]);
        assert_eq!(g.parse_word("0, 1,2,3,4").unwrap(), w);
        assert_eq!(g.format_letters(w.letters()), "01234");
        let wide = Kautz::new(12, 3).unwrap();
        assert_eq!(wide.parse_word("11,0,12").unwrap().letters(), &[11, 0, 12]);
        assert_eq!(wide.format_letters(&[11, 0, 12]), "11,0,12");
    }

    #[test]
    fn bad_words_say_what_is_wrong() {
        let g = Kautz::new(4, 5).unwrap();
        let message = |text: &str| g.parse_word(text).unwrap_err().to_string();
        assert_eq!(
            message("01254"),
            "node word '01254': letter 5 at position 4 is out of range; K(4,5) uses letters 0 to 4"
        );
        assert_eq!(
            message("01134"),
            "node word '01134': letters 2 and 3 are both 1; neighbouring letters of a Kautz word must differ"
        );
        assert_eq!(
            message("0123"),
            "node word '0123' has 4 letters, but nodes of K(4,5) have 5"
        );
        assert_eq!(
            message("0,1,x,3,4"),
            "node word '0,1,x,3,4': 'x' is not a letter (write letters as numbers, e.g. 0,1,2)"
        );
        assert_eq!(
            Kautz::new(12, 3)
                .unwrap()
                .parse_word("1,300,2")
                .unwrap_err()
                .to_string(),
            "node word '1,300,2': letter 300 at position 2 is out of range; K(12,3) uses letters 0 to 12"
        );
    }

    #[test]
    fn bad_parameters_say_what_is_allowed() {
        assert_eq!(
            Kautz::new(0, 3).unwrap_err().to_string(),
            "K(d,k) needs 1 <= d <= 255, got d = 0"
        );
        assert_eq!(
            Kautz::new(256, 3).unwrap_err().to_string(),
            "K(d,k) needs 1 <= d <= 255, got d = 256"
        );
        assert_eq!(
            Kautz::new(2, 65).unwrap_err().to_string(),
            "K(d,k) needs 1 <= k <= 64, got k = 65"
        );
        assert_eq!(
            Kautz::new(255, 64)
                .unwrap()
                .digraph()
                .unwrap_err()
                .to_string(),
            "K(255,64) has 255^64 + 255^63 nodes, more than the 16777216 that can be enumerated"
        );
    }
}
