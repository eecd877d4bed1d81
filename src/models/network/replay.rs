//! Trace-driven traffic: messages read from a text file and replayed at their cycles, their
//! dependencies ignored (docs/network.md, "Traffic from a file"). One message a line:
//! `CYCLE SOURCE DESTINATION BYTES`, the nodes named as the topology names them; blank
//! lines and `#` comments are skipped.

use super::plan::Plan;
use thiserror::Error;

/// One message of a trace: (cycle, source, destination, bytes), nodes by index.
pub type Replayed = (u64, u32, u32, u8);

/// Why a trace cannot be replayed, with its line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {why}")]
pub struct ReplayError {
    pub line: usize,
    pub why: String,
}

/// The messages of trace `text` on `plan`'s network, in the order listed, each with its
/// line number.
pub fn read_trace(text: &str, plan: &dyn Plan) -> Result<Vec<(usize, Replayed)>, ReplayError> {
    let mut messages = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fail = |why: String| ReplayError { line: i + 1, why };
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [cycle, src, dst, bytes] = fields[..] else {
            return Err(fail(format!(
                "'{line}' is not CYCLE SOURCE DESTINATION BYTES"
            )));
        };
        let cycle = cycle
            .parse()
            .map_err(|_| fail(format!("cycle '{cycle}' is not a number")))?;
        let node = |name: &str| {
            plan.parse_node(name)
                .map(|v| v as u32)
                .map_err(|e| fail(e.to_string()))
        };
        let (src, dst) = (node(src)?, node(dst)?);
        let bytes = bytes
            .parse::<u8>()
            .ok()
            .filter(|&b| b > 0)
            .ok_or_else(|| fail(format!("bytes '{bytes}' is not 1 to 255")))?;
        messages.push((i + 1, (cycle, src, dst, bytes)));
    }
    Ok(messages)
}
