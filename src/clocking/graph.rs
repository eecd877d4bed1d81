//! The clock graph of a network of self-timed switches: every link from switch u to switch
//! v carries two clock wires, `cl` (u's clock, seen at v) and `cla` (v's clock, seen at u),
//! so each switch sees the clock of every neighbour, once per wire.

use crate::topology::kautz::{Kautz, KautzError};

/// One clock wire: the clock of switch `from`, seen at switch `to`, named for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockWire {
    pub from: usize,
    pub to: usize,
    pub name: String,
}

/// The switches of a network and the clock wires between them.
#[derive(Debug, Clone)]
pub struct ClockGraph {
    name: String,
    switches: usize,
    wires: Vec<ClockWire>,
}

/// One link, from switch `from` to switch `to`, with the names of its two clock wires.
pub struct Link {
    pub from: usize,
    pub to: usize,
    pub cl: String,
    pub cla: String,
}

impl ClockGraph {
    /// The graph of `links` among `switches` switches, called `name`.
    pub fn from_links(name: &str, switches: usize, links: impl IntoIterator<Item = Link>) -> Self {
        let mut wires = Vec::new();
        for link in links {
            assert!(link.from < switches && link.to < switches && link.from != link.to);
            wires.push(ClockWire {
                from: link.from,
                to: link.to,
                name: link.cl,
            });
            wires.push(ClockWire {
                from: link.to,
                to: link.from,
                name: link.cla,
            });
        }
        ClockGraph {
            name: name.to_string(),
            switches,
            wires,
        }
    }

    /// The bidirectional ring of three switches that `verify switch --clocking self-timed`
    /// runs: switch s sends on its link 1 to s+1 and on its link 2 to s-1. Wires are named
    /// by the port that receives them: `s1.in2_cl`, `s1.out1_cla`.
    pub fn ring() -> Self {
        let links = (0..3).flat_map(|s| {
            [(1, (s + 1) % 3), (2, (s + 2) % 3)].map(|(j, to)| Link {
                from: s,
                to,
                cl: format!("s{to}.in{j}_cl"),
                cla: format!("s{s}.out{j}_cla"),
            })
        });
        ClockGraph::from_links("the ring of three switches", 3, links)
    }

    /// The clock graph of the Kautz network K(d,k): a link for every arc, wires named by
    /// the arc's words (`cl 01->12`, `cla 01->12`).
    pub fn kautz(d: u64, k: u64) -> Result<Self, KautzError> {
        let kautz = Kautz::new(d, k)?;
        let digraph = kautz.digraph()?;
        let word = |i: usize| kautz.format_letters(kautz.word_at(i).letters());
        let links = digraph.arcs().map(|(u, v)| {
            let arc = format!("{}->{}", word(u), word(v));
            Link {
                from: u,
                to: v,
                cl: format!("cl {arc}"),
                cla: format!("cla {arc}"),
            }
        });
        Ok(ClockGraph::from_links(
            &format!("K({d},{k})"),
            digraph.node_count(),
            links.collect::<Vec<_>>(),
        ))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn switches(&self) -> usize {
        self.switches
    }

    pub fn wires(&self) -> &[ClockWire] {
        &self.wires
    }

    /// The wires into switch `s`, by index, in the order of [`Self::wires`].
    pub fn inputs(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.wires.len()).filter(move |&w| self.wires[w].to == s)
    }

    /// The wires that carry switch `s`'s clock, by index.
    pub fn outputs(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.wires.len()).filter(move |&w| self.wires[w].from == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_sees_each_neighbour_twice() {
        let ring = ClockGraph::ring();
        assert_eq!(ring.wires().len(), 12);
        let into_1: Vec<(&str, usize)> = ring
            .inputs(1)
            .map(|w| (ring.wires()[w].name.as_str(), ring.wires()[w].from))
            .collect();
        assert_eq!(
            into_1,
            [
                ("s1.in1_cl", 0),
                ("s1.out1_cla", 2),
                ("s1.out2_cla", 0),
                ("s1.in2_cl", 2)
            ]
        );
    }

    #[test]
    fn k22_has_a_link_per_arc() {
        let k22 = ClockGraph::kautz(2, 2).unwrap();
        assert_eq!((k22.switches(), k22.wires().len()), (6, 24));
        assert_eq!(k22.wires()[0].name, "cl 01->10");
        assert_eq!(k22.inputs(0).count(), 4);
    }
}
