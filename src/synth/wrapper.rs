//! The synthesis wrapper: a Verilog module that registers every port of a design's top.
//!
//! In: a [`Design`] (its top's ports and clock, named as the Verilog backend names them).
//! Out: the wrapper's source, rendered from `templates/synth_wrapper.v.tera`. Inputs come
//! from a shift register fed by one pad and outputs leave through another, so four pads
//! serve any unit; the template's header says why.

use crate::emit::names::{Language, name_design};
use crate::rtl::ir::{Design, Direction, SignalKind};
use crate::synth::render_template;
use serde::Serialize;
use thiserror::Error;

const TEMPLATE: &str = include_str!("../../templates/synth_wrapper.v.tera");

#[derive(Debug, Error)]
pub enum WrapperError {
    #[error("{top} has no {what} to register, so it cannot be measured between registers")]
    NoPorts { top: String, what: &'static str },
    /// A fault of the template itself, which is compiled into the program.
    #[error("internal error: synthesis wrapper template: {0}")]
    Template(#[from] tera::Error),
}

/// The wrapper of one design.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapper {
    /// Module name: `<top>_synth_wrapper`.
    pub name: String,
    /// The unit's top module, as the Verilog backend names it.
    pub top: String,
    pub text: String,
    /// Flip-flops the wrapper adds: one per input bit, two per output bit.
    pub flip_flops: u32,
}

#[derive(Serialize)]
struct Port {
    name: String,
    /// What the port connects to in the wrapper.
    net: String,
}

#[derive(Serialize)]
struct Context<'a> {
    wrapper: &'a str,
    top: &'a str,
    summary: &'a str,
    in_bits: u32,
    out_bits: u32,
    in_shift: String,
    scan_shift: String,
    ports: Vec<Port>,
}

/// Bits `lo .. lo+width` of the wrapper's vector `vector`.
fn slice(vector: &str, lo: u32, width: u32) -> String {
    match width {
        1 => format!("{vector}[{lo}]"),
        _ => format!("{vector}[{}:{lo}]", lo + width - 1),
    }
}

/// `{vector[n-2:0], fill}`: the vector shifted up by one with `fill` entering, or `fill`
/// alone when the vector is one bit.
fn shifted(vector: &str, bits: u32, fill: &str) -> String {
    match bits {
        1 => fill.to_string(),
        _ => format!("{{{}, {fill}}}", slice(vector, 0, bits - 1)),
    }
}

/// Renders the wrapper of `design`'s top.
pub fn wrapper(design: &Design) -> Result<Wrapper, WrapperError> {
    let top = design.top();
    let names = name_design(design, Language::Verilog);
    let local = names.of(top);
    let clock = top.clocking.map(|c| c.clock);
    let (mut in_bits, mut out_bits) = (0, 0);
    let mut ports = Vec::new();
    for (id, signal) in top.ports() {
        let name = local.signals[id.0 as usize].clone();
        let net = if Some(id) == clock {
            "clk".to_string()
        } else if signal.kind == SignalKind::Port(Direction::Input) {
            in_bits += signal.width;
            slice("in_q", in_bits - signal.width, signal.width)
        } else {
            out_bits += signal.width;
            slice("out_d", out_bits - signal.width, signal.width)
        };
        ports.push(Port { name, net });
    }
    let top_name = local.module.clone();
    for (bits, what) in [(in_bits, "inputs"), (out_bits, "outputs")] {
        if bits == 0 {
            return Err(WrapperError::NoPorts {
                top: top_name,
                what,
            });
        }
    }
    let name = format!("{top_name}_synth_wrapper");
    let context = Context {
        wrapper: &name,
        top: &top_name,
        summary: &design.summary,
        in_bits,
        out_bits,
        in_shift: shifted("in_q", in_bits, "scan_in"),
        scan_shift: shifted("scan_q", out_bits, "1'b0"),
        ports,
    };
    let text = render_template("synth_wrapper.v.tera", TEMPLATE, &context)?;
    Ok(Wrapper {
        name,
        top: top_name,
        text,
        flip_flops: in_bits + 2 * out_bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rtl::kautz_route::{RouteGenParams, design};

    #[test]
    fn every_port_of_the_route_generator_is_registered() {
        // K(2,3): 2-bit letters; rst, init, next_route, src (6), dst (6) in; route_valid,
        // route (10), route_len (3), done, error out.
        let params = RouteGenParams::new(2, 3, "kautz_route_gen").unwrap();
        let w = wrapper(&design(&params)).unwrap();
        assert_eq!(w.name, "kautz_route_gen_synth_wrapper");
        assert_eq!(w.flip_flops, 15 + 2 * 16);
        for line in [
            "module kautz_route_gen_synth_wrapper (",
            "    reg  [14:0] in_q;",
            "    wire [15:0] out_d;",
            "        in_q <= {in_q[13:0], scan_in};",
            "        scan_q <= capture ? out_q : {scan_q[14:0], 1'b0};",
            "    assign scan_out = scan_q[15];",
            "    kautz_route_gen u_unit (",
            "        .clk(clk),",
            "        .rst(in_q[0]),",
            "        .src(in_q[8:3]),",
            "        .dst(in_q[14:9]),",
            "        .route(out_d[10:1]),",
            "        .error(out_d[15])",
            "    );",
        ] {
            assert!(w.text.contains(line), "missing {line:?} in\n{}", w.text);
        }
    }

    #[test]
    fn one_bit_vectors_shift_by_assignment() {
        assert_eq!(shifted("in_q", 1, "scan_in"), "scan_in");
        assert_eq!(shifted("in_q", 2, "scan_in"), "{in_q[0], scan_in}");
        assert_eq!(slice("out_d", 4, 1), "out_d[4]");
    }
}
