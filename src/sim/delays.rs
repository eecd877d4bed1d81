//! The delays of the wires between self-timed switches in a simulation: drawn from a seed
//! inside documented ranges, or read from a file, and checked against the bundled-data
//! condition the design needs (docs/switch.md).
//!
//! Every network link from switch u (its out-port j) to switch v (its in-port i) has four
//! wires, each named by the port that receives it: the words (`v.in<i>_data`, the valid,
//! type and data bits together) and u's clock (`v.in<i>_cl`) forward, and the NACK
//! (`u.out<j>_nack`) and v's clock (`u.out<j>_cla`) back. The clock wires may have any
//! positive delays; the words must arrive strictly before the clock they travel with, and
//! the NACK before `cla`.

use crate::random::SplitMix64;
use std::collections::BTreeMap;
use thiserror::Error;

/// What a wire carries, which sets the range its delay is drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireKind {
    Data,
    Cl,
    Nack,
    Cla,
}

impl WireKind {
    /// The range a drawn delay lies in, in picoseconds, both ends included: words 1.0 to
    /// 3.5 ns, `cl` 4.0 to 11.5 ns, NACK 0.5 to 2.0 ns, `cla` 3.0 to 10.5 ns. Every word
    /// and NACK is then faster than any clock wire, so drawn delays always meet the
    /// bundled-data condition.
    pub fn range_ps(self) -> (u32, u32) {
        match self {
            WireKind::Data => (1_000, 3_500),
            WireKind::Cl => (4_000, 11_500),
            WireKind::Nack => (500, 2_000),
            WireKind::Cla => (3_000, 10_500),
        }
    }
}

/// The names of one link's four wires: the words and the clock forward, the NACK and the
/// receiver's clock back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkWires {
    pub data: String,
    pub cl: String,
    pub nack: String,
    pub cla: String,
}

impl LinkWires {
    /// The wires of the link from `from`'s out-port `out` to `to`'s in-port `input`, the
    /// switches named `from` and `to`.
    pub fn new(from: &str, out: usize, to: &str, input: usize) -> Self {
        LinkWires {
            data: format!("{to}.in{input}_data"),
            cl: format!("{to}.in{input}_cl"),
            nack: format!("{from}.out{out}_nack"),
            cla: format!("{from}.out{out}_cla"),
        }
    }

    fn wires(&self) -> [(&str, WireKind); 4] {
        [
            (&self.data, WireKind::Data),
            (&self.cl, WireKind::Cl),
            (&self.nack, WireKind::Nack),
            (&self.cla, WireKind::Cla),
        ]
    }
}

/// Why a delays file is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DelayError {
    #[error("line {line}: expected a wire and its delay in ns, as `s1.in2_cl 7.0`, got `{text}`")]
    Malformed { line: usize, text: String },
    #[error(
        "line {line}: no wire `{name}` here; wires are named by the port that receives them, e.g. `{example}`"
    )]
    UnknownWire {
        line: usize,
        name: String,
        example: String,
    },
    #[error("line {line}: `{name}` needs a delay above 0 ns, in steps of 1 ps, got `{text}`")]
    BadDelay {
        line: usize,
        name: String,
        text: String,
    },
    #[error("line {line}: `{name}` is given a second time")]
    Repeated { line: usize, name: String },
    #[error(
        "{data} ({data_ns} ns) must arrive before the clock it travels with, {clock} ({clock_ns} ns)"
    )]
    Unbundled {
        data: String,
        data_ns: String,
        clock: String,
        clock_ns: String,
    },
}

/// Where the wires' delays come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DelaySource {
    /// Drawn from the run's seed inside the documented ranges.
    Drawn,
    /// A delays file's text ([`Delays::parse`]).
    File(String),
}

/// Added to the run's seed for the delays' draw, so that they are not drawn from the same
/// stream as the traffic.
const DELAY_STREAM: u64 = 0x6465_6c61_7973;

impl DelaySource {
    /// The delay of every wire of `links`, drawn from `seed` or read.
    pub fn delays(&self, links: &[LinkWires], seed: u64) -> Result<Delays, DelayError> {
        match self {
            DelaySource::Drawn => Ok(Delays::drawn(links, seed.wrapping_add(DELAY_STREAM))),
            DelaySource::File(text) => Delays::parse(text, links),
        }
    }

    /// "wire delays drawn from the seed" or "wire delays from a file".
    pub fn describe(&self) -> &'static str {
        match self {
            DelaySource::Drawn => "wire delays drawn from the seed",
            DelaySource::File(_) => "wire delays from a file",
        }
    }
}

/// The delay of every wire of a set of links, in picoseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delays {
    ps: BTreeMap<String, u32>,
}

impl Delays {
    /// Every wire's delay drawn from `seed`, uniformly inside its kind's range, link by link
    /// in the order given.
    pub fn drawn(links: &[LinkWires], seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut ps = BTreeMap::new();
        for link in links {
            for (name, kind) in link.wires() {
                let (low, high) = kind.range_ps();
                let delay = low + rng.below(u64::from(high - low) + 1) as u32;
                ps.insert(name.to_string(), delay);
            }
        }
        Delays { ps }
    }

    /// The delays of a file: one wire a line, its name and its delay in ns (`s1.in2_cl
    /// 7.0`); blank lines and `#` comments are skipped. A wire it does not name takes the
    /// low end of its kind's range.
    pub fn parse(text: &str, links: &[LinkWires]) -> Result<Self, DelayError> {
        let mut ps: BTreeMap<String, u32> = links
            .iter()
            .flat_map(|link| link.wires())
            .map(|(name, kind)| (name.to_string(), kind.range_ps().0))
            .collect();
        let mut given = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let fields: Vec<&str> = content.split_whitespace().collect();
            let [name, delay] = fields[..] else {
                return Err(DelayError::Malformed {
                    line,
                    text: raw.trim().to_string(),
                });
            };
            if !ps.contains_key(name) {
                return Err(DelayError::UnknownWire {
                    line,
                    name: name.to_string(),
                    example: links.first().map(|l| l.cl.clone()).unwrap_or_default(),
                });
            }
            if given.contains(&name) {
                return Err(DelayError::Repeated {
                    line,
                    name: name.to_string(),
                });
            }
            given.push(name);
            let value = parse_ps(delay).ok_or_else(|| DelayError::BadDelay {
                line,
                name: name.to_string(),
                text: delay.to_string(),
            })?;
            ps.insert(name.to_string(), value);
        }
        let delays = Delays { ps };
        delays.check_bundles(links)?;
        Ok(delays)
    }

    /// The words of every link arrive before its `cl`, its NACK before its `cla`.
    fn check_bundles(&self, links: &[LinkWires]) -> Result<(), DelayError> {
        for link in links {
            for (data, clock) in [(&link.data, &link.cl), (&link.nack, &link.cla)] {
                if self.ps[data] >= self.ps[clock] {
                    return Err(DelayError::Unbundled {
                        data: data.clone(),
                        data_ns: ns(self.ps[data]),
                        clock: clock.clone(),
                        clock_ns: ns(self.ps[clock]),
                    });
                }
            }
        }
        Ok(())
    }

    /// The delay of wire `name`, in picoseconds.
    pub fn ps(&self, name: &str) -> u32 {
        self.ps[name]
    }
}

/// Picoseconds as nanoseconds with three decimals: "7.000".
pub fn ns(ps: u32) -> String {
    format!("{}.{:03}", ps / 1000, ps % 1000)
}

/// "7", "7.0", "7.25" or "0.001" ns as picoseconds; `None` unless above 0 and a whole
/// number of picoseconds.
fn parse_ps(text: &str) -> Option<u32> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && fraction.is_empty()
        || fraction.len() > 3
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let fraction: u32 = format!("{fraction:0<3}").parse().ok()?;
    let ps = whole.checked_mul(1000)?.checked_add(fraction)?;
    (ps > 0).then_some(ps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> Vec<LinkWires> {
        vec![LinkWires::new("s2", 2, "s1", 2)]
    }

    #[test]
    fn links_name_their_wires_by_the_receiving_port() {
        assert_eq!(
            link()[0],
            LinkWires {
                data: "s1.in2_data".into(),
                cl: "s1.in2_cl".into(),
                nack: "s2.out2_nack".into(),
                cla: "s2.out2_cla".into(),
            }
        );
    }

    #[test]
    fn delays_are_read_in_nanoseconds_to_the_picosecond() {
        let cases = [
            ("7", Some(7_000)),
            ("7.0", Some(7_000)),
            ("7.25", Some(7_250)),
            (".5", Some(500)),
            ("0.001", Some(1)),
            ("0", None),
            ("0.0001", None),
            ("-1", None),
            ("1e3", None),
            (".", None),
            ("", None),
        ];
        for (text, ps) in cases {
            assert_eq!(parse_ps(text), ps, "{text}");
        }
    }

    #[test]
    fn a_file_sets_what_it_names_and_leaves_the_rest_at_the_low_end() {
        let delays = Delays::parse("# the slow clock\ns1.in2_cl 7.0\n\n", &link()).unwrap();
        let wires = ["s1.in2_cl", "s1.in2_data", "s2.out2_cla", "s2.out2_nack"];
        assert_eq!(wires.map(|w| delays.ps(w)), [7_000, 1_000, 3_000, 500]);
    }

    #[test]
    fn a_file_is_refused_line_by_line() {
        let cases = [
            (
                "s1.in2_cl",
                "line 1: expected a wire and its delay in ns, as `s1.in2_cl 7.0`, got `s1.in2_cl`",
            ),
            (
                "\ns9.in1_cl 4",
                "line 2: no wire `s9.in1_cl` here; wires are named by the port that receives them, e.g. `s1.in2_cl`",
            ),
            (
                "s1.in2_cl 0",
                "line 1: `s1.in2_cl` needs a delay above 0 ns, in steps of 1 ps, got `0`",
            ),
            (
                "s1.in2_cl 5\ns1.in2_cl 6",
                "line 2: `s1.in2_cl` is given a second time",
            ),
            (
                "s1.in2_data 4.0",
                "s1.in2_data (4.000 ns) must arrive before the clock it travels with, s1.in2_cl (4.000 ns)",
            ),
            (
                "s2.out2_cla 0.5",
                "s2.out2_nack (0.500 ns) must arrive before the clock it travels with, s2.out2_cla (0.500 ns)",
            ),
        ];
        for (text, message) in cases {
            let error = Delays::parse(text, &link()).unwrap_err();
            assert_eq!(error.to_string(), message, "{text}");
        }
    }

    #[test]
    fn drawn_delays_lie_in_their_ranges_and_follow_the_seed() {
        let links: Vec<LinkWires> = (0..50)
            .map(|i| LinkWires::new(&format!("a{i}"), 1, &format!("b{i}"), 1))
            .collect();
        let delays = Delays::drawn(&links, 7);
        for link in &links {
            for (name, kind) in link.wires() {
                let (low, high) = kind.range_ps();
                assert!((low..=high).contains(&delays.ps(name)), "{name}");
            }
        }
        assert_eq!(delays, Delays::drawn(&links, 7));
        assert_ne!(delays, Delays::drawn(&links, 8));
        assert!(delays.check_bundles(&links).is_ok());
    }
}
