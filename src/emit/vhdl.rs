//! Prints the IR as VHDL-2008 with `numeric_std`: a helper package first, then one entity
//! and architecture per file, `vhdl/<module>.vhd`.
//!
//! Ports and signals of one bit are `std_logic`, wider ones `std_logic_vector(N-1 downto 0)`.
//! VHDL has no conditional or boolean-to-bit expression, so comparisons and multiplexers
//! are calls to small functions of the design's package (`kg_eq`, `kg_mux`, ...);
//! concatenations are qualified so that their type never depends on context. A register is
//! a process on the clock testing its reset inside `rising_edge`, or, when the reset is
//! asynchronous, a process on the clock and the reset testing the reset first. A C
//! element's target is a signal with its initial value, driven by a conditional
//! assignment that has no final `else`, so that it holds when its inputs disagree. A
//! memory is a signal of an array type, every word zero in its declaration, written and
//! read into its read data by one clocked process, which `ghdl --synth` infers as a RAM.

use crate::emit::expr::{self, Operand, Syntax};
use crate::emit::names::{DesignNames, MemoryNames, ModuleNames};
use crate::emit::statements::{Case, Instance, Register, StatementPrinter, print_statements};
use crate::emit::{Backend, GeneratedFile, Provenance};
use crate::rtl::ir::{
    BinaryOp, Design, Direction, Expr, Memory, Module, SignalId, SignalKind, UnaryOp,
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
    entity(&mut out, module, local);
    writeln!(out, "architecture rtl of {} is", local.module).unwrap();
    constants(&mut out, module, local);
    internal_signals(&mut out, module, local);
    memory_arrays(&mut out, module, local);
    out += "begin\n";
    let printer = VhdlStatements { module, local };
    print_statements(&mut out, module, local, names, design, &printer);
    writeln!(out, "\nend architecture rtl;").unwrap();
    out
}

/// The entity: its ports, one a line, each with its doc.
fn entity(out: &mut String, module: &Module, local: &ModuleNames) {
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
}

fn constants(out: &mut String, module: &Module, local: &ModuleNames) {
    for (i, constant) in module.constants.iter().enumerate() {
        let declaration = format!(
            "constant {} : {} := {};",
            local.constants[i],
            type_of(constant.width),
            literal(constant.width, constant.value)
        );
        writeln!(out, "    {declaration:<52} -- {}", constant.doc).unwrap();
    }
}

/// A signal for each internal signal, with its power-up value if it has one.
fn internal_signals(out: &mut String, module: &Module, local: &ModuleNames) {
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
}

/// Each memory's array type and its signal, every word zero.
fn memory_arrays(out: &mut String, module: &Module, local: &ModuleNames) {
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
}

/// Prints statements in VHDL, their expressions in the module's names.
struct VhdlStatements<'a> {
    module: &'a Module,
    local: &'a ModuleNames,
}

impl VhdlStatements<'_> {
    fn e(&self, expr: &Expr) -> String {
        expression(expr, self.module, self.local)
    }

    fn index(&self, address: &Expr) -> String {
        index(address, self.module, self.local)
    }
}

impl StatementPrinter for VhdlStatements<'_> {
    const COMMENT: &'static str = "--";

    fn assign(&self, out: &mut String, target: &str, value: &Expr) {
        let value = top_level(value, self.module, self.local);
        writeln!(out, "    {target} <= {value};").unwrap();
    }

    fn register(&self, out: &mut String, register: Register) {
        let Register {
            target,
            clock,
            reset,
            label,
            style,
            ..
        } = register;
        let (reset_value, next) = (
            literal(register.width, register.reset_value),
            self.e(register.next),
        );
        let on = format!("{reset} = '{}'", u8::from(style.active_high()));
        match style.is_async() {
            false => writeln!(
                out,
                "    {label} : process ({clock}) is
    begin
        if rising_edge({clock}) then
            if {on} then
                {target} <= {reset_value};
            else
                {target} <= {next};
            end if;
        end if;
    end process {label};"
            ),
            true => writeln!(
                out,
                "    {label} : process ({clock}, {reset}) is
    begin
        if {on} then
            {target} <= {reset_value};
        elsif rising_edge({clock}) then
            {target} <= {next};
        end if;
    end process {label};"
            ),
        }
        .unwrap();
    }

    fn case(&self, out: &mut String, case: Case) {
        writeln!(out, "    with {} select {} <=", case.selector, case.target).unwrap();
        for (label, value) in case.arms {
            writeln!(out, "        {} when {},", self.e(value), self.e(label)).unwrap();
        }
        writeln!(out, "        {} when others;", self.e(case.default)).unwrap();
    }

    fn c_element(&self, out: &mut String, target: &str, inputs: &[Expr]) {
        let when = expr::c_element(inputs, self.module, self.local, &VhdlSyntax);
        writeln!(
            out,
            "    {target} <= '1' when {} = '1' else\n        '0' when {} = '1';",
            when.set, when.clear
        )
        .unwrap();
    }

    fn memory(&self, out: &mut String, memory: &Memory, names: &MemoryNames, clock: &str) {
        let (array, label) = (&names.array, &names.process);
        let read_data = &self.local.signals[memory.read_data.0 as usize];
        writeln!(
            out,
            "    {label} : process ({clock}) is
    begin
        if rising_edge({clock}) then
            if {} = '1' then
                {array}({}) <= {};
            end if;",
            self.e(&memory.write_condition()),
            self.index(&memory.write_addr),
            self.e(&memory.write_data)
        )
        .unwrap();
        let read = format!("{read_data} <= {array}({});", self.index(&memory.read_addr));
        match memory.read_condition() {
            Some(inside) => writeln!(
                out,
                "            if {} = '1' then\n                {read}\n            end if;",
                self.e(&inside)
            )
            .unwrap(),
            None => writeln!(out, "            {read}").unwrap(),
        }
        writeln!(out, "        end if;\n    end process {label};").unwrap();
    }

    fn instance(&self, out: &mut String, instance: Instance) {
        writeln!(
            out,
            "    {} : entity work.{}\n        port map (",
            instance.label, instance.module
        )
        .unwrap();
        let count = instance.connections.len();
        for (i, (port, value)) in instance.connections.iter().enumerate() {
            let comma = if i + 1 < count { "," } else { "" };
            writeln!(out, "            {port} => {}{comma}", self.e(value)).unwrap();
        }
        *out += "        );\n";
    }
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
