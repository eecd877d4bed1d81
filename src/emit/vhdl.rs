//! Prints the IR as VHDL-2008 with `numeric_std`: a helper package first, then one entity
//! and architecture per file, `vhdl/<module>.vhd`.
//!
//! Ports and signals of one bit are `std_logic`, wider ones `std_logic_vector(N-1 downto 0)`.
//! VHDL has no conditional or boolean-to-bit expression, so comparisons and multiplexers
//! are calls to small functions of the design's package (`kg_eq`, `kg_mux`, ...);
//! concatenations are qualified so that their type never depends on context. A C
//! element's target is a signal with its initial value, driven by a conditional
//! assignment that has no final `else`, so that it holds when its inputs disagree. A
//! memory is a signal of an array type, every word zero in its declaration, written and
//! read into its read data by one clocked process, which `ghdl --synth` infers as a RAM.

use crate::emit::expr::{self, Operand, Syntax};
use crate::emit::names::{DesignNames, ModuleNames};
use crate::emit::{Backend, GeneratedFile, Provenance};
use crate::rtl::ir::{
    BinaryOp, Design, Direction, Expr, Module, SignalId, SignalKind, Statement, UnaryOp,
};
use std::fmt::Write;

pub struct Vhdl;

const LIBRARIES: &str = "library ieee;\nuse ieee.std_logic_1164.all;\nuse ieee.numeric_std.all;\n";

impl Backend for Vhdl {
    fn files(
        &self,
        design: &Design,
        names: &DesignNames,
        provenance: &Provenance,
    ) -> Vec<GeneratedFile> {
        let mut files = vec![GeneratedFile {
            path: format!("vhdl/{}.vhd", names.package),
            text: package(&names.package, provenance, design),
        }];
        files.extend(design.modules.iter().map(|module| {
            let local = names.of(module);
            GeneratedFile {
                path: format!("vhdl/{}.vhd", local.module),
                text: print_module(module, local, names, design, provenance),
            }
        }));
        files
    }
}

fn package(name: &str, provenance: &Provenance, design: &Design) -> String {
    let mut out = String::new();
    for line in provenance.package_header_lines(name, design) {
        writeln!(out, "{}", format!("-- {line}").trim_end()).unwrap();
    }
    out += "\n";
    out += LIBRARIES;
    writeln!(out, "\npackage {name} is").unwrap();
    out += "    -- Comparisons of unsigned values as bits: '1' when true.
    function kg_eq(a, b : std_logic_vector) return std_logic;
    function kg_eq(a, b : std_logic) return std_logic;
    function kg_ne(a, b : std_logic_vector) return std_logic;
    function kg_ne(a, b : std_logic) return std_logic;
    function kg_lt(a, b : std_logic_vector) return std_logic;
    function kg_lt(a, b : std_logic) return std_logic;
    -- Two-way multiplexer: a when c = '1', else b.
    function kg_mux(c : std_logic; a, b : std_logic_vector) return std_logic_vector;
    function kg_mux(c : std_logic; a, b : std_logic) return std_logic;
";
    writeln!(out, "end package {name};\n").unwrap();
    writeln!(out, "package body {name} is").unwrap();
    for (function, operands, test) in [
        ("kg_eq", "std_logic_vector", "a = b"),
        ("kg_eq", "std_logic", "a = b"),
        ("kg_ne", "std_logic_vector", "a /= b"),
        ("kg_ne", "std_logic", "a /= b"),
        ("kg_lt", "std_logic_vector", "unsigned(a) < unsigned(b)"),
        ("kg_lt", "std_logic", "a = '0' and b = '1'"),
    ] {
        writeln!(
            out,
            "    function {function}(a, b : {operands}) return std_logic is
    begin
        if {test} then
            return '1';
        end if;
        return '0';
    end function {function};
"
        )
        .unwrap();
    }
    for operands in ["std_logic_vector", "std_logic"] {
        writeln!(
            out,
            "    function kg_mux(c : std_logic; a, b : {operands}) return {operands} is
    begin
        if c = '1' then
            return a;
        end if;
        return b;
    end function kg_mux;
"
        )
        .unwrap();
    }
    writeln!(out, "end package body {name};").unwrap();
    out
}

fn type_of(width: u32) -> String {
    if width == 1 {
        "std_logic".to_string()
    } else {
        format!("std_logic_vector({} downto 0)", width - 1)
    }
}

fn literal(width: u32, value: u64) -> String {
    if width == 1 {
        return format!("'{value}'");
    }
    let bits: String = (0..width)
        .rev()
        .map(|i| {
            if i < 64 && value >> i & 1 == 1 {
                '1'
            } else {
                '0'
            }
        })
        .collect();
    format!("\"{bits}\"")
}

fn print_module(
    module: &Module,
    local: &ModuleNames,
    names: &DesignNames,
    design: &Design,
    provenance: &Provenance,
) -> String {
    let mut out = String::new();
    for line in provenance.header_lines(&local.module, module, design) {
        writeln!(out, "-- {line}").unwrap();
    }
    out += "\n";
    out += LIBRARIES;
    writeln!(out, "use work.{}.all;\n", names.package).unwrap();
    writeln!(out, "entity {} is\n    port (", local.module).unwrap();
    let ports: Vec<_> = module.ports().collect();
    for (i, (id, signal)) in ports.iter().enumerate() {
        let mode = match signal.kind {
            SignalKind::Port(Direction::Input) => "in ",
            _ => "out",
        };
        let semicolon = if i + 1 < ports.len() { ";" } else { "" };
        let declaration = format!(
            "{} : {mode} {}{semicolon}",
            local.signals[id.0 as usize],
            type_of(signal.width)
        );
        writeln!(out, "        {declaration:<48} -- {}", signal.doc).unwrap();
    }
    writeln!(out, "    );\nend entity {};\n", local.module).unwrap();
    writeln!(out, "architecture rtl of {} is", local.module).unwrap();
    for (i, constant) in module.constants.iter().enumerate() {
        let declaration = format!(
            "constant {} : {} := {};",
            local.constants[i],
            type_of(constant.width),
            literal(constant.width, constant.value)
        );
        writeln!(out, "    {declaration:<52} -- {}", constant.doc).unwrap();
    }
    for (i, signal) in module.signals.iter().enumerate() {
        if signal.kind == SignalKind::Internal {
            let initial = match module.initial_value(SignalId(i as u32)) {
                Some(value) => format!(" := {}", literal(signal.width, value)),
                None => String::new(),
            };
            let declaration = format!(
                "signal {} : {}{initial};",
                local.signals[i],
                type_of(signal.width)
            );
            writeln!(out, "    {declaration:<52} -- {}", signal.doc).unwrap();
        }
    }
    for (memory, names) in module.memories().zip(&local.memories) {
        writeln!(
            out,
            "    type {} is array (0 to {}) of {};",
            names.array_type,
            memory.depth - 1,
            type_of(memory.width)
        )
        .unwrap();
        let declaration = format!(
            "signal {} : {} := (others => {});",
            names.array,
            names.array_type,
            literal(memory.width, 0)
        );
        writeln!(
            out,
            "    {declaration:<52} -- {} words, zero at power-up",
            memory.depth
        )
        .unwrap();
    }
    out += "begin\n";
    let mut instances = local.instances.iter();
    let mut processes = local.processes.iter();
    let mut memories = local.memories.iter();
    for item in &module.items {
        out += "\n";
        for line in item.doc.lines() {
            writeln!(out, "    -- {line}").unwrap();
        }
        let e = |expr: &Expr| expression(expr, module, local);
        match &item.statement {
            Statement::Assign { target, value } => {
                let name = &local.signals[target.0 as usize];
                writeln!(out, "    {name} <= {};", top_level(value, module, local)).unwrap();
            }
            Statement::Register {
                target,
                reset,
                next,
            } => {
                let clocking = module.clocking.expect("validated: registers have a clock");
                let name = &local.signals[target.0 as usize];
                let label = processes.next().expect("one label per register");
                let clock = &local.signals[clocking.clock.0 as usize];
                let reset_signal = &local.signals[clocking.reset.0 as usize];
                writeln!(
                    out,
                    "    {label} : process ({clock}) is
    begin
        if rising_edge({clock}) then
            if {reset_signal} = '1' then
                {name} <= {};
            else
                {name} <= {};
            end if;
        end if;
    end process {label};",
                    literal(module.sig(*target).width, *reset),
                    e(next)
                )
                .unwrap();
            }
            Statement::Case {
                target,
                selector,
                arms,
                default,
            } => {
                let name = &local.signals[target.0 as usize];
                writeln!(
                    out,
                    "    with {} select {name} <=",
                    local.signals[selector.0 as usize]
                )
                .unwrap();
                for (label, value) in arms {
                    writeln!(out, "        {} when {},", e(value), e(label)).unwrap();
                }
                writeln!(out, "        {} when others;", e(default)).unwrap();
            }
            Statement::CElement { target, inputs, .. } => {
                let name = &local.signals[target.0 as usize];
                let when = expr::c_element(inputs, module, local, &VhdlSyntax);
                writeln!(
                    out,
                    "    {name} <= '1' when {} = '1' else\n        '0' when {} = '1';",
                    when.set, when.clear
                )
                .unwrap();
            }
            Statement::Memory(memory) => {
                let clocking = module.clocking.expect("validated: memories have a clock");
                let names = memories.next().expect("names for every memory");
                let (array, label) = (&names.array, &names.process);
                let clock = &local.signals[clocking.clock.0 as usize];
                let read_data = &local.signals[memory.read_data.0 as usize];
                let index = |address: &Expr| index(address, module, local);
                writeln!(
                    out,
                    "    {label} : process ({clock}) is
    begin
        if rising_edge({clock}) then
            if {} = '1' then
                {array}({}) <= {};
            end if;",
                    e(&memory.write_condition()),
                    index(&memory.write_addr),
                    e(&memory.write_data)
                )
                .unwrap();
                let read = format!("{read_data} <= {array}({});", index(&memory.read_addr));
                match memory.read_condition() {
                    Some(inside) => writeln!(
                        out,
                        "            if {} = '1' then\n                {read}\n            end if;",
                        e(&inside)
                    )
                    .unwrap(),
                    None => writeln!(out, "            {read}").unwrap(),
                }
                writeln!(out, "        end if;\n    end process {label};").unwrap();
            }
            Statement::Instance {
                module: callee,
                connections,
                ..
            } => {
                let callee_module = design
                    .module(callee)
                    .expect("validated: instances name earlier modules");
                let callee_names = names.of(callee_module);
                let label = instances.next().expect("one label per instance");
                writeln!(
                    out,
                    "    {label} : entity work.{}\n        port map (",
                    callee_names.module
                )
                .unwrap();
                let ports: Vec<_> = callee_module.ports().collect();
                for (i, ((port_id, _), (_, value))) in ports.iter().zip(connections).enumerate() {
                    let comma = if i + 1 < connections.len() { "," } else { "" };
                    writeln!(
                        out,
                        "            {} => {}{comma}",
                        callee_names.signals[port_id.0 as usize],
                        e(value)
                    )
                    .unwrap();
                }
                out += "        );\n";
            }
        }
    }
    writeln!(out, "\nend architecture rtl;").unwrap();
    out
}

/// The right-hand side of a concurrent assignment: a chain of multiplexers reads best as
/// `a when c = '1' else b`; anything else is a plain expression.
fn top_level(expr: &Expr, module: &Module, names: &ModuleNames) -> String {
    match expr {
        Expr::Mux {
            cond,
            then,
            otherwise,
        } => format!(
            "{} when {} = '1' else\n        {}",
            expression(then, module, names),
            expression(cond, module, names),
            top_level(otherwise, module, names)
        ),
        _ => expression(expr, module, names),
    }
}

fn expression(expr: &Expr, module: &Module, names: &ModuleNames) -> String {
    expr::print(expr, module, names, &VhdlSyntax)
}

/// A memory address as the integer that indexes its array. A bit is made a vector of one
/// first, since `unsigned` converts only vectors.
fn index(address: &Expr, module: &Module, names: &ModuleNames) -> String {
    let address = expr::operand(address, module, names, &VhdlSyntax);
    match address.width {
        1 => format!("to_integer(unsigned'(0 => {}))", address.text),
        _ => format!("to_integer({})", unsigned(&address)),
    }
}

/// A vector as `unsigned`; a string literal has no type of its own, so it is qualified
/// rather than converted.
fn unsigned(x: &Operand) -> String {
    if x.literal {
        format!("unsigned'({})", x.text)
    } else {
        format!("unsigned({})", x.text)
    }
}

struct VhdlSyntax;

impl Syntax for VhdlSyntax {
    fn literal(&self, width: u32, value: u64) -> String {
        literal(width, value)
    }

    fn bit_select(&self, name: &str, bit: u32) -> String {
        format!("{name}({bit})")
    }

    fn range_select(&self, name: &str, high: u32, low: u32) -> String {
        format!("{name}({high} downto {low})")
    }

    /// Qualified, so that the type of `a & b` never depends on its context.
    fn concat(&self, parts: &[String]) -> String {
        format!("std_logic_vector'({})", parts.join(" & "))
    }

    fn unary(&self, op: UnaryOp, operand: Operand) -> String {
        match op {
            UnaryOp::Not => format!("(not {})", operand.text),
            // A reduction of one bit is that bit; VHDL defines `or` and `and` only on vectors.
            _ if operand.width == 1 => operand.text,
            UnaryOp::ReduceOr => format!("(or {})", operand.text),
            UnaryOp::ReduceAnd => format!("(and {})", operand.text),
        }
    }

    fn binary(&self, op: BinaryOp, a: Operand, b: Operand) -> String {
        match op {
            BinaryOp::And => format!("({} and {})", a.text, b.text),
            BinaryOp::Or => format!("({} or {})", a.text, b.text),
            BinaryOp::Xor => format!("({} xor {})", a.text, b.text),
            // Modulo 2, sum and difference of bits are both their exclusive or.
            BinaryOp::Add | BinaryOp::Sub if a.width == 1 => format!("({} xor {})", a.text, b.text),
            BinaryOp::Add => format!("std_logic_vector({} + {})", unsigned(&a), unsigned(&b)),
            BinaryOp::Sub => format!("std_logic_vector({} - {})", unsigned(&a), unsigned(&b)),
            BinaryOp::Eq => format!("kg_eq({}, {})", a.text, b.text),
            BinaryOp::Ne => format!("kg_ne({}, {})", a.text, b.text),
            BinaryOp::Lt => format!("kg_lt({}, {})", a.text, b.text),
        }
    }

    fn mux(&self, cond: &str, then: &str, otherwise: &str) -> String {
        format!("kg_mux({cond}, {then}, {otherwise})")
    }
}
