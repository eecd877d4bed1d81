//! What checking one vector found in one simulator ([`Outcome`]), for the checks whose
//! vectors are independent (function and sequence units): a run gives each vector's
//! outcome, and the report is made from them, so that the vectors run in any shards
//! (`verify --shard`) and the shards' outcomes give the report of the whole run
//! (`kautzgen merge`).
//!
//! In: each vector's verdict, described in full while fewer than `shown` have failed
//! ([`Describing`]). Out: the outcomes, in the vectors' order.

use serde::{Deserialize, Serialize};

/// One vector's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub passed: bool,
    /// A failure in full, kept for the first failures of a run, which reports show: the
    /// first failures of a whole run are among the first of each of its shards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// The cycles of work of a sequence that reached its end (sequence units).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles: Option<u64>,
}

impl Outcome {
    /// The failure's text as a report shows it; a failure that a part kept no text for (a
    /// part that was not written by a run of the same check) says so.
    pub fn failure_text(&self) -> String {
        self.failure
            .clone()
            .unwrap_or_else(|| "a failure that its part does not describe".to_string())
    }
}

/// Judges vectors in order, describing failures in full while fewer than `shown` have
/// failed.
#[derive(Debug, Clone, Copy)]
pub struct Describing {
    shown: usize,
    failed: usize,
}

impl Describing {
    pub fn first(shown: usize) -> Self {
        Describing { shown, failed: 0 }
    }

    /// The outcome of a vector that `passed` or failed, `describe` giving its failure in
    /// full when it is among the first `shown` failures, with its `cycles` of work.
    pub fn outcome(
        &mut self,
        passed: bool,
        describe: impl FnOnce() -> String,
        cycles: Option<u64>,
    ) -> Outcome {
        let failure = match passed {
            true => None,
            false => {
                self.failed += 1;
                (self.failed <= self.shown).then(describe)
            }
        };
        Outcome {
            passed,
            failure,
            cycles,
        }
    }
}
