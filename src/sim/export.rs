//! Self-checking testbenches that travel with a generated design (`kautzgen generate
//! --testbench`): the testbench templates of `testbenches/` rendered in their checking mode,
//! and the vectors they read, with the golden model's answers written in.
//!
//! In: a unit as `verify` checks it (a [`FunctionUnit`], a [`StreamUnit`] or a
//! [`SequenceUnit`]) and the languages to write. Out: an [`emit::testbench::Testbench`] for
//! the design directory. The vectors are those `verify` runs for the same selection; each
//! testbench judges them as `verify` does and prints its failures in the same form and
//! `N passed, M failed` last. Each source keeps the context it was rendered from, and the
//! testbench names its style's cocotb test, which reads that context and the same vectors.
//!
//! [`emit::testbench::Testbench`]: crate::emit::testbench::Testbench

use crate::emit::names::Language;
use crate::emit::testbench::{CocotbTest, TbSource, Testbench};
use crate::rtl::ir::Design;
use crate::sim::bits::Bits;
use crate::sim::function::{self, FunctionUnit, Mode, Style, TbPort, vector_ports};
use crate::sim::sequence::{self, SequenceUnit};
use crate::sim::stream::StreamUnit;
use crate::sim::testbench::Rendered;
use crate::sim::{SHOWN_BY_VERIFY, SimError};

/// The testbench of `unit` over all its vectors, in `languages`.
pub fn function_unit(
    unit: &dyn FunctionUnit,
    languages: &[Language],
) -> Result<Testbench, SimError> {
    let design = unit.design();
    let rows = (0..unit.vector_count()).map(|i| {
        let inputs = unit.vector(i);
        let expected = unit.expected(&inputs);
        let outputs = expected.iter().map(|&v| Bits::from_u64(64, v)).collect();
        (inputs, outputs)
    });
    let (lines, count) = vector_lines(&design, rows);
    rows_testbench(
        &design,
        &unit.describe(),
        unit.latency(),
        Style::Function,
        Rows {
            text: lines,
            count,
            masked: None,
        },
        languages,
    )
}

/// The testbench of `unit` over its whole run of cycles from reset, in `languages`.
pub fn stream_unit(unit: &dyn StreamUnit, languages: &[Language]) -> Result<Testbench, SimError> {
    let design = unit.design();
    let rows = unit.cycles().into_iter().map(|c| (c.inputs, c.outputs));
    let (lines, count) = vector_lines(&design, rows);
    rows_testbench(
        &design,
        &unit.describe(),
        1,
        Style::Stream,
        Rows {
            text: lines,
            count,
            masked: None,
        },
        languages,
    )
}

/// The testbench of a run of cycles from reset whose `rows` hold each cycle's inputs, then
/// its expected outputs, then masks of the output bits checked, which select `masked`.
pub fn masked_stream(
    design: &Design,
    describe: &str,
    rows: impl Iterator<Item = (Vec<u64>, Vec<Bits>)>,
    masked: &'static str,
    languages: &[Language],
) -> Result<Testbench, SimError> {
    let (text, count) = vector_lines(design, rows);
    rows_testbench(
        design,
        describe,
        1,
        Style::Stream,
        Rows {
            text,
            count,
            masked: Some(masked),
        },
        languages,
    )
}

/// The testbench of `unit` over all its vectors, in `languages`.
pub fn sequence_unit(
    unit: &dyn SequenceUnit,
    languages: &[Language],
) -> Result<Testbench, SimError> {
    let design = unit.design();
    let (vectors, max_items) = sequence::checked_vectors(unit);
    let mut testbench = Testbench {
        describe: unit.describe(),
        verilog: None,
        vhdl: None,
        vectors,
        checks: unit.vector_count(),
        noun: "vector".to_string(),
        shown: SHOWN_BY_VERIFY,
        format: sequence::CHECKED_FORMAT.to_string(),
        cocotb: CocotbTest::Sequence,
    };
    for &language in languages {
        let mode = sequence::Mode::Check { max_items };
        let rendered = sequence::testbench(unit, &design, language, mode)?;
        set_source(&mut testbench, language, rendered);
    }
    Ok(testbench)
}

/// The lines of `vectors.txt` for `rows` of (inputs, expected outputs) of `design`, each
/// value in whole hexadecimal digits of its port; and how many there are. A row may hold
/// the outputs' values more than once (expected values, then masks): each set is written
/// by the output ports' widths.
fn vector_lines(
    design: &Design,
    rows: impl Iterator<Item = (Vec<u64>, Vec<Bits>)>,
) -> (String, u64) {
    let (inputs, outputs) = vector_ports(design, Language::Verilog);
    let mut text = String::new();
    let mut count = 0;
    for (given, expected) in rows {
        let fields = given
            .iter()
            .zip(&inputs)
            .map(|(&v, p)| Bits::from_u64(p.width, v).to_hex())
            .chain(
                expected
                    .iter()
                    .zip(outputs.iter().cycle())
                    .map(|(v, p)| v.resized(p.width).to_hex()),
            );
        text += &fields.collect::<Vec<_>>().join(" ");
        text.push('\n');
        count += 1;
    }
    (text, count)
}

/// The lines of `vectors.txt` of a row testbench.
struct Rows {
    text: String,
    count: u64,
    /// What the masks after the expected outputs specify, when the lines have them.
    masked: Option<&'static str>,
}

/// The row testbench of `design` reading `rows`.
fn rows_testbench(
    design: &Design,
    describe: &str,
    latency: u32,
    style: Style,
    rows: Rows,
    languages: &[Language],
) -> Result<Testbench, SimError> {
    let Rows {
        text: vectors,
        count: checks,
        masked,
    } = rows;
    let (inputs, outputs) = vector_ports(design, Language::Verilog);
    let names = |ports: &[TbPort]| {
        ports
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut testbench = Testbench {
        describe: describe.to_string(),
        verilog: None,
        vhdl: None,
        vectors,
        checks,
        noun: style.noun().to_string(),
        shown: SHOWN_BY_VERIFY,
        format: format!(
            "the inputs ({}) then the outputs the golden model gives ({}){}, each in hexadecimal{}",
            names(&inputs),
            names(&outputs),
            masked.map_or(String::new(), |what| format!(
                ", then a mask per output: {what}"
            )),
            match style {
                Style::Function => ", read after the inputs have settled",
                Style::Stream =>
                    ", applied from the first cycle after reset, the outputs read after that cycle's clock edge",
            }
        ),
        cocotb: CocotbTest::Rows,
    };
    for &language in languages {
        let mode = Mode::Check {
            style,
            masked: masked.is_some(),
        };
        let rendered = function::testbench(describe, latency, design, language, mode)?;
        set_source(&mut testbench, language, rendered);
    }
    Ok(testbench)
}

fn set_source(testbench: &mut Testbench, language: Language, rendered: Rendered) {
    let source = TbSource {
        top: rendered.top,
        text: rendered.text,
        context: rendered.context,
    };
    match language {
        Language::Verilog => testbench.verilog = Some(source),
        Language::Vhdl => testbench.vhdl = Some(source),
    }
}
