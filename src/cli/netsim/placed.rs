//! Messages placed by hand: `--message SRC:DST` at cycle 0, and the messages of
//! `--traffic-file`, a text trace or a Netrace trace (docs/network.md, "Traffic from a
//! file"), each named for its errors.

use crate::cli::input_error;
use crate::network::net::NetParams;
use crate::network::netrace::{self, NetraceHeader};
use crate::network::replay::{Replayed, read_trace};
use std::io::{BufReader, Read};
use std::path::Path;

/// A message placed by hand, with the name its errors give (none for `--message`).
pub(super) type Placed = (Option<String>, Replayed);

/// What `--traffic-file` held: its messages, each named for its errors, and for a Netrace
/// trace what the output says of it.
pub(super) struct TrafficFile {
    pub messages: Vec<Placed>,
    pub netrace: Option<NetraceNote>,
}

/// What netsim's output says of a Netrace trace it replayed: its header, and its packets
/// from a node to itself, which are not replayed.
#[derive(Debug, serde::Serialize)]
pub(super) struct NetraceNote {
    #[serde(flatten)]
    pub header: NetraceHeader,
    pub to_self: u64,
}

impl NetraceNote {
    /// The unit of each of its numbers in JSON.
    pub const UNITS: [(&str, &str); 4] = [
        ("nodes", "nodes"),
        ("cycles", "cycles"),
        ("packets", "packets"),
        ("to_self", "packets"),
    ];
}

/// The messages of the trace at `path` on `params`'s network: a Netrace trace if it starts
/// with Netrace's magic number, a text trace otherwise, either of them bzip2-compressed.
pub(super) fn traffic_file(path: &Path, params: &NetParams) -> anyhow::Result<TrafficFile> {
    let cannot_read =
        |e: std::io::Error| input_error(anyhow::anyhow!("cannot read {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(cannot_read)?;
    let mut input = netrace::unpacked(BufReader::new(file)).map_err(cannot_read)?;
    if netrace::is_netrace(&mut input).map_err(cannot_read)? {
        return netrace_file(path, input, params);
    }
    let mut text = String::new();
    input.read_to_string(&mut text).map_err(cannot_read)?;
    let messages = read_trace(&text, params.plan.as_ref())
        .map_err(|e| input_error(anyhow::anyhow!("{}: {e}", path.display())))?;
    let messages = messages
        .into_iter()
        .map(|(line, m)| (Some(format!("{}: line {line}", path.display())), m))
        .collect();
    Ok(TrafficFile {
        messages,
        netrace: None,
    })
}

/// The messages of the Netrace trace `input` read from `path`, each named by its packet id.
fn netrace_file(path: &Path, input: impl Read, params: &NetParams) -> anyhow::Result<TrafficFile> {
    let fail = |e: anyhow::Error| input_error(anyhow::anyhow!("{}: {e}", path.display()));
    let trace =
        netrace::read_netrace(input, params.plan.node_count()).map_err(|e| fail(e.into()))?;
    // Checked for the whole trace, not message by message as the network does, so that the
    // error names the option to raise: Netrace's packets are of 8 and 72 bytes.
    let longest = trace.messages.iter().map(|m| m.1.3).max().unwrap_or(0);
    if longest > params.max_bytes {
        return Err(fail(anyhow::anyhow!(
            "its packets of {longest} bytes are longer than --max-bytes {}: give --max-bytes {longest}",
            params.max_bytes
        )));
    }
    let messages = trace
        .messages
        .into_iter()
        .map(|(id, m)| (Some(format!("{}: netrace packet {id}", path.display())), m))
        .collect();
    Ok(TrafficFile {
        messages,
        netrace: Some(NetraceNote {
            header: trace.header,
            to_self: trace.to_self,
        }),
    })
}

/// The messages of `--message SRC:DST`, made at cycle 0 with the message bytes, which must
/// then be one number.
pub(super) fn placed(texts: &[String], params: &NetParams) -> anyhow::Result<Vec<Placed>> {
    let bytes = &params.traffic.bytes;
    if !texts.is_empty() && bytes.start() != bytes.end() {
        anyhow::bail!("--message needs --message-bytes N, one length, not a range");
    }
    let plan = params.plan.as_ref();
    texts
        .iter()
        .map(|text| {
            let (src, dst) = text
                .rsplit_once(':')
                .ok_or_else(|| anyhow::anyhow!("message '{text}' is not SRC:DST"))?;
            let (src, dst) = (plan.parse_node(src)?, plan.parse_node(dst)?);
            let message = (0, src as u32, dst as u32, *bytes.start());
            Ok((None, message))
        })
        .collect()
}
