//! A design's reset style chosen after it is built: [`Design::with_reset`].
//!
//! Every generator builds its modules with [`Module::clocked`], reset in the default style
//! (`rst`, synchronous, active high), and some read the reset as data (a buffer that takes
//! nothing while it is on). Restyling a design renames every clocked module's reset port
//! (`rst_n` for the active-low styles), records the style in its [`Clocking`], which the
//! backends print registers by, and keeps what the logic means: every read of the reset
//! becomes a read of [`Clocking::asserted`] (`~rst_n`), and every instance's reset port is
//! fed the caller's port itself, as it was fed the caller's `rst`. Doing it once here,
//! rather than in every generator, gives every unit every style.

use crate::choice::Choice;
use crate::rtl::ir::{Clocking, Design, Expr, Item, Module, ResetStyle, SignalId, Statement};
use std::collections::HashMap;
use thiserror::Error;

/// A reset style a design cannot take.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "--reset {style} applies to synchronous designs; {top} is self-timed, reset by rst on the clocks it makes itself: leave --reset at sync-high"
)]
pub struct ResetError {
    pub style: &'static str,
    pub top: String,
}

impl Design {
    /// The design with every clocked module reset in `style`; see the module docs. A
    /// self-timed design keeps its own resets and takes the default style only.
    pub fn with_reset(mut self, style: ResetStyle) -> Result<Design, ResetError> {
        if style == self.reset_style() {
            return Ok(self);
        }
        if !self.timing.is_synchronous() {
            return Err(ResetError {
                style: style.name(),
                top: self.top().name.clone(),
            });
        }
        // Each clocked module's reset port name before the change, for its callers.
        let resets: HashMap<String, String> = self
            .modules
            .iter()
            .filter_map(|m| {
                let clocking = m.clocking?;
                Some((m.name.clone(), m.sig(clocking.reset).name.clone()))
            })
            .collect();
        for module in &mut self.modules {
            restyle(module, style, &resets);
        }
        Ok(self)
    }
}

/// The internal signal through which an active-low module's logic reads its reset as
/// data: `rst_on = ~rst_n`. Logic never reads an asynchronous reset port itself, which
/// lint rightly flags (a net that is both an asynchronous reset and synchronous data).
const RESET_ON: &str = "rst_on";

/// Restyles one module: its reset port, its reads of the reset, and the reset ports of
/// its instances (named in `resets` by their modules).
fn restyle(module: &mut Module, style: ResetStyle, resets: &HashMap<String, String>) {
    let reset = module.clocking.map(|clocking| {
        let signal = &mut module.signals[clocking.reset.0 as usize];
        signal.name = style.port().to_string();
        signal.doc = style.doc().to_string();
        let restyled = Clocking { style, ..clocking };
        module.clocking = Some(restyled);
        (clocking, restyled)
    });
    // Reads of the old active-high value become reads of the new style's assertion, an
    // active-low port's through `rst_on`, declared below once something reads it.
    let on = SignalId(module.signals.len() as u32);
    let asserted = match reset {
        Some(_) if !style.active_high() => Expr::from(on),
        Some((_, new)) => new.asserted(),
        None => Expr::zero(1),
    };
    let read_on = std::cell::Cell::new(false);
    let read = |expr: &Expr| match reset {
        Some((old, _)) => {
            let replaced = replace(expr, old.reset, &asserted);
            read_on.set(read_on.get() || replaced != *expr && asserted == Expr::from(on));
            replaced
        }
        None => expr.clone(),
    };
    for item in &mut module.items {
        match &mut item.statement {
            Statement::Assign { value, .. } => *value = read(value),
            Statement::Register { next, .. } => *next = read(next),
            Statement::Case {
                selector,
                arms,
                default,
                ..
            } => {
                assert!(
                    reset.is_none_or(|(old, _)| *selector != old.reset),
                    "a case never selects on the reset"
                );
                for (label, value) in arms.iter_mut() {
                    (*label, *value) = (read(label), read(value));
                }
                *default = read(default);
            }
            Statement::CElement { inputs, .. } => {
                for input in inputs.iter_mut() {
                    *input = read(input);
                }
            }
            Statement::Memory(memory) => {
                for port in [
                    &mut memory.write_enable,
                    &mut memory.write_addr,
                    &mut memory.write_data,
                    &mut memory.read_addr,
                ] {
                    *port = read(port);
                }
            }
            Statement::Instance {
                module: callee,
                connections,
                ..
            } => {
                for (port, value) in connections.iter_mut() {
                    match (resets.get(callee.as_str()) == Some(port), reset) {
                        // The callee's reset port gets the caller's own port when it got
                        // the caller's reset, else the style's level of what it got.
                        (true, Some((old, new))) if *value == Expr::from(old.reset) => {
                            *value = new.reset.into();
                            *port = style.port().to_string();
                        }
                        (true, _) => {
                            *value = level(read(value), style);
                            *port = style.port().to_string();
                        }
                        (false, _) => *value = read(value),
                    }
                }
            }
        }
    }
    if let (true, Some((_, new))) = (read_on.get(), reset) {
        let id = module.internal(
            RESET_ON,
            1,
            "the reset is on: the logic that reads it as data reads this",
        );
        assert_eq!(id, on, "rst_on is the module's next signal");
        module.items.insert(
            0,
            Item {
                doc: String::new(),
                statement: Statement::Assign {
                    target: on,
                    value: new.asserted(),
                },
            },
        );
    }
}

/// `asserted` (an active-high value) as a reset port of `style` takes it.
fn level(asserted: Expr, style: ResetStyle) -> Expr {
    match (style.active_high(), asserted) {
        (true, asserted) => asserted,
        (false, Expr::Unary(crate::rtl::ir::UnaryOp::Not, inner)) => *inner,
        (false, asserted) => !asserted,
    }
}

/// `expr` with every read of the one-bit `signal` replaced by `with`.
fn replace(expr: &Expr, signal: SignalId, with: &Expr) -> Expr {
    let go = |e: &Expr| Box::new(replace(e, signal, with));
    match expr {
        Expr::Signal(id) | Expr::Slice { signal: id, .. } if *id == signal => with.clone(),
        Expr::Signal(_) | Expr::Slice { .. } | Expr::Const { .. } | Expr::Named(_) => expr.clone(),
        Expr::Concat(parts) => {
            Expr::Concat(parts.iter().map(|p| replace(p, signal, with)).collect())
        }
        Expr::Unary(op, a) => Expr::Unary(*op, go(a)),
        Expr::Binary(op, a, b) => Expr::Binary(*op, go(a), go(b)),
        Expr::Mux {
            cond,
            then,
            otherwise,
        } => Expr::Mux {
            cond: go(cond),
            then: go(then),
            otherwise: go(otherwise),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rtl::ir::{Connections, Timing};
    use std::collections::BTreeMap;

    /// `leaf` (a register cleared by the reset, and `y` low while the reset is on) under
    /// `top`, which passes its reset through and also reads it.
    fn design() -> Design {
        let mut leaf = Module::new("leaf", &["test"]);
        let clocking = leaf.clocked();
        let a = leaf.input("a", 1, "");
        let q = leaf.internal("q", 1, "");
        let y = leaf.output("y", 1, "");
        leaf.register(q, 0, a.into(), "");
        leaf.assign(y, Expr::from(q).and(!Expr::from(clocking.reset)), "");
        let mut top = Module::new("top", &["test"]);
        let clocking = top.clocked();
        let a = top.input("a", 1, "");
        let y = top.output("y", 1, "");
        let z = top.output("z", 1, "");
        let connections = Connections::of(&leaf)
            .bind(&leaf.port_named("clk"), clocking.clock)
            .bind(&leaf.port_named("rst"), clocking.reset)
            .bind(&leaf.port_named("a"), a)
            .bind(&leaf.port_named("y"), y);
        top.instance("u", connections, "");
        top.assign(z, clocking.reset.into(), "");
        Design {
            modules: vec![leaf, top],
            params: BTreeMap::new(),
            summary: "test".into(),
            timing: Timing::Synchronous,
        }
    }

    #[test]
    fn active_low_styles_rename_the_port_and_keep_what_the_logic_means() {
        for style in [ResetStyle::SyncLow, ResetStyle::AsyncLow] {
            let restyled = design().with_reset(style).unwrap();
            assert_eq!(restyled.validate(), Ok(()));
            assert_eq!(restyled.reset_style(), style);
            let [leaf, top] = &restyled.modules[..] else {
                unreachable!()
            };
            let (reset, on) = (SignalId(1), SignalId(5));
            assert_eq!(leaf.sig(reset).name, "rst_n");
            assert_eq!(top.sig(reset).name, "rst_n");
            assert_eq!(leaf.sig(on).name, "rst_on");
            let assign = |target: u32, value: Expr| Statement::Assign {
                target: SignalId(target),
                value,
            };
            // rst_on = ~rst_n, first; y = q & ~rst_on.
            assert_eq!(leaf.items[0].statement, assign(5, !Expr::from(reset)));
            assert_eq!(
                leaf.items[2].statement,
                assign(4, Expr::from(SignalId(3)).and(!Expr::from(on)))
            );
            // The instance gets rst_n itself; z = rst_on.
            let Statement::Instance { connections, .. } = &top.items[1].statement else {
                unreachable!()
            };
            assert_eq!(connections[1], ("rst_n".to_string(), reset.into()));
            assert_eq!(top.items[2].statement, assign(4, on.into()));
        }
    }

    #[test]
    fn the_default_style_changes_nothing() {
        assert_eq!(design().with_reset(ResetStyle::SyncHigh).unwrap(), design());
    }

    #[test]
    fn a_design_has_one_style() {
        let mut mixed = design().with_reset(ResetStyle::SyncLow).unwrap();
        let mut other = design().modules[0].clone();
        other.name = "other".into();
        mixed.modules[1] = other;
        assert_eq!(
            mixed.validate().unwrap_err().to_string(),
            "internal error: module other resets sync-high in a design whose other modules reset sync-low; a design has one reset style"
        );
    }

    #[test]
    fn an_asynchronous_reset_comes_straight_from_the_callers_port() {
        let mut design = design().with_reset(ResetStyle::AsyncLow).unwrap();
        let top = &mut design.modules[1];
        let Statement::Instance { connections, .. } = &mut top.items[1].statement else {
            unreachable!()
        };
        connections[1].1 = Expr::from(SignalId(1)).and(SignalId(2).into());
        assert_eq!(
            design.validate().unwrap_err().to_string(),
            "internal error: module top instance u gets an asynchronous reset on rst_n that is not this module's own rst_n"
        );
    }

    #[test]
    fn the_reset_port_is_named_by_its_style() {
        let mut design = design();
        design.modules[0].clocking.as_mut().unwrap().style = ResetStyle::SyncLow;
        assert_eq!(
            design.validate().unwrap_err().to_string(),
            "internal error: module leaf has a sync-low reset named rst; it must be named rst_n"
        );
    }

    #[test]
    fn self_timed_designs_keep_their_resets() {
        let mut design = design();
        design.timing = Timing::SelfTimed;
        assert_eq!(
            design
                .with_reset(ResetStyle::AsyncLow)
                .unwrap_err()
                .to_string(),
            "--reset async-low applies to synchronous designs; top is self-timed, reset by rst on the clocks it makes itself: leave --reset at sync-high"
        );
    }
}
