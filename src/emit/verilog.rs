//! Prints the IR as Verilog-2005: one module per file, `verilog/<module>.v`.
//!
//! Every operator is parenthesised and every literal carries its width, so the text means
//! the same to every tool and lints clean under `verilator -Wall`. A C element's target is
//! a `reg` with its initial value, set and cleared in an `always @*` block that Icarus
//! Verilog simulates; Verilator lints only synchronous designs, which have none. A memory
//! is an array `reg [W-1:0] m [0:DEPTH-1]` zeroed by an `initial` loop, written and read
//! into its `reg` read data in one `always @(posedge clk)`, which yosys infers as a RAM.

use crate::emit::expr::{self, Operand, Syntax};
use crate::emit::names::{DesignNames, ModuleNames};
use crate::emit::{Backend, GeneratedFile, Provenance};
use crate::rtl::ir::{
    BinaryOp, Design, Direction, Expr, Module, SignalId, SignalKind, Statement, UnaryOp,
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
    out += ");\n";
    if !module.constants.is_empty() {
        out += "\n";
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
    let internals: Vec<_> = (0..module.signals.len())
        .filter(|&i| module.signals[i].kind == SignalKind::Internal)
        .collect();
    if !internals.is_empty() {
        out += "\n";
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
    let clocking = module.clocking;
    let mut instances = local.instances.iter();
    let mut memories = local.memories.iter();
    for item in &module.items {
        out += "\n";
        for line in item.doc.lines() {
            writeln!(out, "    // {line}").unwrap();
        }
        let e = |expr: &Expr| expression(expr, module, local);
        match &item.statement {
            Statement::Assign { target, value } => {
                writeln!(
                    out,
                    "    assign {} = {};",
                    local.signals[target.0 as usize],
                    e(value)
                )
                .unwrap();
            }
            Statement::Register {
                target,
                reset,
                next,
            } => {
                let clocking = clocking.expect("validated: registers have a clock");
                let name = &local.signals[target.0 as usize];
                writeln!(
                    out,
                    "    always @(posedge {}) begin",
                    local.signals[clocking.clock.0 as usize]
                )
                .unwrap();
                writeln!(
                    out,
                    "        if ({}) {name} <= {};",
                    local.signals[clocking.reset.0 as usize],
                    literal(module.sig(*target).width, *reset)
                )
                .unwrap();
                writeln!(out, "        else {name} <= {};", e(next)).unwrap();
                out += "    end\n";
            }
            Statement::Case {
                target,
                selector,
                arms,
                default,
            } => {
                let name = &local.signals[target.0 as usize];
                out += "    always @* begin\n";
                writeln!(out, "        case ({})", local.signals[selector.0 as usize]).unwrap();
                for (label, value) in arms {
                    writeln!(out, "            {}: {name} = {};", e(label), e(value)).unwrap();
                }
                writeln!(out, "            default: {name} = {};", e(default)).unwrap();
                out += "        endcase\n    end\n";
            }
            Statement::CElement { target, inputs, .. } => {
                let name = &local.signals[target.0 as usize];
                let when = expr::c_element(inputs, module, local, &VerilogSyntax);
                writeln!(
                    out,
                    "    always @* begin
        if ({}) {name} = 1'b1;
        else if ({}) {name} = 1'b0;
    end",
                    when.set, when.clear
                )
                .unwrap();
            }
            Statement::Memory(memory) => {
                let clocking = clocking.expect("validated: memories have a clock");
                let names = memories.next().expect("names for every memory");
                let (array, index) = (&names.array, &names.index);
                let read_data = &local.signals[memory.read_data.0 as usize];
                let depth = memory.depth;
                writeln!(
                    out,
                    "    reg  {}{array} [0:{}];\n    integer {index};",
                    range(memory.width),
                    depth - 1
                )
                .unwrap();
                // Power-up contents: an initial block, which yosys turns into the block
                // RAM's initialisation, and the only way Verilog-2005 has to fill an array.
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
                    "    always @(posedge {}) begin
        if ({}) {array}[{}] <= {};",
                    local.signals[clocking.clock.0 as usize],
                    e(&memory.write_condition()),
                    e(&memory.write_addr),
                    e(&memory.write_data)
                )
                .unwrap();
                let read = format!("{read_data} <= {array}[{}];", e(&memory.read_addr));
                match memory.read_condition() {
                    Some(inside) => writeln!(out, "        if ({}) {read}", e(&inside)).unwrap(),
                    None => writeln!(out, "        {read}").unwrap(),
                }
                out += "    end\n";
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
                writeln!(out, "    {} {label} (", callee_names.module).unwrap();
                let ports: Vec<_> = callee_module.ports().collect();
                for (i, ((port_id, _), (_, value))) in ports.iter().zip(connections).enumerate() {
                    let comma = if i + 1 < connections.len() { "," } else { "" };
                    writeln!(
                        out,
                        "        .{}({}){comma}",
                        callee_names.signals[port_id.0 as usize],
                        e(value)
                    )
                    .unwrap();
                }
                out += "    );\n";
            }
        }
    }
    out += "\nendmodule\n\n`default_nettype wire\n";
    out
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
