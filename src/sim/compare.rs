//! Judges what a testbench recorded against the golden model.
//!
//! In: each [`Vector`] (with the answer the golden model expects) and the [`Observed`]
//! record of its simulation. Out: a [`Report`] per simulator: vectors passed and failed,
//! the first failures in full (source, destination, stimulus, expected and observed routes,
//! and each thing that is wrong), and the cycles per route set against the bound.
//!
//! A vector passes when its routes match in content and order, each route stayed valid and
//! unchanged while `next_route` was low with `done` and `error` low beside it, `done` came
//! with `error` as expected and stayed, outputs were low after `rst`, and the whole answer
//! took at most the cycle bound.

use crate::sim::results::{End, Observed, SeenRoute};
use crate::sim::vectors::{Expected, Vector, Widths};
use crate::sim::{counted, hex};
use crate::topology::kautz::{Kautz, Letter};
use std::fmt::Write;

/// Collects verdicts vector by vector, keeping only counts and the first failures.
#[derive(Debug, Clone)]
pub struct Checker {
    graph: Kautz,
    widths: Widths,
    shown: usize,
    passed: u64,
    failed: u64,
    failures: Vec<String>,
    cycles: Cycles,
}

/// Cycles of the generator's own work per route set (vectors with a route set that ended
/// in `done`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycles {
    pub route_sets: u64,
    pub total: u64,
    pub max: u64,
    /// The design's bound (faithful: k + 3(d+1) + 4; parallel: 2): taking longer on any
    /// vector fails it.
    pub bound: u64,
}

/// The outcome for one simulator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub simulator: String,
    pub passed: u64,
    pub failed: u64,
    /// The first failures, each rendered in full over several lines.
    pub failures: Vec<String>,
    pub cycles: Cycles,
}

impl Checker {
    /// A checker of a design with cycle bound `bound` that keeps the first `shown`
    /// failures in full.
    pub fn new(graph: &Kautz, bound: u64, shown: usize) -> Self {
        Checker {
            graph: *graph,
            widths: Widths::of(graph),
            shown,
            passed: 0,
            failed: 0,
            failures: Vec::new(),
            cycles: Cycles {
                route_sets: 0,
                total: 0,
                max: 0,
                bound,
            },
        }
    }

    /// Judges one vector; true when it passed.
    pub fn check(&mut self, simulator: &str, vector: &Vector, observed: &Observed) -> bool {
        if let (Expected::Routes(_), End::Done { cycles, .. }) = (&vector.expected, observed.end) {
            self.cycles.route_sets += 1;
            self.cycles.total += cycles;
            self.cycles.max = self.cycles.max.max(cycles);
        }
        let problems = self.problems(vector, observed);
        if problems.is_empty() {
            self.passed += 1;
            return true;
        }
        self.failed += 1;
        if self.failures.len() < self.shown {
            let failure = self.render_failure(simulator, vector, observed, &problems);
            self.failures.push(failure);
        }
        false
    }

    pub fn finish(self, simulator: &str) -> Report {
        Report {
            simulator: simulator.to_string(),
            passed: self.passed,
            failed: self.failed,
            failures: self.failures,
            cycles: self.cycles,
        }
    }

    fn problems(&self, vector: &Vector, observed: &Observed) -> Vec<String> {
        let mut problems = Vec::new();
        if observed.reset_low == Some(false) {
            problems.push("outputs not all low after rst".to_string());
        }
        let expected: &[Vec<Letter>] = match &vector.expected {
            Expected::Routes(routes) => routes,
            Expected::Error => &[],
        };
        let got: Vec<Option<Vec<Letter>>> =
            observed.routes.iter().map(|r| self.decode(r)).collect();
        let first_wrong = got
            .iter()
            .zip(expected)
            .position(|(got, want)| got.as_ref() != Some(want));
        match first_wrong {
            Some(i) => problems.push(format!(
                "route {} is {}, expected {}",
                i + 1,
                self.show_seen(&observed.routes[i]),
                self.show(&expected[i])
            )),
            None if got.len() != expected.len() => problems.push(format!(
                "{}, expected {}",
                counted(got.len() as u64, "route"),
                expected.len()
            )),
            None => {}
        }
        for (i, seen) in observed.routes.iter().enumerate() {
            if !seen.held {
                problems.push(format!(
                    "route {} changed or dropped while next_route was low",
                    i + 1
                ));
            }
            if !seen.alone {
                problems.push(format!(
                    "done or error high while route {} was valid",
                    i + 1
                ));
            }
        }
        let error_expected = vector.expected == Expected::Error;
        match observed.end {
            End::Done {
                error,
                cycles,
                steady,
            } => {
                if error != error_expected {
                    problems.push(match error {
                        true => "error high, expected low".to_string(),
                        false => "error low, expected high".to_string(),
                    });
                }
                if !steady {
                    problems.push(
                        "after done: done fell, error changed or route_valid rose".to_string(),
                    );
                }
                if cycles > self.cycles.bound {
                    problems.push(format!(
                        "{cycles} cycles, more than the bound of {}",
                        self.cycles.bound
                    ));
                }
            }
            End::Timeout { cycles } => problems.push(format!("no done within {cycles} cycles")),
            End::Missing => {
                problems.push("the simulation stopped before this vector ended".to_string())
            }
        }
        problems
    }

    /// The hops of a route seen on the ports: `route_len` letters from the top of `route`,
    /// every letter below them zero. `None` when the ports hold anything else.
    fn decode(&self, seen: &SeenRoute) -> Option<Vec<Letter>> {
        let slots = self.widths.k + 2;
        if seen.len.len() != hex::digits(self.widths.len) {
            return None;
        }
        let len = usize::from_str_radix(&seen.len, 16).ok()?;
        let letters = hex::decode(&seen.route, self.widths.letter, slots)?;
        if len > slots || letters[len..].iter().any(|&a| a != 0) {
            return None;
        }
        Some(letters[..len].to_vec())
    }

    fn show(&self, hops: &[Letter]) -> String {
        format!("[{}]", self.graph.format_letters(hops))
    }

    fn show_seen(&self, seen: &SeenRoute) -> String {
        match self.decode(seen) {
            Some(hops) => self.show(&hops),
            None => format!("[route_len {}, route {}]", seen.len, seen.route),
        }
    }

    fn render_failure(
        &self,
        simulator: &str,
        vector: &Vector,
        observed: &Observed,
        problems: &[String],
    ) -> String {
        let g = &self.graph;
        let s = &vector.stimulus;
        let mut how = Vec::new();
        if s.delay > 0 {
            how.push(format!("hold {}", s.delay));
        }
        if s.nudge {
            how.push("next_route nudged".to_string());
        }
        if s.lead > 0 {
            how.push(format!("lead-in {}", s.lead));
        }
        if s.reset {
            how.push("rst".to_string());
        }
        let how = match how.is_empty() {
            true => String::new(),
            false => format!(" ({})", how.join(", ")),
        };
        let mut expected: Vec<String> = match &vector.expected {
            Expected::Routes(routes) => routes.iter().map(|r| self.show(r)).collect(),
            Expected::Error => Vec::new(),
        };
        expected.push(match vector.expected {
            Expected::Routes(_) => "done".to_string(),
            Expected::Error => "error".to_string(),
        });
        let mut got: Vec<String> = observed.routes.iter().map(|r| self.show_seen(r)).collect();
        got.push(match observed.end {
            End::Done {
                error: false,
                cycles,
                ..
            } => format!("done after {cycles} cycles"),
            End::Done {
                error: true,
                cycles,
                ..
            } => format!("error after {cycles} cycles"),
            End::Timeout { cycles } => format!("timeout after {cycles} cycles"),
            End::Missing => "(simulation stopped)".to_string(),
        });
        let mut text = format!(
            "{simulator}: vector {}: src {} dst {}{how}\n  expected: {}\n  got:      {}\n",
            vector.position,
            g.format_letters(&vector.src),
            g.format_letters(&vector.dst),
            expected.join(" "),
            got.join(" "),
        );
        for problem in problems {
            writeln!(text, "  - {problem}").expect("writing to a String");
        }
        text
    }
}

impl Report {
    /// The report as printed: the failures kept, the cycle figures, and last the line
    /// `<simulator>: N passed, M failed`.
    pub fn render(&self) -> String {
        let name = &self.simulator;
        let mut text: String = self.failures.concat();
        let hidden = self.failed - self.failures.len() as u64;
        if hidden > 0 {
            let more = counted(hidden, "more failure");
            writeln!(text, "{name}: {more} not shown").expect("String");
        }
        let c = &self.cycles;
        match c.route_sets {
            0 => writeln!(
                text,
                "{name}: cycles per route set: none finished (bound {})",
                c.bound
            ),
            n => writeln!(
                text,
                "{name}: cycles per route set: mean {:.1}, max {} (bound {})",
                c.total as f64 / n as f64,
                c.max,
                c.bound
            ),
        }
        .expect("String");
        writeln!(
            text,
            "{name}: {} passed, {} failed",
            self.passed, self.failed
        )
        .expect("String");
        text
    }

    pub fn all_passed(&self) -> bool {
        self.failed == 0
    }
}
