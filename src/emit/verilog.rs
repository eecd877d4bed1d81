//! Prints the IR as Verilog-2005: one module per file, `verilog/<module>.v`.
//!
//! Every operator is parenthesised and every literal carries its width, so the text means
//! the same to every tool and lints clean under `verilator -Wall`. A register is an
//! `always @(posedge clk)` block testing its reset first, `always @(posedge clk or negedge
//! rst_n)` when the reset is asynchronous. A C element's target is
//! a `reg` with its initial value, set and cleared in an `always @*` block that Icarus
//! Verilog simulates; Verilator lints only synchronous designs, which have none. A memory
//! is an array `reg [W-1:0] m [0:DEPTH-1]` zeroed by an `initial` loop, written and read
//! into its `reg` read data in one `always @(posedge clk)`, which yosys infers as a RAM.

use crate::emit::expr::{self, Operand, Syntax};
use crate::emit::names::{DesignNames, MemoryNames, ModuleNames};
use crate::emit::statements::{Case, Instance, Register, StatementPrinter, print_statements};
use crate::emit::{Backend, GeneratedFile, Provenance};
use crate::rtl::ir::{
    BinaryOp, Design, Direction, Expr, Memory, Module, ResetStyle, SignalId, SignalKind, UnaryOp,
};
use std::fmt::Write;

pub struct Verilog;

impl Backend for Verilog {
    fn files(
        &self,
        design: &Design,
        names: &DesignNames,
        provenance: &Provenance,
    ) -> Vec<GeneratedFile> {
        design
            .modules
            .iter()
            .map(|module| {
                let local = names.of(module);
                GeneratedFile {
                    path: format!("verilog/{}.v", local.module),
                    text: print_module(module, local, names, design, provenance),
                }
            })
            .collect()
    }
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
        writeln!(out, "{}", format!("// {line}").trim_end()).unwrap();
    }
    out += "\n`default_nettype none\n\n";
    port_list(&mut out, module, local);
    constants(&mut out, module, local);
    internal_signals(&mut out, module, local);
    let printer = VerilogStatements { module, local };
    print_statements(&mut out, module, local, names, design, &printer);
    out += "\nendmodule\n\n`default_nettype wire\n";
    out
}

/// `module name (` with one port a line, each with its doc, and `);`.
fn port_list(out: &mut String, module: &Module, local: &ModuleNames) {
    let ports: Vec<_> = module.ports().collect();
    writeln!(out, "module {} (", local.module).unwrap();
    for (i, (id, signal)) in ports.iter().enumerate() {
        let direction = match signal.kind {
            SignalKind::Port(Direction::Input) => "input  wire",
            _ if drives_procedurally(module, *id) => "output reg ",
            _ => "output wire",
        };
        let comma = if i + 1 < ports.len() { "," } else { "" };
        let declaration = format!(
            "{direction} {}{}{comma}",
            range(signal.width),
            local.signals[id.0 as usize]
        );
        writeln!(out, "    {declaration:<44} // {}", signal.doc).unwrap();
    }
    *out += ");\n";
}

/// A `localparam` for each constant, after a blank line when there are any.
fn constants(out: &mut String, module: &Module, local: &ModuleNames) {
    if !module.constants.is_empty() {
        *out += "\n";
    }
    for (i, constant) in module.constants.iter().enumerate() {
        let declaration = format!(
            "localparam {}{} = {};",
            range(constant.width),
            local.constants[i],
            literal(constant.width, constant.value)
        );
        writeln!(out, "    {declaration:<44} // {}", constant.doc).unwrap();
    }
}

/// A `reg` or `wire` for each internal signal, with its power-up value if it has one,
/// after a blank line when there are any.
fn internal_signals(out: &mut String, module: &Module, local: &ModuleNames) {
    let internals: Vec<_> = (0..module.signals.len())
        .filter(|&i| module.signals[i].kind == SignalKind::Internal)
        .collect();
    if !internals.is_empty() {
        *out += "\n";
    }
    for i in internals {
        let signal = &module.signals[i];
        let kind = if drives_procedurally(module, SignalId(i as u32)) {
            "reg "
        } else {
            "wire"
        };
        let initial = match module.initial_value(SignalId(i as u32)) {
            Some(value) => format!(" = {}", literal(signal.width, value)),
            None => String::new(),
        };
        let declaration = format!(
            "{kind} {}{}{initial};",
            range(signal.width),
            local.signals[i]
        );
        writeln!(out, "    {declaration:<44} // {}", signal.doc).unwrap();
    }
}

/// Prints statements in Verilog, their expressions in the module's names.
struct VerilogStatements<'a> {
    module: &'a Module,
    local: &'a ModuleNames,
}

impl VerilogStatements<'_> {
    fn e(&self, expr: &Expr) -> String {
        expression(expr, self.module, self.local)
    }
}

impl StatementPrinter for VerilogStatements<'_> {
    const COMMENT: &'static str = "//";

    fn assign(&self, out: &mut String, target: &str, value: &Expr) {
        writeln!(out, "    assign {target} = {};", self.e(value)).unwrap();
    }

    fn register(&self, out: &mut String, register: Register) {
        let Register {
            target,
            clock,
            reset,
            style,
            ..
        } = register;
        let (edges, on) = match style {
            ResetStyle::SyncHigh => (String::new(), reset.to_string()),
            ResetStyle::SyncLow => (String::new(), format!("!{reset}")),
            ResetStyle::AsyncLow => (format!(" or negedge {reset}"), format!("!{reset}")),
        };
        writeln!(out, "    always @(posedge {clock}{edges}) begin").unwrap();
        writeln!(
            out,
            "        if ({on}) {target} <= {};",
            literal(register.width, register.reset_value)
        )
        .unwrap();
        writeln!(out, "        else {target} <= {};", self.e(register.next)).unwrap();
        *out += "    end\n";
    }

    fn case(&self, out: &mut String, case: Case) {
        let Case {
            target, selector, ..
        } = case;
        *out += "    always @* begin\n";
        writeln!(out, "        case ({selector})").unwrap();
        for (label, value) in case.arms {
            writeln!(
                out,
                "            {}: {target} = {};",
                self.e(label),
                self.e(value)
            )
            .unwrap();
        }
        writeln!(
            out,
            "            default: {target} = {};",
            self.e(case.default)
        )
        .unwrap();
        *out += "        endcase\n    end\n";
    }

    fn c_element(&self, out: &mut String, target: &str, inputs: &[Expr]) {
        let when = expr::c_element(inputs, self.module, self.local, &VerilogSyntax);
        writeln!(
            out,
            "    always @* begin
        if ({}) {target} = 1'b1;
        else if ({}) {target} = 1'b0;
    end",
            when.set, when.clear
        )
        .unwrap();
    }

    fn memory(&self, out: &mut String, memory: &Memory, names: &MemoryNames, clock: &str) {
        let (array, index) = (&names.array, &names.index);
        let read_data = &self.local.signals[memory.read_data.0 as usize];
        let depth = memory.depth;
        writeln!(
            out,
            "    reg  {}{array} [0:{}];\n    integer {index};",
            range(memory.width),
            depth - 1
        )
        .unwrap();
        // Power-up contents: an initial block, which yosys turns into the block RAM's
        // initialisation, and the only way Verilog-2005 has to fill an array.
        writeln!(
            out,
            "    initial begin
        for ({index} = 0; {index} < {depth}; {index} = {index} + 1) {array}[{index}] = {};
    end",
            literal(memory.width, 0)
        )
        .unwrap();
        writeln!(
            out,
            "    always @(posedge {clock}) begin
        if ({}) {array}[{}] <= {};",
            self.e(&memory.write_condition()),
            self.e(&memory.write_addr),
            self.e(&memory.write_data)
        )
        .unwrap();
        let read = format!("{read_data} <= {array}[{}];", self.e(&memory.read_addr));
        match memory.read_condition() {
            Some(inside) => writeln!(out, "        if ({}) {read}", self.e(&inside)).unwrap(),
            None => writeln!(out, "        {read}").unwrap(),
        }
        *out += "    end\n";
    }

    fn instance(&self, out: &mut String, instance: Instance) {
        writeln!(out, "    {} {} (", instance.module, instance.label).unwrap();
        let count = instance.connections.len();
        for (i, (port, value)) in instance.connections.iter().enumerate() {
            let comma = if i + 1 < count { "," } else { "" };
            writeln!(out, "        .{port}({}){comma}", self.e(value)).unwrap();
        }
        *out += "    );\n";
    }
}

/// Registers, case targets, C elements and memories' read data are assigned in `always`
/// blocks, so Verilog wants `reg`; the last two are the signals with an initial value.
fn drives_procedurally(module: &Module, id: SignalId) -> bool {
    module.is_register(id) || module.is_case_target(id) || module.initial_value(id).is_some()
}

fn range(width: u32) -> String {
    if width == 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

fn literal(width: u32, value: u64) -> String {
    if width == 1 {
        format!("1'b{value}")
    } else {
        format!("{width}'d{value}")
    }
}

fn expression(expr: &Expr, module: &Module, names: &ModuleNames) -> String {
    expr::print(expr, module, names, &VerilogSyntax)
}

struct VerilogSyntax;

impl Syntax for VerilogSyntax {
    fn literal(&self, width: u32, value: u64) -> String {
        literal(width, value)
    }

    fn bit_select(&self, name: &str, bit: u32) -> String {
        format!("{name}[{bit}]")
    }

    fn range_select(&self, name: &str, high: u32, low: u32) -> String {
        format!("{name}[{high}:{low}]")
    }

    fn concat(&self, parts: &[String]) -> String {
        format!("{{{}}}", parts.join(", "))
    }

    fn unary(&self, op: UnaryOp, operand: Operand) -> String {
        let symbol = match op {
            UnaryOp::Not => "~",
            UnaryOp::ReduceOr => "|",
            UnaryOp::ReduceAnd => "&",
        };
        format!("({symbol}{})", operand.text)
    }

    fn binary(&self, op: BinaryOp, a: Operand, b: Operand) -> String {
        let symbol = match op {
            BinaryOp::And => "&",
            BinaryOp::Or => "|",
            BinaryOp::Xor => "^",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
        };
        format!("({} {symbol} {})", a.text, b.text)
    }

    fn mux(&self, cond: &str, then: &str, otherwise: &str) -> String {
        format!("({cond} ? {then} : {otherwise})")
    }
}
