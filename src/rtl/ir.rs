//! The hardware IR: modules of signals, named constants and statements.
//!
//! A [`Module`] owns its signals and constants in arenas indexed by [`SignalId`] and
//! [`ConstId`]. Statements are continuous assignments, registers with a synchronous
//! active-high reset on the module's one clock, combinational case tables (state machines,
//! ROMs, decoders), instances of other modules, RAMs with one synchronous write and one
//! synchronous read port ([`Memory`]), and Muller C elements, the one element with
//! feedback. Every value has an explicit width and operands of an operator have equal
//! widths: the backends never extend or truncate implicitly, so what is printed is exactly
//! what is meant in both languages.
//!
//! [`Module::validate`] rejects a module that a backend could not print lint-clean: width
//! mismatches, signals driven twice or not at all, and bits that nothing reads.
//! [`Design::validate`] also keeps C elements out of a [`Timing::Synchronous`] design, the
//! only kind that lint, equivalence proofs and synthesis accept, and holds every clocked
//! module of a design to one reset style.

use crate::choice::{Choice, choice};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use thiserror::Error;

/// A signal of one module: an index into [`Module::signals`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SignalId(pub(crate) u32);

/// A named constant of one module: an index into [`Module::constants`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstId(pub(crate) u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignalKind {
    Port(Direction),
    /// Internal to the module; driven by exactly one statement.
    Internal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signal {
    pub name: String,
    pub width: u32,
    pub kind: SignalKind,
    /// What the signal carries, printed beside its declaration.
    pub doc: String,
}

/// A constant with a name, such as a state of a state machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    pub name: String,
    pub width: u32,
    pub value: u64,
    pub doc: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// Bitwise complement; same width.
    Not,
    /// OR of all bits; width 1.
    ReduceOr,
    /// AND of all bits; width 1.
    ReduceAnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// Bitwise; operands and result of one width.
    And,
    Or,
    Xor,
    /// Unsigned, modulo 2^width; operands and result of one width.
    Add,
    Sub,
    /// Comparisons of unsigned operands of one width; width 1.
    Eq,
    Ne,
    Lt,
}

/// A value. Operand order is left to right as written; in [`Expr::Concat`] the first part
/// is the most significant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    Signal(SignalId),
    /// Bits `lo .. lo+width` of a signal (slices of expressions print in neither language).
    Slice {
        signal: SignalId,
        lo: u32,
        width: u32,
    },
    /// An unsigned literal; `value` must fit in `width` bits.
    Const {
        width: u32,
        value: u64,
    },
    Named(ConstId),
    Concat(Vec<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `cond ? then : otherwise`; `cond` has width 1.
    Mux {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
}

impl Expr {
    pub fn konst(width: u32, value: u64) -> Expr {
        Expr::Const { width, value }
    }

    pub fn bit(value: bool) -> Expr {
        Expr::konst(1, value as u64)
    }

    pub fn zero(width: u32) -> Expr {
        Expr::konst(width, 0)
    }

    pub fn concat(parts: Vec<Expr>) -> Expr {
        match <[Expr; 1]>::try_from(parts) {
            Ok([only]) => only,
            Err(parts) => Expr::Concat(parts),
        }
    }

    pub fn any(self) -> Expr {
        Expr::Unary(UnaryOp::ReduceOr, Box::new(self))
    }

    pub fn all(self) -> Expr {
        Expr::Unary(UnaryOp::ReduceAnd, Box::new(self))
    }

    fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    pub fn and(self, other: Expr) -> Expr {
        Expr::binary(BinaryOp::And, self, other)
    }

    pub fn or(self, other: Expr) -> Expr {
        Expr::binary(BinaryOp::Or, self, other)
    }

    pub fn xor(self, other: Expr) -> Expr {
        Expr::binary(BinaryOp::Xor, self, other)
    }

    pub fn eq(self, other: Expr) -> Expr {
        Expr::binary(BinaryOp::Eq, self, other)
    }

    pub fn ne(self, other: Expr) -> Expr {
        Expr::binary(BinaryOp::Ne, self, other)
    }

    pub fn lt(self, other: Expr) -> Expr {
        Expr::binary(BinaryOp::Lt, self, other)
    }

    /// `cond ? then : otherwise`.
    pub fn mux(cond: Expr, then: Expr, otherwise: Expr) -> Expr {
        Expr::Mux {
            cond: Box::new(cond),
            then: Box::new(then),
            otherwise: Box::new(otherwise),
        }
    }

    /// AND of all `terms`; true when there are none.
    pub fn and_all(terms: impl IntoIterator<Item = Expr>) -> Expr {
        terms
            .into_iter()
            .reduce(Expr::and)
            .unwrap_or(Expr::bit(true))
    }

    /// OR of all `terms`; false when there are none.
    pub fn or_all(terms: impl IntoIterator<Item = Expr>) -> Expr {
        terms
            .into_iter()
            .reduce(Expr::or)
            .unwrap_or(Expr::bit(false))
    }
}

/// Bitwise complement.
impl std::ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::Unary(UnaryOp::Not, Box::new(self))
    }
}

/// Unsigned sum modulo 2^width.
impl std::ops::Add for Expr {
    type Output = Expr;
    fn add(self, other: Expr) -> Expr {
        Expr::binary(BinaryOp::Add, self, other)
    }
}

/// Unsigned difference modulo 2^width.
impl std::ops::Sub for Expr {
    type Output = Expr;
    fn sub(self, other: Expr) -> Expr {
        Expr::binary(BinaryOp::Sub, self, other)
    }
}

impl From<SignalId> for Expr {
    fn from(id: SignalId) -> Expr {
        Expr::Signal(id)
    }
}

impl From<ConstId> for Expr {
    fn from(id: ConstId) -> Expr {
        Expr::Named(id)
    }
}

/// One line of a module body. `doc` on [`Item`] says what the statement is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Statement {
    /// `target = value`, continuously.
    Assign { target: SignalId, value: Expr },
    /// On each rising clock edge: `target <= reset asserted ? reset : next`; under
    /// [`ResetStyle::AsyncLow`] also `target <= reset` as soon as the reset asserts.
    Register {
        target: SignalId,
        reset: u64,
        next: Expr,
    },
    /// `target = value of the first arm whose label equals selector, else default`; the
    /// selector is a whole signal and labels are constants, all distinct.
    Case {
        target: SignalId,
        selector: SignalId,
        arms: Vec<(Expr, Expr)>,
        default: Expr,
    },
    /// An instance of `module`; every port connected, inputs to values, outputs to whole
    /// signals, in the callee's port order.
    Instance {
        module: String,
        name: String,
        connections: Vec<(String, Expr)>,
    },
    /// A Muller C element: the 1-bit `target` becomes 1 when all `inputs` (2 or more, of
    /// 1 bit each) are 1, 0 when all are 0, and otherwise keeps its value, that is
    /// `target = AND(inputs) | (target & OR(inputs))`. It is a loop, which has no defined
    /// start of its own, so `init` is its value at time 0. Only a
    /// [`Timing::SelfTimed`] design may hold one.
    CElement {
        target: SignalId,
        inputs: Vec<Expr>,
        init: bool,
    },
    /// A RAM on the module's clock; see [`Memory`].
    Memory(Memory),
}

/// A RAM of `depth` words (2 to 65536) of `width` bits (1 to 64) in a clocked module, with
/// one synchronous write port and one synchronous read port.
///
/// On each rising clock edge, when the 1-bit `write_enable` is 1, the word at `write_addr`
/// becomes `write_data` (`width` bits), and `read_data` becomes the word at `read_addr`.
/// `read_data` is a register of `width` bits, as a block RAM's output is: it shows the word
/// one clock edge after its address, and when one cycle reads and writes one address it
/// reads the OLD word. It is an internal signal driven by this statement alone (internal
/// because its power-up value is printed with its declaration). Both addresses are exactly
/// [`Memory::address_width`]`(depth)` bits. When `depth` is not a power of two an address
/// can point past the last word: a write there changes nothing and a read there keeps
/// `read_data` as it was, which both languages can say without an index out of range.
///
/// Every word and `read_data` start at zero. These are power-up values, not a reset: the
/// module's reset does not clear a RAM, which a block RAM cannot do. They make every
/// simulator and yosys agree from the first cycle, with no word ever unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    /// The array's name, legalised in each language like a signal's.
    pub name: String,
    pub depth: u32,
    pub width: u32,
    pub write_enable: Expr,
    pub write_addr: Expr,
    pub write_data: Expr,
    pub read_addr: Expr,
    pub read_data: SignalId,
}

impl Memory {
    /// Words a memory may hold: from two, which need one address bit, to 2^16.
    pub const DEPTHS: std::ops::RangeInclusive<u32> = 2..=65536;
    /// Bits a word may hold.
    pub const WIDTHS: std::ops::RangeInclusive<u32> = 1..=64;

    /// Bits of an address of a memory of `depth` words: ceil(log2(depth)), the bits of the
    /// last word's address.
    pub fn address_width(depth: u32) -> u32 {
        crate::bits::ceil_log2(depth.into())
    }

    /// Whether an address can point past the last word.
    fn has_holes(&self) -> bool {
        !self.depth.is_power_of_two()
    }

    /// When a clock edge writes: the write enable, and the write address inside the RAM
    /// when an address can point past it.
    pub fn write_condition(&self) -> Expr {
        match self.has_holes() {
            true => self.write_enable.clone().and(self.inside(&self.write_addr)),
            false => self.write_enable.clone(),
        }
    }

    /// When a clock edge loads `read_data`: the read address inside the RAM; `None` when
    /// every address is, and every edge loads it.
    pub fn read_condition(&self) -> Option<Expr> {
        self.has_holes().then(|| self.inside(&self.read_addr))
    }

    /// `address < depth`.
    fn inside(&self, address: &Expr) -> Expr {
        let depth = Expr::konst(Memory::address_width(self.depth), self.depth.into());
        address.clone().lt(depth)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub doc: String,
    pub statement: Statement,
}

choice! {
    /// How a clocked module's registers are reset: the reset port's name and level, and
    /// whether it acts on the clock edge. One style holds for a whole design
    /// ([`Design::validate`]); RAMs are never reset, whatever the style.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum ResetStyle {
        #[default]
        SyncHigh = "sync-high":
            "Port rst, active high, sampled on the rising clock edge (the default: the form the designs were written and proved in)",
        SyncLow = "sync-low":
            "Port rst_n, active low, sampled on the rising clock edge",
        AsyncLow = "async-low":
            "Port rst_n, active low, resets every register at once; release it in step with clk",
    }
}

impl ResetStyle {
    /// The reset port's name: `rst` active high, `rst_n` active low.
    pub fn port(self) -> &'static str {
        match self.active_high() {
            true => "rst",
            false => "rst_n",
        }
    }

    /// The level of the port that resets: 1 or 0.
    pub fn active_high(self) -> bool {
        self == ResetStyle::SyncHigh
    }

    /// Whether registers reset without waiting for the clock edge.
    pub fn is_async(self) -> bool {
        self == ResetStyle::AsyncLow
    }

    /// The reset port's documentation.
    pub fn doc(self) -> &'static str {
        match self {
            ResetStyle::SyncHigh => "synchronous reset, active high",
            ResetStyle::SyncLow => "synchronous reset, active low",
            ResetStyle::AsyncLow => "asynchronous reset, active low; release it in step with clk",
        }
    }

    pub fn is_default(&self) -> bool {
        *self == ResetStyle::default()
    }
}

/// The module's clock and reset, and the reset's style; required by registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocking {
    pub clock: SignalId,
    /// The reset port, named and active as `style` says.
    pub reset: SignalId,
    pub style: ResetStyle,
}

impl Clocking {
    /// The reset as an active-high value, for logic that reads it as data (a buffer that
    /// takes nothing while the reset is on): the port itself, or its complement.
    pub fn asserted(&self) -> Expr {
        match self.style.active_high() {
            true => self.reset.into(),
            false => !Expr::from(self.reset),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    pub name: String,
    /// What the module is for: printed as its header comment.
    pub doc: Vec<String>,
    pub signals: Vec<Signal>,
    pub constants: Vec<Constant>,
    pub items: Vec<Item>,
    pub clocking: Option<Clocking>,
}

/// How a design keeps time, which decides the tools that can check it.
/// Recorded in the manifest as `"timing":"self-timed"`; synchronous when absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    /// Every register on a clock and no loop without one: Verilator lint, yosys checks,
    /// the equivalence proof and synthesis with timing analysis all apply.
    #[default]
    Synchronous,
    /// Holds C elements, loops by design (the self-timed switch of the network-switch paper,
    /// Smit et al. 1991, makes its clock with one): only simulators and the analysers of both
    /// languages apply.
    SelfTimed,
}

impl Timing {
    pub fn is_synchronous(&self) -> bool {
        *self == Timing::Synchronous
    }

    /// `Ok` for a synchronous design; otherwise the error that `check` refuses `top`.
    pub fn require_synchronous(self, check: &'static str, top: &str) -> Result<(), SelfTimedError> {
        match self {
            Timing::Synchronous => Ok(()),
            Timing::SelfTimed => Err(SelfTimedError {
                check,
                top: top.to_string(),
            }),
        }
    }
}

/// A self-timed design offered to a check that assumes a clock and no loops.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "{check} needs a synchronous design, and {top} is self-timed: its C elements are combinational loops by design, with no clock to analyse its timing against"
)]
pub struct SelfTimedError {
    pub check: &'static str,
    pub top: String,
}

/// A whole design: modules in compile order (every module after those it instantiates),
/// the top one last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Design {
    pub modules: Vec<Module>,
    /// The unit's size parameters, recorded in file headers and the manifest.
    pub params: BTreeMap<String, u64>,
    /// One line saying what the design is.
    pub summary: String,
    pub timing: Timing,
}

impl Design {
    pub fn top(&self) -> &Module {
        self.modules.last().expect("a design has a top module")
    }

    /// How the design's registers are reset: its clocked modules' one style, the default
    /// when none is clocked.
    pub fn reset_style(&self) -> ResetStyle {
        self.modules
            .iter()
            .find_map(|m| m.clocking.map(|c| c.style))
            .unwrap_or_default()
    }

    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.name == name)
    }

    /// Validates every module and every instance against the module it names, and keeps
    /// C elements out of a synchronous design.
    pub fn validate(&self) -> Result<(), IrError> {
        for (i, module) in self.modules.iter().enumerate() {
            if self.modules[..i].iter().any(|m| m.name == module.name) {
                return Err(IrError::new(&module.name, "is defined twice".to_string()));
            }
            module.validate(&self.modules[..i])?;
            if let Some(clocking) = module.clocking
                && clocking.style != self.reset_style()
            {
                return Err(IrError::new(
                    &module.name,
                    format!(
                        "resets {} in a design whose other modules reset {}; a design has one reset style",
                        clocking.style.name(),
                        self.reset_style().name()
                    ),
                ));
            }
            if self.timing.is_synchronous() {
                let c_element = module.items.iter().find_map(|item| match item.statement {
                    Statement::CElement { target, .. } => Some(target),
                    _ => None,
                });
                if let Some(target) = c_element {
                    return Err(IrError::new(
                        &module.name,
                        format!(
                            "has C element {} in a synchronous design; only a self-timed design may hold one",
                            module.sig(target).name
                        ),
                    ));
                }
            }
        }
        if self.modules.is_empty() {
            return Err(IrError::new("design", "has no modules".to_string()));
        }
        Ok(())
    }
}

/// A port of one module, as the module's builder hands it to the builders of instances of
/// it: the module's name, which a design holds once, and the port's signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    module: String,
    name: String,
    signal: SignalId,
}

/// The values an instance binds to the ports of its module, checked by [`Module::instance`].
pub struct Connections<'a> {
    callee: &'a Module,
    bindings: Vec<(Port, Expr)>,
}

impl<'a> Connections<'a> {
    /// No port of `callee` bound yet.
    pub fn of(callee: &'a Module) -> Self {
        Connections {
            callee,
            bindings: Vec::new(),
        }
    }

    /// Binds `port` to `value`: a value for an input, a whole signal for an output.
    pub fn bind(mut self, port: &Port, value: impl Into<Expr>) -> Self {
        self.add(port, value);
        self
    }

    /// Binds `port` to `value`, in place; see [`Connections::bind`].
    pub fn add(&mut self, port: &Port, value: impl Into<Expr>) {
        self.bindings.push((port.clone(), value.into()));
    }

    /// Binds an optional port to an optional value: both present or both absent.
    pub fn bind_opt<E: Into<Expr>>(mut self, port: &Option<Port>, value: Option<E>) -> Self {
        match (port, value) {
            (Some(port), Some(value)) => self.add(port, value),
            (None, None) => {}
            (Some(port), None) => panic!(
                "module {}: no value for its port {}",
                self.callee.name, port.name
            ),
            (None, Some(_)) => panic!(
                "module {}: a value for an optional port it does not have",
                self.callee.name
            ),
        }
        self
    }

    /// Binds each of `ports` to the value beside it.
    pub fn bind_all<'p, E: Into<Expr>>(
        mut self,
        pairs: impl IntoIterator<Item = (&'p Port, E)>,
    ) -> Self {
        for (port, value) in pairs {
            self.add(port, value);
        }
        self
    }
}

/// Declares a struct of a module's ports, one [`Port`] field each, a `Vec<Port>` for a
/// field written `name: []` and an `Option<Port>` for `name: ?`; its builder fills it with
/// [`ports!`].
macro_rules! port_struct {
    ($(#[$attr:meta])* $vis:vis struct $name:ident { $($field:ident $(: $many:tt)?),* $(,)? }) => {
        $(#[$attr])*
        $vis struct $name {
            $(pub $field: $crate::rtl::ir::port_struct!(@type $($many)?),)*
        }
    };
    (@type) => { $crate::rtl::ir::Port };
    (@type []) => { Vec<$crate::rtl::ir::Port> };
    (@type ?) => { Option<$crate::rtl::ir::Port> };
}
pub(crate) use port_struct;

/// Fills a struct declared with [`port_struct!`] from the ports of `module`: each field
/// from the local signal of its name, `many: []` from a slice of them, `name = id` from the
/// signal `id`, `maybe: ?` from an optional one:
/// `ports!(m, Name { clk = clocking.clock, a, many: [], maybe: ? })`.
macro_rules! ports {
    ($module:expr, $name:ident { $($field:ident $(: $many:tt)? $(= $id:expr)?),* $(,)? }) => {
        $name {
            $($field: $crate::rtl::ir::ports!(@value $module, $field $(: $many)? $(= $id)?),)*
        }
    };
    (@value $module:expr, $field:ident) => { $module.port_of($field) };
    (@value $module:expr, $field:ident : []) => { $module.ports_of(&$field) };
    (@value $module:expr, $field:ident : ?) => { $field.map(|id| $module.port_of(id)) };
    (@value $module:expr, $field:ident = $id:expr) => { $module.port_of($id) };
}
pub(crate) use ports;

/// Why a module cannot be printed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("internal error: module {module} {message}")]
pub struct IrError {
    pub module: String,
    pub message: String,
}

impl IrError {
    fn new(module: &str, message: String) -> Self {
        IrError {
            module: module.to_string(),
            message,
        }
    }
}

impl Module {
    pub fn new(name: impl Into<String>, doc: &[&str]) -> Self {
        Module {
            name: name.into(),
            doc: doc.iter().map(|s| s.to_string()).collect(),
            signals: Vec::new(),
            constants: Vec::new(),
            items: Vec::new(),
            clocking: None,
        }
    }

    fn signal(&mut self, name: &str, width: u32, kind: SignalKind, doc: &str) -> SignalId {
        assert!(
            width > 0,
            "signal {name} of module {} has width 0",
            self.name
        );
        self.signals.push(Signal {
            name: name.to_string(),
            width,
            kind,
            doc: doc.to_string(),
        });
        SignalId(self.signals.len() as u32 - 1)
    }

    pub fn input(&mut self, name: &str, width: u32, doc: &str) -> SignalId {
        self.signal(name, width, SignalKind::Port(Direction::Input), doc)
    }

    pub fn output(&mut self, name: &str, width: u32, doc: &str) -> SignalId {
        self.signal(name, width, SignalKind::Port(Direction::Output), doc)
    }

    /// A port whose direction is a value: an input or an output.
    pub fn port(&mut self, name: &str, width: u32, direction: Direction, doc: &str) -> SignalId {
        self.signal(name, width, SignalKind::Port(direction), doc)
    }

    pub fn internal(&mut self, name: &str, width: u32, doc: &str) -> SignalId {
        self.signal(name, width, SignalKind::Internal, doc)
    }

    /// Adds the `clk` and `rst` inputs and makes them the module's clocking, reset in the
    /// default style ([`ResetStyle::SyncHigh`]); [`Design::with_reset`] restyles a design.
    pub fn clocked(&mut self) -> Clocking {
        let clock = self.input("clk", 1, "clock; everything changes on its rising edge");
        let style = ResetStyle::default();
        let reset = self.input(style.port(), 1, style.doc());
        let clocking = Clocking {
            clock,
            reset,
            style,
        };
        self.clocking = Some(clocking);
        clocking
    }

    pub fn constant(&mut self, name: &str, width: u32, value: u64, doc: &str) -> ConstId {
        self.constants.push(Constant {
            name: name.to_string(),
            width,
            value,
            doc: doc.to_string(),
        });
        ConstId(self.constants.len() as u32 - 1)
    }

    /// A state encoding: one `width`-bit constant per (name, doc) of `states`, numbered
    /// 0, 1, 2, ... in order.
    pub fn states(&mut self, width: u32, states: &[(&str, &str)]) -> Vec<ConstId> {
        states
            .iter()
            .enumerate()
            .map(|(i, (name, doc))| self.constant(name, width, i as u64, doc))
            .collect()
    }

    fn push(&mut self, doc: &str, statement: Statement) {
        self.items.push(Item {
            doc: doc.to_string(),
            statement,
        });
    }

    pub fn assign(&mut self, target: SignalId, value: Expr, doc: &str) {
        self.push(doc, Statement::Assign { target, value });
    }

    pub fn register(&mut self, target: SignalId, reset: u64, next: Expr, doc: &str) {
        self.push(
            doc,
            Statement::Register {
                target,
                reset,
                next,
            },
        );
    }

    pub fn case(
        &mut self,
        target: SignalId,
        selector: SignalId,
        arms: Vec<(Expr, Expr)>,
        default: Expr,
        doc: &str,
    ) {
        self.push(
            doc,
            Statement::Case {
                target,
                selector,
                arms,
                default,
            },
        );
    }

    /// A Muller C element driving `target`, which starts as `init`; see
    /// [`Statement::CElement`].
    pub fn c_element(&mut self, target: SignalId, inputs: Vec<Expr>, init: bool, doc: &str) {
        self.push(
            doc,
            Statement::CElement {
                target,
                inputs,
                init,
            },
        );
    }

    /// A RAM; see [`Memory`].
    pub fn memory(&mut self, memory: Memory, doc: &str) {
        self.push(doc, Statement::Memory(memory));
    }

    /// Instantiates `callee` as `name` with the ports `connections` binds.
    ///
    /// Panics, naming this module, the instance and the port, when a port is left unbound
    /// or bound twice, when a value's width differs from its port's, or when a port belongs
    /// to another module: each is a bug of the generator, not of its input. The instance
    /// lists its connections in the callee's port order.
    pub fn instance(&mut self, name: &str, connections: Connections, doc: &str) {
        let callee = connections.callee;
        let fail = |problem: String| -> ! {
            panic!(
                "module {} instance {name} of {}: {problem}",
                self.name, callee.name
            )
        };
        let mut bound: Vec<Option<Expr>> = vec![None; callee.signals.len()];
        for (port, value) in connections.bindings {
            if port.module != callee.name {
                fail(format!("binds port {} of {}", port.name, port.module));
            }
            let signal = callee.sig(port.signal);
            if let Ok(got) = self.width_of(&value)
                && got != signal.width
            {
                fail(format!(
                    "binds port {} ({} bits) to {got} bits",
                    signal.name, signal.width
                ));
            }
            if bound[port.signal.0 as usize].replace(value).is_some() {
                fail(format!("binds port {} twice", signal.name));
            }
        }
        let ordered = callee
            .ports()
            .map(|(id, port)| match bound[id.0 as usize].take() {
                Some(value) => (port.name.clone(), value),
                None => fail(format!("leaves port {} unbound", port.name)),
            })
            .collect();
        self.push(
            doc,
            Statement::Instance {
                module: callee.name.clone(),
                name: name.to_string(),
                connections: ordered,
            },
        );
    }

    /// The port `id` of this module, for an instance of it to bind.
    pub fn port_of(&self, id: SignalId) -> Port {
        let signal = self.sig(id);
        assert!(
            matches!(signal.kind, SignalKind::Port(_)),
            "module {}: {} is not a port",
            self.name,
            signal.name
        );
        Port {
            module: self.name.clone(),
            name: signal.name.clone(),
            signal: id,
        }
    }

    /// The ports `ids` of this module, in order; see [`Module::port_of`].
    pub fn ports_of(&self, ids: &[SignalId]) -> Vec<Port> {
        ids.iter().map(|&id| self.port_of(id)).collect()
    }

    /// Every port of this module with its handle, in port order: for a wrapper that binds
    /// them all.
    pub fn port_handles(&self) -> impl Iterator<Item = (Port, &Signal)> {
        self.ports().map(|(id, signal)| (self.port_of(id), signal))
    }

    /// The port called `name`, for a caller that has only this module, not its builder's
    /// port handles (a top taken from another [`Design`]); panics when there is none.
    pub fn port_named(&self, name: &str) -> Port {
        let (id, _) = self
            .ports()
            .find(|(_, port)| port.name == name)
            .unwrap_or_else(|| panic!("module {} has no port {name}", self.name));
        self.port_of(id)
    }

    pub fn sig(&self, id: SignalId) -> &Signal {
        &self.signals[id.0 as usize]
    }

    pub fn konst(&self, id: ConstId) -> &Constant {
        &self.constants[id.0 as usize]
    }

    /// The ports in declaration order.
    pub fn ports(&self) -> impl Iterator<Item = (SignalId, &Signal)> {
        self.signals
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.kind, SignalKind::Port(_)))
            .map(|(i, s)| (SignalId(i as u32), s))
    }

    /// Signals that are the target of a register statement.
    pub fn is_register(&self, id: SignalId) -> bool {
        self.items.iter().any(
            |item| matches!(item.statement, Statement::Register { target, .. } if target == id),
        )
    }

    /// Signals that are the target of a case statement.
    pub fn is_case_target(&self, id: SignalId) -> bool {
        self.items
            .iter()
            .any(|item| matches!(item.statement, Statement::Case { target, .. } if target == id))
    }

    /// The value at time 0 of a C element's target or a memory's `read_data`; `None` for
    /// every other signal, which has no value of its own before its driver's first
    /// evaluation.
    pub fn initial_value(&self, id: SignalId) -> Option<u64> {
        self.items.iter().find_map(|item| match &item.statement {
            Statement::CElement { target, init, .. } if *target == id => Some(u64::from(*init)),
            Statement::Memory(memory) if memory.read_data == id => Some(0),
            _ => None,
        })
    }

    /// The memories, in statement order.
    pub fn memories(&self) -> impl Iterator<Item = &Memory> {
        self.items.iter().filter_map(|item| match &item.statement {
            Statement::Memory(memory) => Some(memory),
            _ => None,
        })
    }

    /// The width of `expr`, checking every operator's operands on the way.
    pub fn width_of(&self, expr: &Expr) -> Result<u32, IrError> {
        let fail = |message: String| Err(IrError::new(&self.name, message));
        match expr {
            Expr::Signal(id) => Ok(self.sig(*id).width),
            Expr::Slice { signal, lo, width } => {
                let s = self.sig(*signal);
                if *width == 0 || lo + width > s.width {
                    return fail(format!(
                        "slices bits {lo}+{width} of {} ({} bits)",
                        s.name, s.width
                    ));
                }
                Ok(*width)
            }
            Expr::Const { width, value } => {
                if *width == 0 || (*width < 64 && value >> width != 0) {
                    return fail(format!(
                        "has constant {value} that does not fit {width} bits"
                    ));
                }
                Ok(*width)
            }
            Expr::Named(id) => Ok(self.konst(*id).width),
            Expr::Concat(parts) => {
                if parts.is_empty() {
                    return fail("has an empty concatenation".to_string());
                }
                parts.iter().map(|p| self.width_of(p)).sum()
            }
            Expr::Unary(op, a) => {
                let w = self.width_of(a)?;
                Ok(if *op == UnaryOp::Not { w } else { 1 })
            }
            Expr::Binary(op, a, b) => {
                let (wa, wb) = (self.width_of(a)?, self.width_of(b)?);
                if wa != wb {
                    return fail(format!("applies {op:?} to widths {wa} and {wb}"));
                }
                Ok(match op {
                    BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt => 1,
                    _ => wa,
                })
            }
            Expr::Mux {
                cond,
                then,
                otherwise,
            } => {
                let wc = self.width_of(cond)?;
                let (wt, wo) = (self.width_of(then)?, self.width_of(otherwise)?);
                if wc != 1 || wt != wo {
                    return fail(format!(
                        "has a mux of condition width {wc} and arms {wt}, {wo}"
                    ));
                }
                Ok(wt)
            }
        }
    }

    /// Checks widths, drivers and uses; see the module documentation.
    pub fn validate(&self, earlier: &[Module]) -> Result<(), IrError> {
        self.validate_clocking()?;
        let mut usage = Usage::new(self);
        for item in &self.items {
            match &item.statement {
                Statement::Assign { target, value } => {
                    self.expect_width(*target, value)?;
                    usage.drive(*target);
                    usage.read(value);
                }
                Statement::Register {
                    target,
                    reset,
                    next,
                } => self.validate_register(*target, *reset, next, &mut usage)?,
                Statement::Case {
                    target,
                    selector,
                    arms,
                    default,
                } => self.validate_case(*target, *selector, arms, default, &mut usage)?,
                Statement::CElement { target, inputs, .. } => {
                    self.validate_c_element(*target, inputs, &mut usage)?
                }
                Statement::Memory(memory) => {
                    self.validate_memory(memory)?;
                    let clocking = self.clocking.expect("validated: memories have a clock");
                    usage.drive(memory.read_data);
                    for port in [
                        &memory.write_enable,
                        &memory.write_addr,
                        &memory.write_data,
                        &memory.read_addr,
                        &clocking.clock.into(),
                    ] {
                        usage.read(port);
                    }
                }
                Statement::Instance {
                    module,
                    name,
                    connections,
                } => self.validate_instance(module, name, connections, earlier, &mut usage)?,
            }
        }
        self.validate_usage(&usage)
    }

    /// Checks that the clock and the reset are inputs of one bit, the reset named as its
    /// style says (`rst`, `rst_n`), which the backends and testbenches rely on.
    fn validate_clocking(&self) -> Result<(), IrError> {
        let Some(clocking) = self.clocking else {
            return Ok(());
        };
        let input = |id: SignalId| {
            let signal = self.sig(id);
            signal.kind == SignalKind::Port(Direction::Input) && signal.width == 1
        };
        let (clock, reset) = (self.sig(clocking.clock), self.sig(clocking.reset));
        if !input(clocking.clock) || !input(clocking.reset) {
            return Err(IrError::new(
                &self.name,
                format!(
                    "has clock {} and reset {}; both must be inputs of one bit",
                    clock.name, reset.name
                ),
            ));
        }
        if reset.name != clocking.style.port() {
            return Err(IrError::new(
                &self.name,
                format!(
                    "has a {} reset named {}; it must be named {}",
                    clocking.style.name(),
                    reset.name,
                    clocking.style.port()
                ),
            ));
        }
        Ok(())
    }

    /// Checks that `expr` has the width of `target`, which it drives.
    fn expect_width(&self, target: SignalId, expr: &Expr) -> Result<(), IrError> {
        let (want, got) = (self.sig(target).width, self.width_of(expr)?);
        if want != got {
            return Err(IrError::new(
                &self.name,
                format!(
                    "drives {} ({want} bits) with {got} bits",
                    self.sig(target).name
                ),
            ));
        }
        Ok(())
    }

    /// Checks a register's clock and widths; notes that it drives its target and reads
    /// its next value, the clock and the reset.
    fn validate_register(
        &self,
        target: SignalId,
        reset: u64,
        next: &Expr,
        usage: &mut Usage,
    ) -> Result<(), IrError> {
        let Some(clocking) = self.clocking else {
            return Err(IrError::new(
                &self.name,
                format!("has register {} but no clock", self.sig(target).name),
            ));
        };
        self.expect_width(target, next)?;
        self.expect_width(target, &Expr::konst(self.sig(target).width, reset))?;
        usage.drive(target);
        usage.read(next);
        usage.read(&clocking.clock.into());
        usage.read(&clocking.reset.into());
        Ok(())
    }

    /// Checks that a case's labels are distinct constants of the selector's width and its
    /// values have the target's width; notes what it drives and reads.
    fn validate_case(
        &self,
        target: SignalId,
        selector: SignalId,
        arms: &[(Expr, Expr)],
        default: &Expr,
        usage: &mut Usage,
    ) -> Result<(), IrError> {
        let fail = |message: String| Err(IrError::new(&self.name, message));
        let selector_width = self.sig(selector).width;
        let mut labels = std::collections::HashSet::new();
        for (label, value) in arms {
            let value_of_label = match label {
                Expr::Const { value, .. } => *value,
                Expr::Named(id) => self.konst(*id).value,
                _ => return fail("has a case label that is not a constant".to_string()),
            };
            if self.width_of(label)? != selector_width || !labels.insert(value_of_label) {
                return fail(format!(
                    "has case label {value_of_label} repeated or of the wrong width"
                ));
            }
            self.expect_width(target, value)?;
            usage.read(value);
        }
        self.expect_width(target, default)?;
        usage.read(default);
        usage.read(&selector.into());
        usage.drive(target);
        Ok(())
    }

    /// Checks that a C element drives one internal bit from two or more bits; notes what
    /// it drives and reads.
    fn validate_c_element(
        &self,
        target: SignalId,
        inputs: &[Expr],
        usage: &mut Usage,
    ) -> Result<(), IrError> {
        let fail = |message: String| Err(IrError::new(&self.name, message));
        let signal = self.sig(target);
        let name = &signal.name;
        if signal.kind != SignalKind::Internal {
            return fail(format!(
                "has C element {name} on a port; its target must be an internal signal"
            ));
        }
        if signal.width != 1 {
            return fail(format!(
                "has C element {name} of {} bits; its target must be 1 bit",
                signal.width
            ));
        }
        if inputs.len() < 2 {
            return fail(format!(
                "has C element {name} with too few inputs ({}); it needs at least 2",
                inputs.len()
            ));
        }
        for input in inputs {
            let width = self.width_of(input)?;
            if width != 1 {
                return fail(format!(
                    "has C element {name} with an input of {width} bits; each must be 1 bit"
                ));
            }
            usage.read(input);
        }
        // Holding its value is not a read: a C element that nothing else reads is as
        // useless as any other unread signal.
        usage.drive(target);
        Ok(())
    }

    /// Checks that an instance names an earlier module and connects each of its ports,
    /// in order, by name and width, outputs to whole signals; notes what it drives and
    /// reads.
    fn validate_instance(
        &self,
        module: &str,
        name: &str,
        connections: &[(String, Expr)],
        earlier: &[Module],
        usage: &mut Usage,
    ) -> Result<(), IrError> {
        let fail = |message: String| Err(IrError::new(&self.name, message));
        let Some(callee) = earlier.iter().find(|m| m.name == module) else {
            return fail(format!(
                "instantiates {module}, which is not defined before it"
            ));
        };
        let ports: Vec<(SignalId, &Signal)> = callee.ports().collect();
        if ports.len() != connections.len() {
            return fail(format!(
                "instance {name} connects {} of {} ports",
                connections.len(),
                ports.len()
            ));
        }
        self.validate_reset_passed(name, callee, connections)?;
        for ((_, port), (port_name, value)) in ports.iter().zip(connections) {
            let got = self.width_of(value)?;
            if &port.name != port_name || got != port.width {
                return fail(format!(
                    "instance {name} connects {port_name} ({got} bits) to port {} ({} bits)",
                    port.name, port.width
                ));
            }
            match (&port.kind, value) {
                (SignalKind::Port(Direction::Output), Expr::Signal(id)) => usage.drive(*id),
                (SignalKind::Port(Direction::Output), _) => {
                    return fail(format!(
                        "instance {name} drives {port_name} into something that is not a whole signal"
                    ));
                }
                _ => usage.read(value),
            }
        }
        Ok(())
    }

    /// Checks that an instance of a module with an asynchronous reset gets this module's
    /// own reset port: a reset made by logic could glitch, and a glitch on an asynchronous
    /// reset clears registers in the middle of a cycle.
    fn validate_reset_passed(
        &self,
        name: &str,
        callee: &Module,
        connections: &[(String, Expr)],
    ) -> Result<(), IrError> {
        let Some(theirs) = callee.clocking.filter(|c| c.style.is_async()) else {
            return Ok(());
        };
        let port = &callee.sig(theirs.reset).name;
        let value = connections.iter().find(|(p, _)| p == port).map(|(_, v)| v);
        let ours = self.clocking.filter(|c| c.style == theirs.style);
        match (ours, value) {
            (Some(ours), Some(Expr::Signal(id))) if *id == ours.reset => Ok(()),
            _ => Err(IrError::new(
                &self.name,
                format!(
                    "instance {name} gets an asynchronous reset on {port} that is not this module's own {port}"
                ),
            )),
        }
    }

    /// Checks that every signal but an input is driven exactly once, inputs never, and
    /// every bit of every signal but an output is read.
    fn validate_usage(&self, usage: &Usage) -> Result<(), IrError> {
        let fail = |message: String| Err(IrError::new(&self.name, message));
        for (i, signal) in self.signals.iter().enumerate() {
            let driven = usage.drivers[i];
            let is_input = signal.kind == SignalKind::Port(Direction::Input);
            match (is_input, driven) {
                (true, 0) | (false, 1) => {}
                (true, _) => return fail(format!("drives its input {}", signal.name)),
                (false, 0) => return fail(format!("never drives {}", signal.name)),
                (false, _) => return fail(format!("drives {} {driven} times", signal.name)),
            }
            let is_output = signal.kind == SignalKind::Port(Direction::Output);
            if !is_output && !usage.read[i].is_full() {
                return fail(format!("never reads some bits of {}", signal.name));
            }
        }
        Ok(())
    }

    /// Checks a memory's size and the widths of its ports; see [`Memory`].
    fn validate_memory(&self, memory: &Memory) -> Result<(), IrError> {
        let fail = |message: String| Err(IrError::new(&self.name, message));
        let Memory {
            name, depth, width, ..
        } = memory;
        if self.clocking.is_none() {
            return fail(format!("has memory {name} but no clock"));
        }
        if !Memory::DEPTHS.contains(depth) {
            return fail(format!(
                "has memory {name} of depth {depth}; a memory holds {} to {} words",
                Memory::DEPTHS.start(),
                Memory::DEPTHS.end()
            ));
        }
        if !Memory::WIDTHS.contains(width) {
            return fail(format!(
                "has memory {name} of width {width}; a word holds {} to {} bits",
                Memory::WIDTHS.start(),
                Memory::WIDTHS.end()
            ));
        }
        let address_width = Memory::address_width(*depth);
        let ports = [
            ("write enable", &memory.write_enable, 1),
            ("write address", &memory.write_addr, address_width),
            ("write data", &memory.write_data, *width),
            ("read address", &memory.read_addr, address_width),
            ("read data", &Expr::Signal(memory.read_data), *width),
        ];
        for (port, value, want) in ports {
            let got = self.width_of(value)?;
            if got != want {
                return fail(format!(
                    "has memory {name} ({depth} words of {width} bits) with a {port} of {got} bits; it takes {want}"
                ));
            }
        }
        let read_data = self.sig(memory.read_data);
        if read_data.kind != SignalKind::Internal {
            return fail(format!(
                "has memory {name} that reads into port {}; its read data must be an internal signal",
                read_data.name
            ));
        }
        Ok(())
    }
}

/// What a module's statements do to each of its signals, gathered by
/// [`Module::validate`]: how many statements drive it, and which of its bits are read.
struct Usage<'a> {
    module: &'a Module,
    drivers: Vec<u32>,
    read: Vec<BitSet>,
}

impl<'a> Usage<'a> {
    fn new(module: &'a Module) -> Self {
        Usage {
            module,
            drivers: vec![0; module.signals.len()],
            read: module
                .signals
                .iter()
                .map(|s| BitSet::new(s.width))
                .collect(),
        }
    }

    fn drive(&mut self, target: SignalId) {
        self.drivers[target.0 as usize] += 1;
    }

    /// Notes every bit that `expr` reads.
    fn read(&mut self, expr: &Expr) {
        visit_reads(expr, &mut |signal, bits| {
            let (lo, width) = bits.unwrap_or((0, self.module.sig(signal).width));
            self.read[signal.0 as usize].insert_range(lo, width);
        })
    }
}

/// The bits of one signal that something reads, of any width.
struct BitSet {
    width: u32,
    words: Vec<u64>,
}

impl BitSet {
    fn new(width: u32) -> Self {
        BitSet {
            width,
            words: vec![0; width.div_ceil(64) as usize],
        }
    }

    /// Marks bits `lo .. lo + width`.
    fn insert_range(&mut self, lo: u32, width: u32) {
        for bit in lo..lo + width {
            self.words[(bit / 64) as usize] |= 1 << (bit % 64);
        }
    }

    fn is_full(&self) -> bool {
        (0..self.width).all(|bit| self.words[(bit / 64) as usize] >> (bit % 64) & 1 == 1)
    }
}

/// Calls `f(signal, Some((lo, width)))` for every slice `expr` reads and `f(signal, None)`
/// for every whole signal.
fn visit_reads(expr: &Expr, f: &mut impl FnMut(SignalId, Option<(u32, u32)>)) {
    match expr {
        Expr::Signal(id) => f(*id, None),
        Expr::Slice { signal, lo, width } => f(*signal, Some((*lo, *width))),
        Expr::Const { .. } | Expr::Named(_) => {}
        Expr::Concat(parts) => parts.iter().for_each(|p| visit_reads(p, f)),
        Expr::Unary(_, a) => visit_reads(a, f),
        Expr::Binary(_, a, b) => {
            visit_reads(a, f);
            visit_reads(b, f);
        }
        Expr::Mux {
            cond,
            then,
            otherwise,
        } => {
            visit_reads(cond, f);
            visit_reads(then, f);
            visit_reads(otherwise, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `y = a & b` over 4 bits, with the given extra statements.
    fn module(extra: impl FnOnce(&mut Module, SignalId, SignalId, SignalId)) -> Module {
        let mut m = Module::new("m", &["test"]);
        let a = m.input("a", 4, "");
        let b = m.input("b", 4, "");
        let y = m.output("y", 4, "");
        extra(&mut m, a, b, y);
        m
    }

    fn error(m: &Module) -> String {
        m.validate(&[]).unwrap_err().to_string()
    }

    #[test]
    fn accepts_a_well_formed_module() {
        let m = module(|m, a, b, y| m.assign(y, Expr::from(a).and(b.into()), ""));
        assert_eq!(m.validate(&[]), Ok(()));
    }

    #[test]
    fn rejects_width_mismatches() {
        let m = module(|m, a, b, y| {
            m.assign(y, Expr::from(a).eq(b.into()), "");
        });
        assert_eq!(
            error(&m),
            "internal error: module m drives y (4 bits) with 1 bits"
        );
        let m = module(|m, a, b, y| {
            let narrow = Expr::Slice {
                signal: b,
                lo: 0,
                width: 3,
            };
            m.assign(y, Expr::from(a) + narrow, "");
        });
        assert_eq!(
            error(&m),
            "internal error: module m applies Add to widths 4 and 3"
        );
        let m = module(|m, a, b, y| {
            m.assign(y, Expr::from(a).and(b.into()).or(Expr::konst(4, 16)), "")
        });
        assert_eq!(
            error(&m),
            "internal error: module m has constant 16 that does not fit 4 bits"
        );
    }

    #[test]
    fn rejects_bad_drivers() {
        let m = module(|m, a, b, y| {
            m.assign(y, a.into(), "");
            m.assign(y, b.into(), "");
        });
        assert_eq!(error(&m), "internal error: module m drives y 2 times");
        let m = module(|m, a, b, _| {
            let t = m.internal("t", 4, "");
            m.assign(t, Expr::from(a).and(b.into()), "");
        });
        assert_eq!(error(&m), "internal error: module m never drives y");
        let m = module(|m, a, b, y| {
            m.assign(a, b.into(), "");
            m.assign(y, a.into(), "");
        });
        assert_eq!(error(&m), "internal error: module m drives its input a");
        let m = module(|m, a, b, y| m.register(y, 0, Expr::from(a).and(b.into()), ""));
        assert_eq!(
            error(&m),
            "internal error: module m has register y but no clock"
        );
    }

    #[test]
    fn rejects_bits_nothing_reads() {
        let m = module(|m, a, b, y| {
            let low = Expr::Slice {
                signal: b,
                lo: 0,
                width: 2,
            };
            m.assign(
                y,
                Expr::from(a) + Expr::concat(vec![Expr::zero(2), low]),
                "",
            );
        });
        assert_eq!(
            error(&m),
            "internal error: module m never reads some bits of b"
        );
    }

    #[test]
    fn reads_of_wide_signals_are_counted_slice_by_slice() {
        // A 200-bit input read in slices below, across and above bit 128 (K(7,64)'s src
        // is 192 bits, read one letter per match unit).
        let wide = |slices: &[(u32, u32)]| {
            let mut m = Module::new("m", &["test"]);
            let x = m.input("x", 200, "");
            let parts: Vec<Expr> = slices
                .iter()
                .map(|&(lo, width)| Expr::Slice {
                    signal: x,
                    lo,
                    width,
                })
                .collect();
            let total = slices.iter().map(|s| s.1).sum();
            let y = m.output("y", total, "");
            m.assign(y, Expr::concat(parts), "");
            m
        };
        let whole = wide(&[(0, 64), (64, 64), (128, 10), (138, 62)]);
        assert_eq!(whole.validate(&[]), Ok(()));
        let gap = wide(&[(0, 64), (65, 63), (128, 72)]);
        assert_eq!(
            error(&gap),
            "internal error: module m never reads some bits of x"
        );
    }

    #[test]
    fn rejects_instances_that_do_not_fit() {
        let callee = module(|m, a, b, y| m.assign(y, Expr::from(a).and(b.into()), ""));
        let mut caller = Module::new("top", &["test"]);
        let x = caller.input("x", 3, "");
        let z = caller.output("z", 4, "");
        caller.items.push(Item {
            doc: String::new(),
            statement: Statement::Instance {
                module: "m".into(),
                name: "u".into(),
                connections: vec![
                    ("a".into(), x.into()),
                    ("b".into(), x.into()),
                    ("y".into(), z.into()),
                ],
            },
        });
        assert_eq!(
            caller
                .validate(std::slice::from_ref(&callee))
                .unwrap_err()
                .to_string(),
            "internal error: module top instance u connects a (3 bits) to port a (4 bits)"
        );
        assert_eq!(
            caller.validate(&[]).unwrap_err().to_string(),
            "internal error: module top instantiates m, which is not defined before it"
        );
    }

    /// The module of [`module`] as a callee, its ports, and a caller with a 4-bit input
    /// `x` and output `z` to bind them to.
    fn caller() -> (Module, [Port; 3], Module, SignalId, SignalId) {
        let mut callee = Module::new("m", &["test"]);
        let a = callee.input("a", 4, "");
        let b = callee.input("b", 4, "");
        let y = callee.output("y", 4, "");
        callee.assign(y, Expr::from(a).and(b.into()), "");
        let ports = [a, b, y].map(|id| callee.port_of(id));
        let mut top = Module::new("top", &["test"]);
        let x = top.input("x", 4, "");
        let z = top.output("z", 4, "");
        (callee, ports, top, x, z)
    }

    #[test]
    fn instances_list_their_connections_in_the_callee_port_order() {
        let (callee, [a, b, y], mut top, x, z) = caller();
        let connections = Connections::of(&callee)
            .bind(&y, z)
            .bind(&b, Expr::from(x) + Expr::konst(4, 1))
            .bind(&a, x);
        top.instance("u", connections, "");
        assert_eq!(
            top.items[0].statement,
            Statement::Instance {
                module: "m".into(),
                name: "u".into(),
                connections: vec![
                    ("a".into(), x.into()),
                    ("b".into(), Expr::from(x) + Expr::konst(4, 1)),
                    ("y".into(), z.into()),
                ],
            }
        );
        assert_eq!(top.validate(std::slice::from_ref(&callee)), Ok(()));
    }

    #[test]
    #[should_panic(expected = "module top instance u of m: leaves port b unbound")]
    fn an_instance_binds_every_port() {
        let (callee, [a, _, y], mut top, x, z) = caller();
        top.instance("u", Connections::of(&callee).bind(&a, x).bind(&y, z), "");
    }

    #[test]
    #[should_panic(expected = "module top instance u of m: binds port a twice")]
    fn an_instance_binds_each_port_once() {
        let (callee, [a, b, y], mut top, x, z) = caller();
        let connections = Connections::of(&callee)
            .bind(&a, x)
            .bind(&b, x)
            .bind(&a, x)
            .bind(&y, z);
        top.instance("u", connections, "");
    }

    #[test]
    #[should_panic(expected = "module top instance u of m: binds port b (4 bits) to 1 bits")]
    fn an_instance_binds_values_of_the_port_width() {
        let (callee, [a, b, y], mut top, x, z) = caller();
        let connections = Connections::of(&callee)
            .bind(&a, x)
            .bind(&b, Expr::from(x).eq(x.into()))
            .bind(&y, z);
        top.instance("u", connections, "");
    }

    #[test]
    #[should_panic(expected = "module top instance u of m: binds port q of other")]
    fn an_instance_binds_only_ports_of_its_module() {
        let (callee, [a, b, y], mut top, x, z) = caller();
        let mut other = Module::new("other", &["test"]);
        let q = other.input("q", 4, "");
        let connections = Connections::of(&callee)
            .bind(&a, x)
            .bind(&b, x)
            .bind(&other.port_of(q), x)
            .bind(&y, z);
        top.instance("u", connections, "");
    }

    #[test]
    #[should_panic(expected = "module m: t is not a port")]
    fn only_ports_are_handed_out() {
        let mut m = Module::new("m", &["test"]);
        let t = m.internal("t", 1, "");
        m.port_of(t);
    }

    /// `y = s`, where `s` is driven by `c_element` from the 4-bit inputs.
    fn c_module(c_element: impl FnOnce(&mut Module, SignalId, SignalId, SignalId)) -> Module {
        module(|m, a, b, y| {
            let s = m.internal("s", 4, "");
            c_element(m, a, b, s);
            m.assign(y, s.into(), "");
        })
    }

    fn bit(signal: SignalId, lo: u32) -> Expr {
        Expr::Slice {
            signal,
            lo,
            width: 1,
        }
    }

    /// A one-module design of `y = s`, `s` a C element of the low bits of `a` and `b`.
    fn c_design(timing: Timing) -> Design {
        let mut m = Module::new("m", &["test"]);
        let a = m.input("a", 1, "");
        let b = m.input("b", 1, "");
        let s = m.internal("s", 1, "");
        let y = m.output("y", 1, "");
        m.c_element(s, vec![a.into(), b.into()], true, "");
        m.assign(y, s.into(), "");
        Design {
            modules: vec![m],
            params: BTreeMap::new(),
            summary: "test".into(),
            timing,
        }
    }

    #[test]
    fn c_elements_drive_and_read_like_other_statements() {
        let design = c_design(Timing::SelfTimed);
        assert_eq!(design.validate(), Ok(()));
        let m = design.top();
        let s = SignalId(2);
        assert_eq!(m.sig(s).name, "s");
        assert_eq!(m.initial_value(s), Some(1));
        assert_eq!(m.initial_value(SignalId(3)), None);
        // It is the target's one driver.
        let mut twice = m.clone();
        twice.assign(s, SignalId(0).into(), "");
        assert_eq!(error(&twice), "internal error: module m drives s 2 times");
        // It reads its inputs: without it, b is read by nothing.
        let mut unread = m.clone();
        unread.items.remove(0);
        unread.assign(s, SignalId(0).into(), "");
        assert_eq!(
            error(&unread),
            "internal error: module m never reads some bits of b"
        );
    }

    #[test]
    fn c_elements_stay_out_of_synchronous_designs() {
        assert_eq!(
            c_design(Timing::Synchronous)
                .validate()
                .unwrap_err()
                .to_string(),
            "internal error: module m has C element s in a synchronous design; only a self-timed design may hold one"
        );
    }

    #[test]
    fn checks_that_assume_a_clock_refuse_a_self_timed_design() {
        assert_eq!(
            Timing::Synchronous.require_synchronous("synthesis", "m"),
            Ok(())
        );
        assert_eq!(
            Timing::SelfTimed
                .require_synchronous("synthesis", "m")
                .unwrap_err()
                .to_string(),
            "synthesis needs a synchronous design, and m is self-timed: its C elements are combinational loops by design, with no clock to analyse its timing against"
        );
    }

    #[test]
    fn a_c_element_drives_one_internal_bit() {
        let m = module(|m, a, b, y| m.c_element(y, vec![bit(a, 0), bit(b, 0)], false, ""));
        assert_eq!(
            error(&m),
            "internal error: module m has C element y on a port; its target must be an internal signal"
        );
        let m = c_module(|m, a, b, s| m.c_element(s, vec![bit(a, 0), bit(b, 0)], false, ""));
        assert_eq!(
            error(&m),
            "internal error: module m has C element s of 4 bits; its target must be 1 bit"
        );
    }

    #[test]
    fn a_c_element_has_two_or_more_inputs_of_one_bit() {
        let one_bit = |m: &mut Module| m.internal("t", 1, "");
        let m = c_module(|m, a, b, s| {
            let t = one_bit(m);
            m.c_element(t, vec![Expr::from(a).eq(b.into())], false, "");
            m.assign(s, Expr::concat(vec![Expr::zero(3), t.into()]), "");
        });
        assert_eq!(
            error(&m),
            "internal error: module m has C element t with too few inputs (1); it needs at least 2"
        );
        let m = c_module(|m, a, b, s| {
            let t = one_bit(m);
            m.c_element(t, vec![a.into(), bit(b, 0)], false, "");
            m.assign(s, Expr::concat(vec![Expr::zero(3), t.into()]), "");
        });
        assert_eq!(
            error(&m),
            "internal error: module m has C element t with an input of 4 bits; each must be 1 bit"
        );
    }

    /// A clocked module with `depth` words of 8 bits behind ports of `address` bits: the
    /// memory `ram` that `change` makes of its parts, read into `word`, which `y` shows.
    fn memory_module(depth: u32, address: u32, change: impl FnOnce(&mut Memory)) -> Module {
        let mut m = Module::new("m", &["test"]);
        let clocking = m.clocked();
        let we = m.input("we", 1, "");
        let waddr = m.input("waddr", address, "");
        let wdata = m.input("wdata", 8, "");
        let raddr = m.input("raddr", address, "");
        let word = m.internal("word", 8, "");
        let y = m.output("y", 8, "");
        let mut memory = Memory {
            name: "ram".into(),
            depth,
            width: 8,
            write_enable: we.into(),
            write_addr: waddr.into(),
            write_data: wdata.into(),
            read_addr: raddr.into(),
            read_data: word,
        };
        change(&mut memory);
        m.memory(memory, "");
        // The reset, which a memory does not read, clears y.
        let cleared = Expr::mux(clocking.reset.into(), Expr::zero(8), word.into());
        m.assign(y, cleared, "");
        m
    }

    #[test]
    fn a_memory_drives_its_read_data_and_reads_its_ports() {
        let m = memory_module(16, 4, |_| {});
        assert_eq!(m.validate(&[]), Ok(()));
        let word = SignalId(6);
        assert_eq!(m.sig(word).name, "word");
        assert_eq!(m.initial_value(word), Some(0));
        assert_eq!(m.initial_value(SignalId(7)), None);
        let mut twice = m.clone();
        twice.assign(word, SignalId(4).into(), "");
        assert_eq!(
            error(&twice),
            "internal error: module m drives word 2 times"
        );
        // Without it, wdata is read by nothing.
        let unread = memory_module(16, 4, |memory| memory.write_data = Expr::zero(8));
        assert_eq!(
            error(&unread),
            "internal error: module m never reads some bits of wdata"
        );
    }

    #[test]
    fn a_memory_needs_a_clock() {
        let mut m = memory_module(16, 4, |_| {});
        m.clocking = None;
        assert_eq!(
            error(&m),
            "internal error: module m has memory ram but no clock"
        );
    }

    #[test]
    fn a_memory_holds_2_to_65536_words_of_1_to_64_bits() {
        for (depth, address) in [(2, 1), (65536, 16)] {
            assert_eq!(memory_module(depth, address, |_| {}).validate(&[]), Ok(()));
        }
        for (depth, address) in [(1, 1), (65537, 17), (0, 1)] {
            assert_eq!(
                error(&memory_module(depth, address, |_| {})),
                format!(
                    "internal error: module m has memory ram of depth {depth}; a memory holds 2 to 65536 words"
                )
            );
        }
        let wide = memory_module(16, 4, |memory| memory.width = 65);
        assert_eq!(
            error(&wide),
            "internal error: module m has memory ram of width 65; a word holds 1 to 64 bits"
        );
    }

    #[test]
    fn memory_addresses_have_exactly_ceil_log2_depth_bits() {
        let widths: Vec<u32> = [2, 3, 4, 5, 16, 17, 1000, 1024, 65536]
            .map(Memory::address_width)
            .to_vec();
        assert_eq!(widths, [1, 2, 2, 3, 4, 5, 10, 10, 16]);
        assert_eq!(
            error(&memory_module(16, 5, |_| {})),
            "internal error: module m has memory ram (16 words of 8 bits) with a write address of 5 bits; it takes 4"
        );
        assert_eq!(
            error(&memory_module(17, 4, |_| {})),
            "internal error: module m has memory ram (17 words of 8 bits) with a write address of 4 bits; it takes 5"
        );
        let narrow_read = memory_module(16, 4, |memory| {
            memory.read_addr = Expr::concat(vec![Expr::bit(false), memory.read_addr.clone()]);
        });
        assert_eq!(
            error(&narrow_read),
            "internal error: module m has memory ram (16 words of 8 bits) with a read address of 5 bits; it takes 4"
        );
        let wide_enable = memory_module(16, 4, |memory| {
            memory.write_enable = Expr::concat(vec![memory.write_enable.clone(); 2]);
        });
        assert_eq!(
            error(&wide_enable),
            "internal error: module m has memory ram (16 words of 8 bits) with a write enable of 2 bits; it takes 1"
        );
    }

    #[test]
    fn memory_data_has_the_width_of_a_word() {
        // The low 7 bits of the 8-bit wdata.
        let seven = |memory: &Memory| match memory.write_data {
            Expr::Signal(signal) => Expr::Slice {
                signal,
                lo: 0,
                width: 7,
            },
            _ => unreachable!(),
        };
        let m = memory_module(16, 4, |memory| memory.write_data = seven(memory));
        assert_eq!(
            error(&m),
            "internal error: module m has memory ram (16 words of 8 bits) with a write data of 7 bits; it takes 8"
        );
        let m = memory_module(16, 4, |memory| {
            memory.write_data = seven(memory);
            memory.width = 7;
        });
        assert_eq!(
            error(&m),
            "internal error: module m has memory ram (16 words of 7 bits) with a read data of 8 bits; it takes 7"
        );
        let into_port = memory_module(16, 4, |memory| memory.read_data = SignalId(7));
        assert_eq!(
            error(&into_port),
            "internal error: module m has memory ram that reads into port y; its read data must be an internal signal"
        );
    }

    #[test]
    fn only_a_depth_that_is_not_a_power_of_two_guards_its_addresses() {
        let ports = |depth, address| {
            let m = memory_module(depth, address, |_| {});
            let Some(Statement::Memory(memory)) = m.items.first().map(|i| i.statement.clone())
            else {
                unreachable!()
            };
            (memory.write_condition(), memory.read_condition())
        };
        let (we, waddr, raddr) = (SignalId(2), SignalId(3), SignalId(5));
        assert_eq!(ports(16, 4), (we.into(), None));
        let ten = Expr::konst(4, 10);
        assert_eq!(
            ports(10, 4),
            (
                Expr::from(we).and(Expr::from(waddr).lt(ten.clone())),
                Some(Expr::from(raddr).lt(ten))
            )
        );
    }

    #[test]
    fn case_labels_must_be_distinct_constants() {
        let m = module(|m, a, b, y| {
            m.case(
                y,
                a,
                vec![(Expr::konst(4, 1), b.into()), (Expr::konst(4, 1), b.into())],
                b.into(),
                "",
            );
        });
        assert_eq!(
            error(&m),
            "internal error: module m has case label 1 repeated or of the wrong width"
        );
    }
}
