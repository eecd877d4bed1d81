//! The network as GraphML (graphml.graphdrawing.org), a directed graph whose nodes are
//! their indices in the network model's order, each with its `name` (a Kautz word, a
//! torus node's digits), and whose edges carry the switch ports of their link, `out_port`
//! and `in_port` (docs/topologies.md). The graph records the topology, the version of
//! kautzgen and the command that wrote it. networkx's `read_graphml` and Gephi read it
//! (docs/export.md).

use super::{VERSION, arcs};
use crate::fabric::wiring::Wiring;
use crate::network::plan::Plan;
use std::io::{self, Write};

/// The attributes the file declares, each `(id, for, type)`; the id is also its name.
const KEYS: [(&str, &str, &str); 6] = [
    ("topology", "graph", "string"),
    ("kautzgen", "graph", "string"),
    ("command", "graph", "string"),
    ("name", "node", "string"),
    ("out_port", "edge", "int"),
    ("in_port", "edge", "int"),
];

/// Writes `plan`'s network, wired by `wiring` (the plan's), as GraphML that records
/// `command`.
pub fn write(
    out: &mut dyn Write,
    plan: &dyn Plan,
    wiring: &Wiring,
    command: &str,
) -> io::Result<()> {
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">"#
    )?;
    for (id, owner, kind) in KEYS {
        writeln!(
            out,
            r#"  <key id="{id}" for="{owner}" attr.name="{id}" attr.type="{kind}"/>"#
        )?;
    }
    writeln!(out, r#"  <graph id="network" edgedefault="directed">"#)?;
    let graph_data = [
        ("topology", plan.name()),
        ("kautzgen", VERSION.to_string()),
        ("command", command.to_string()),
    ];
    for (key, value) in graph_data {
        writeln!(out, r#"    <data key="{key}">{}</data>"#, escape(&value))?;
    }
    for v in 0..plan.node_count() {
        writeln!(
            out,
            r#"    <node id="{v}"><data key="name">{}</data></node>"#,
            escape(&plan.node_name(v))
        )?;
    }
    for arc in arcs(wiring) {
        writeln!(
            out,
            r#"    <edge source="{}" target="{}"><data key="out_port">{}</data><data key="in_port">{}</data></edge>"#,
            arc.src, arc.dst, arc.out_port, arc.in_port
        )?;
    }
    writeln!(out, "  </graph>")?;
    writeln!(out, "</graphml>")
}

/// `text` as XML character data: the five characters XML gives a meaning escaped, and the
/// control characters XML 1.0 does not allow replaced by U+FFFD (a `file:PATH` topology is
/// named by its path, which may hold any of them).
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\t' | '\n' | '\r' => escaped.push(c),
            c if c.is_control() => escaped.push(char::REPLACEMENT_CHARACTER),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn xml_s_five_special_characters_are_escaped_and_control_characters_replaced() {
        assert_eq!(
            escape("a&b<c>d\"e'f\tg\u{1}h"),
            "a&amp;b&lt;c&gt;d&quot;e&apos;f\tg\u{fffd}h"
        );
    }
}
