//! The testbenches: one Verilog and one VHDL, rendered from the tera templates in
//! `testbenches/`.
//!
//! In: the graph (which fixes the port widths), the design's cycle bound, the name of the
//! route generator's top module or entity, and whether to dump waves. Out: the testbench source,
//! whose top is [`testbench_name`]. Both testbenches read `vectors.txt` and write
//! `results.txt` in their working directory, in the formats of [`crate::sim::vectors`] and
//! [`crate::sim::results`], and only drive and record: the judging is done once, in Rust.

pub use crate::emit::names::Language;
use crate::sim::hex;
use crate::sim::vectors::Widths;
use crate::topology::kautz::Kautz;
use serde::Serialize;
use thiserror::Error;

const VERILOG: &str = include_str!("../../testbenches/kautz_route_gen.v.tera");
const VHDL: &str = include_str!("../../testbenches/kautz_route_gen.vhd.tera");

/// Multiple of the cycle bound after which a testbench stops waiting for `done`.
pub const TIMEOUT_FACTOR: u64 = 8;

#[derive(Debug, Error)]
pub enum TestbenchError {
    #[error(
        "top name '{0}' is not an identifier both languages accept: use a letter, then letters, digits and single underscores, not ending in one"
    )]
    Top(String),
    /// A fault of the templates themselves, which are compiled into the program.
    #[error("testbench template {name}: {cause}")]
    Template {
        name: &'static str,
        cause: tera::Error,
    },
}

#[derive(Serialize)]
struct Context<'a> {
    top: &'a str,
    tb: String,
    d: usize,
    k: usize,
    word_bits: usize,
    route_bits: usize,
    len_bits: usize,
    /// `(0)` when `src` and `dst` are one bit: such ports are `std_logic` in VHDL.
    word_element: &'static str,
    word_text_bits: usize,
    route_text_bits: usize,
    len_text_bits: usize,
    bound: u64,
    timeout: u64,
    wave: bool,
}

/// Name of the testbench's module or entity for a design whose top is `top`.
pub fn testbench_name(top: &str) -> String {
    format!("tb_{top}")
}

/// Checks that `top` names a module in Verilog and an entity in VHDL alike: no escaped
/// identifiers, and VHDL's rules on underscores. Reserved words are left to the tools.
pub fn check_top(top: &str) -> Result<(), TestbenchError> {
    let mut chars = top.chars();
    let legal = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !top.ends_with('_')
        && !top.contains("__");
    match legal {
        true => Ok(()),
        false => Err(TestbenchError::Top(top.to_string())),
    }
}

/// The testbench in `language` for the route generator `top` of `graph`, whose cycles of
/// work per route set are at most `bound`; with `wave`, the Verilog one dumps `wave.vcd`
/// (the VHDL one is dumped by the simulator).
pub fn render(
    language: Language,
    graph: &Kautz,
    top: &str,
    bound: u64,
    wave: bool,
) -> Result<String, TestbenchError> {
    check_top(top)?;
    let widths = Widths::of(graph);
    let whole_digits = |bits: usize| hex::digits(bits) * 4;
    let context = Context {
        top,
        tb: testbench_name(top),
        d: graph.d(),
        k: graph.k(),
        word_bits: widths.word(),
        route_bits: widths.route(),
        len_bits: widths.len,
        word_element: if widths.word() == 1 { "(0)" } else { "" },
        word_text_bits: whole_digits(widths.word()),
        route_text_bits: whole_digits(widths.route()),
        len_text_bits: whole_digits(widths.len),
        bound,
        timeout: TIMEOUT_FACTOR * bound,
        wave,
    };
    let (name, template) = match language {
        Language::Verilog => ("kautz_route_gen.v.tera", VERILOG),
        Language::Vhdl => ("kautz_route_gen.vhd.tera", VHDL),
    };
    render_template(name, template, &context)
}

/// Renders the testbench template `template` (named `name`, for messages) with `context`.
pub(crate) fn render_template(
    name: &'static str,
    template: &str,
    context: &impl serde::Serialize,
) -> Result<String, TestbenchError> {
    let failed = |cause| TestbenchError::Template { name, cause };
    let mut tera = tera::Tera::new();
    tera.autoescape_on(Vec::<&str>::new());
    tera.add_raw_template(name, template).map_err(failed)?;
    let context = tera::Context::from_serialize(context).map_err(failed)?;
    tera.render(name, &context).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tops_must_suit_both_languages() {
        for good in ["kautz_route_gen", "k", "Gen2_a"] {
            assert!(check_top(good).is_ok(), "{good}");
        }
        for bad in ["", "2gen", "_gen", "gen_", "a__b", "a-b", "a b", "\\esc"] {
            assert!(check_top(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn widths_of_k45_reach_both_testbenches() {
        // K(4,5): 3 bits a letter (5 letters), src 15 bits in 4 digits, route 7 letters =
        // 21 bits in 6 digits, route_len ceil(log2 8) = 3 bits; bound 5 + 15 + 4 = 24.
        let g = Kautz::new(4, 5).unwrap();
        let v = render(Language::Verilog, &g, "kautz_route_gen", 24, false).unwrap();
        for line in [
            "module tb_kautz_route_gen;",
            "localparam integer WORD_BITS = 15;",
            "localparam integer ROUTE_BITS = 21;",
            "localparam integer LEN_BITS = 3;",
            "localparam integer TIMEOUT = 192;",
            "kautz_route_gen dut (",
        ] {
            assert!(v.contains(line), "Verilog lacks {line}");
        }
        assert!(!v.contains("$dumpfile"));
        let vhd = render(Language::Vhdl, &g, "kautz_route_gen", 24, false).unwrap();
        for line in [
            "entity tb_kautz_route_gen is",
            "constant ROUTE_TEXT_BITS : positive := 24;",
            "constant LEN_TEXT_BITS : positive := 4;",
            "dut : entity work.kautz_route_gen",
        ] {
            assert!(vhd.contains(line), "VHDL lacks {line}");
        }
        assert!(
            render(Language::Verilog, &g, "gen", 24, true)
                .unwrap()
                .contains("$dumpfile(\"wave.vcd\");\n    $dumpvars(0, tb_gen);")
        );
    }
}
