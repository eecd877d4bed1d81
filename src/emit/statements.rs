//! The walk over a module's statements that both printers share: the order, each
//! statement's doc comment, and the legal names it needs (labels, clock and reset, a
//! callee's module and ports) are decided here; the text by each language's
//! [`StatementPrinter`].
//!
//! In: a validated module, its names and the design's (for callees). Out: the module's
//! statements appended to the text, each after a blank line.

use crate::emit::names::{DesignNames, MemoryNames, ModuleNames};
use crate::rtl::ir::{Design, Expr, Memory, Module, ResetStyle, SignalId, Statement};
use std::fmt::Write;

/// A register statement with its names resolved.
pub struct Register<'a> {
    pub target: &'a str,
    pub width: u32,
    /// The target's value while the reset is on.
    pub reset_value: u64,
    pub next: &'a Expr,
    pub clock: &'a str,
    pub reset: &'a str,
    /// How `reset` resets: its level, and whether it waits for the clock edge.
    pub style: ResetStyle,
    /// VHDL: the label of its process.
    pub label: &'a str,
}

/// A case statement with its names resolved.
pub struct Case<'a> {
    pub target: &'a str,
    pub selector: &'a str,
    /// (label, value), in order.
    pub arms: &'a [(Expr, Expr)],
    pub default: &'a Expr,
}

/// An instance statement with its names resolved.
pub struct Instance<'a> {
    pub label: &'a str,
    /// The callee's legal module name.
    pub module: &'a str,
    /// The callee's legal port names with what each is connected to, in its port order.
    pub connections: Vec<(&'a str, &'a Expr)>,
}

/// How one language prints each kind of statement.
pub trait StatementPrinter {
    /// What opens a comment line.
    const COMMENT: &'static str;
    fn assign(&self, out: &mut String, target: &str, value: &Expr);
    fn register(&self, out: &mut String, register: Register);
    fn case(&self, out: &mut String, case: Case);
    fn c_element(&self, out: &mut String, target: &str, inputs: &[Expr]);
    fn memory(&self, out: &mut String, memory: &Memory, names: &MemoryNames, clock: &str);
    fn instance(&self, out: &mut String, instance: Instance);
}

/// Appends every statement of `module` to `out`, in the IR's order, each after a blank
/// line and its doc comment.
pub fn print_statements<P: StatementPrinter>(
    out: &mut String,
    module: &Module,
    local: &ModuleNames,
    names: &DesignNames,
    design: &Design,
    printer: &P,
) {
    let signal = |id: SignalId| local.signals[id.0 as usize].as_str();
    let mut instances = local.instances.iter();
    let mut processes = local.processes.iter();
    let mut memories = local.memories.iter();
    for item in &module.items {
        *out += "\n";
        for line in item.doc.lines() {
            writeln!(out, "    {} {line}", P::COMMENT).unwrap();
        }
        match &item.statement {
            Statement::Assign { target, value } => printer.assign(out, signal(*target), value),
            Statement::Register {
                target,
                reset,
                next,
            } => {
                let clocking = module.clocking.expect("validated: registers have a clock");
                let register = Register {
                    target: signal(*target),
                    width: module.sig(*target).width,
                    reset_value: *reset,
                    next,
                    clock: signal(clocking.clock),
                    reset: signal(clocking.reset),
                    style: clocking.style,
                    label: processes.next().expect("one label per register"),
                };
                printer.register(out, register);
            }
            Statement::Case {
                target,
                selector,
                arms,
                default,
            } => printer.case(
                out,
                Case {
                    target: signal(*target),
                    selector: signal(*selector),
                    arms,
                    default,
                },
            ),
            Statement::CElement { target, inputs, .. } => {
                printer.c_element(out, signal(*target), inputs)
            }
            Statement::Memory(memory) => {
                let clocking = module.clocking.expect("validated: memories have a clock");
                let memory_names = memories.next().expect("names for every memory");
                printer.memory(out, memory, memory_names, signal(clocking.clock));
            }
            Statement::Instance {
                module: callee,
                connections,
                ..
            } => {
                let label = instances.next().expect("one label per instance");
                printer.instance(out, instance(label, callee, connections, names, design));
            }
        }
    }
}

/// An instance of `callee` labelled `label`, its connections named by the callee's ports.
fn instance<'a>(
    label: &'a str,
    callee: &str,
    connections: &'a [(String, Expr)],
    names: &'a DesignNames,
    design: &'a Design,
) -> Instance<'a> {
    let callee = design
        .module(callee)
        .expect("validated: instances name earlier modules");
    let callee_names = names.of(callee);
    Instance {
        label,
        module: &callee_names.module,
        connections: callee
            .ports()
            .zip(connections)
            .map(|((port, _), (_, value))| (callee_names.signals[port.0 as usize].as_str(), value))
            .collect(),
    }
}
