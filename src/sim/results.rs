//! The results file a testbench writes, parsed.
//!
//! In: the text of `results.txt`, the same for both testbenches. Per vector, in order:
//!
//! ```text
//! vector <n>                                   n = 0, 1, 2, ... within the batch
//! reset <low>                                  only if the vector pulses rst
//! route <len hex> <route hex> <held> <alone>   once per route_valid
//! done <error> <cycles> <steady>               or: timeout <cycles>
//! ```
//!
//! Flags are `0` or `1`: `low`, every output low after `rst`; `held`, the route stayed valid
//! and unchanged while `next_route` was held low; `alone`, `done` and `error` were low while
//! the route was valid; `steady`, after `done` rose it stayed high, `error` kept its value
//! and `route_valid` stayed low. `cycles` counts the generator's own work (see
//! `docs/verification.md`). Out: one [`Observed`] per vector; a vector cut short by the end
//! of the file ends in [`End::Missing`].

use thiserror::Error;

/// A line the testbenches never write: a testbench or simulator fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("results line {line} is not understood: '{text}'")]
pub struct ResultsError {
    pub line: usize,
    pub text: String,
}

/// What the testbench recorded for one vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// Whether all outputs were low after `rst`; `None` when the vector pulses no `rst`.
    pub reset_low: Option<bool>,
    pub routes: Vec<SeenRoute>,
    pub end: End,
}

/// One route as it appeared on the ports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenRoute {
    /// `route_len` in hexadecimal, lowercase, as printed (it may hold `x` or `u`).
    pub len: String,
    /// `route` in hexadecimal, lowercase, as printed.
    pub route: String,
    pub held: bool,
    pub alone: bool,
}

/// How a vector ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Done {
        error: bool,
        cycles: u64,
        steady: bool,
    },
    /// No `done` after this many cycles of work.
    Timeout { cycles: u64 },
    /// The file ended first: the simulation stopped in the middle of this vector.
    Missing,
}

/// Parses a whole results file.
pub fn parse(text: &str) -> Result<Vec<Observed>, ResultsError> {
    let mut vectors: Vec<Observed> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let bad = || ResultsError {
            line: i + 1,
            text: line.to_string(),
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [] => {}
            ["vector", n] => {
                if open || n.parse::<usize>().ok() != Some(vectors.len()) {
                    return Err(bad());
                }
                vectors.push(Observed {
                    reset_low: None,
                    routes: Vec::new(),
                    end: End::Missing,
                });
                open = true;
            }
            ["reset", low] if open => {
                vectors.last_mut().expect("open").reset_low = Some(flag(low).ok_or_else(bad)?);
            }
            ["route", len, route, held, alone] if open => {
                let seen = SeenRoute {
                    len: len.to_ascii_lowercase(),
                    route: route.to_ascii_lowercase(),
                    held: flag(held).ok_or_else(bad)?,
                    alone: flag(alone).ok_or_else(bad)?,
                };
                vectors.last_mut().expect("open").routes.push(seen);
            }
            ["done", error, cycles, steady] if open => {
                vectors.last_mut().expect("open").end = End::Done {
                    error: flag(error).ok_or_else(bad)?,
                    cycles: cycles.parse().map_err(|_| bad())?,
                    steady: flag(steady).ok_or_else(bad)?,
                };
                open = false;
            }
            ["timeout", cycles] if open => {
                vectors.last_mut().expect("open").end = End::Timeout {
                    cycles: cycles.parse().map_err(|_| bad())?,
                };
                open = false;
            }
            _ => return Err(bad()),
        }
    }
    Ok(vectors)
}

fn flag(text: &str) -> Option<bool> {
    match text {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_of_line() {
        let text = "vector 0\nroute 2 0e00 1 1\nroute 5 2718 0 1\ndone 0 14 1\n\
                    vector 1\nreset 1\nROUTE 7 XXXX 1 0\ntimeout 192\nvector 2\nreset 0\n";
        // ROUTE in capitals is not a line the testbenches write.
        assert_eq!(
            parse(text),
            Err(ResultsError {
                line: 7,
                text: "ROUTE 7 XXXX 1 0".into()
            })
        );
        let text = text.replace("ROUTE", "route");
        let parsed = parse(&text).unwrap();
        assert_eq!(
            parsed,
            vec![
                Observed {
                    reset_low: None,
                    routes: vec![
                        SeenRoute {
                            len: "2".into(),
                            route: "0e00".into(),
                            held: true,
                            alone: true
                        },
                        SeenRoute {
                            len: "5".into(),
                            route: "2718".into(),
                            held: false,
                            alone: true
                        },
                    ],
                    end: End::Done {
                        error: false,
                        cycles: 14,
                        steady: true
                    },
                },
                Observed {
                    reset_low: Some(true),
                    routes: vec![SeenRoute {
                        len: "7".into(),
                        route: "xxxx".into(),
                        held: true,
                        alone: false
                    }],
                    end: End::Timeout { cycles: 192 },
                },
                Observed {
                    reset_low: Some(false),
                    routes: vec![],
                    end: End::Missing,
                },
            ]
        );
    }

    #[test]
    fn refuses_lines_out_of_order() {
        let refused = |text: &str| parse(text).unwrap_err().line;
        assert_eq!(refused("route 2 0e00 1 1\n"), 1);
        assert_eq!(refused("vector 0\nvector 1\n"), 2);
        assert_eq!(refused("vector 1\n"), 1);
        assert_eq!(refused("vector 0\ndone 0 3 1\ndone 0 3 1\n"), 3);
        assert_eq!(refused("vector 0\ndone 2 3 1\n"), 2);
    }
}
