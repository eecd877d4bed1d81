//! The expression walk both backends share: the structure is decided here, the tokens by
//! each language's [`Syntax`].
//!
//! In: an IR expression, its module and the module's legal names. Out: the text of the
//! expression in one language, every operator parenthesised; for a C element, the two
//! conditions both languages print it with ([`c_element`]).

use crate::emit::names::ModuleNames;
use crate::rtl::ir::{BinaryOp, Expr, Module, UnaryOp};

/// One operand of an operator, printed, with what a language may need to know about it.
pub struct Operand {
    pub text: String,
    pub width: u32,
    /// A literal has no type of its own in VHDL.
    pub literal: bool,
}

/// How one language spells each kind of expression.
pub trait Syntax {
    fn literal(&self, width: u32, value: u64) -> String;
    fn bit_select(&self, name: &str, bit: u32) -> String;
    fn range_select(&self, name: &str, high: u32, low: u32) -> String;
    /// Parts most significant first.
    fn concat(&self, parts: &[String]) -> String;
    fn unary(&self, op: UnaryOp, operand: Operand) -> String;
    /// Both operands have one width.
    fn binary(&self, op: BinaryOp, a: Operand, b: Operand) -> String;
    fn mux(&self, cond: &str, then: &str, otherwise: &str) -> String;
}

/// `expr` of `module` printed in the language of `syntax`, with its width.
pub fn operand(expr: &Expr, module: &Module, names: &ModuleNames, syntax: &impl Syntax) -> Operand {
    Operand {
        text: print(expr, module, names, syntax),
        width: module.width_of(expr).expect("validated widths"),
        literal: matches!(expr, Expr::Const { .. }),
    }
}

/// Prints `expr` of `module` in the language of `syntax`.
pub fn print(expr: &Expr, module: &Module, names: &ModuleNames, syntax: &impl Syntax) -> String {
    let e = |x: &Expr| print(x, module, names, syntax);
    let operand = |x: &Expr| operand(x, module, names, syntax);
    match expr {
        Expr::Signal(id) => names.signals[id.0 as usize].clone(),
        Expr::Slice { signal, lo, width } => {
            let name = &names.signals[signal.0 as usize];
            if module.sig(*signal).width == *width {
                name.clone()
            } else if *width == 1 {
                syntax.bit_select(name, *lo)
            } else {
                syntax.range_select(name, lo + width - 1, *lo)
            }
        }
        Expr::Const { width, value } => syntax.literal(*width, *value),
        Expr::Named(id) => names.constants[id.0 as usize].clone(),
        Expr::Concat(parts) => syntax.concat(&parts.iter().map(e).collect::<Vec<_>>()),
        Expr::Unary(op, a) => syntax.unary(*op, operand(a)),
        Expr::Binary(op, a, b) => syntax.binary(*op, operand(a), operand(b)),
        Expr::Mux {
            cond,
            then,
            otherwise,
        } => syntax.mux(&e(cond), &e(then), &e(otherwise)),
    }
}

/// When a C element sets its target and when it clears it, printed; otherwise it holds.
pub struct CElementConditions {
    /// Every input is 1.
    pub set: String,
    /// Every input is 0.
    pub clear: String,
}

/// The conditions of a C element of `inputs` in the language of `syntax`.
///
/// Both languages print the element as set, clear, or else assign nothing, rather than as
/// its feedback function `AND | (target & OR)`: simulators start with inputs unknown (GHDL's
/// `'U'` before the first drive; Icarus runs a `reg`'s initialiser and the `always` block
/// that reads it in either order at time 0), and the feedback function then turns the
/// target unknown and keeps it so, while an element that assigns nothing until its inputs
/// agree keeps its initial value.
pub fn c_element(
    inputs: &[Expr],
    module: &Module,
    names: &ModuleNames,
    syntax: &impl Syntax,
) -> CElementConditions {
    let set = Expr::and_all(inputs.iter().cloned());
    let clear = !Expr::or_all(inputs.iter().cloned());
    CElementConditions {
        set: print(&set, module, names, syntax),
        clear: print(&clear, module, names, syntax),
    }
}
