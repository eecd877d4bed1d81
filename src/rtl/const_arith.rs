//! Arithmetic modulo and divided by constants, built from `+`, `-`, `<` and muxes only.
//!
//! In: a [`Module`] under construction, operand signals and constant moduli or divisors.
//! Out: internal signals and expressions of the module computing `x mod D`, `x div D`,
//! `(k x) mod D`, `(a - b) mod D` and `(a + b) mod D`. The IR has no multiplier or divider,
//! and needs none: with a constant D every step is one compare-subtract.
//!
//! The one building block is the *conditional subtraction*: a value t < 2D held in
//! `r + 1` bits, `r = bits_for(D)`, reduces to `t mod D` as `t >= D ? t - D : t`, computed
//! on the low r bits only (the true result is below D <= 2^r, so arithmetic modulo 2^r
//! gives it exactly). Long division by D is one such step per dividend bit; a product
//! `k x mod D` is double-and-add over the bits of the constant k, one step per doubling
//! and per addition.

use crate::bits::bits_for;
use crate::rtl::ir::{Expr, Module, SignalId};

/// Bit `i` of `signal`, as a one-bit expression.
pub fn bit(signal: SignalId, i: u32) -> Expr {
    Expr::Slice {
        signal,
        lo: i,
        width: 1,
    }
}

/// `value` (of `width` bits) zero-extended to `to` bits.
pub fn extend(value: Expr, width: u32, to: u32) -> Expr {
    assert!(width <= to, "cannot extend {width} bits to {to}");
    if width == to {
        value
    } else {
        Expr::concat(vec![Expr::zero(to - width), value])
    }
}

/// `value mod 2^r` as an r-bit constant: adding or subtracting it modulo 2^r is adding or
/// subtracting `value` wherever the true result fits r bits.
fn low_bits(value: u64, r: u32) -> Expr {
    Expr::konst(r, value & (u64::MAX >> (64 - r)))
}

/// `t mod modulus` for `t < 2 modulus` held in the `r + 1` bits of signal `t`,
/// `r = bits_for(modulus)`: returns whether t reached the modulus, and the r-bit result.
fn reduce(m: &Module, t: SignalId, modulus: u64) -> (Expr, Expr) {
    let r = m.sig(t).width - 1;
    assert_eq!(r, bits_for(modulus), "reduce needs r + 1 bits");
    let reached = !Expr::from(t).lt(Expr::konst(r + 1, modulus));
    let low = Expr::Slice {
        signal: t,
        lo: 0,
        width: r,
    };
    let reduced = Expr::mux(reached.clone(), low.clone() - low_bits(modulus, r), low);
    (reached, reduced)
}

/// Long division of `dividend` (its bits, most significant first) by the constant
/// `divisor`: returns the `quotient_bits` low bits of the quotient (None for 0 bits) and
/// the remainder, `bits_for(divisor)` bits wide. Each dividend bit takes one internal
/// signal `{prefix}_{i}`: the partial remainder with the bit shifted in.
///
/// Quotient bits above `quotient_bits` are dropped: callers keep them only where the
/// quotient is known to fit, or where a wrong quotient is never used.
pub fn divmod(
    m: &mut Module,
    prefix: &str,
    dividend: Vec<Expr>,
    divisor: u64,
    quotient_bits: u32,
) -> (Option<Expr>, Expr) {
    assert!(divisor >= 1 && !dividend.is_empty());
    let r = bits_for(divisor);
    let stages = dividend.len();
    let mut remainder = Expr::zero(r);
    let mut quotient = Vec::new();
    for (i, next_bit) in dividend.into_iter().enumerate() {
        let t = m.internal(
            &format!("{prefix}_{i}"),
            r + 1,
            &format!(
                "long division by {divisor}, step {i}: partial remainder with the next dividend bit shifted in"
            ),
        );
        m.assign(
            t,
            Expr::concat(vec![remainder, next_bit]),
            "The remainder so far (below the divisor) doubled plus the next dividend bit.",
        );
        let (reached, reduced) = reduce(m, t, divisor);
        // Step i yields quotient bit stages-1-i; only the low quotient_bits are kept.
        if stages - 1 - i < quotient_bits as usize {
            quotient.push(reached);
        }
        remainder = reduced;
    }
    let quotient = (!quotient.is_empty()).then(|| {
        let width = quotient.len() as u32;
        extend(Expr::concat(quotient), width, quotient_bits)
    });
    (quotient, remainder)
}

/// The bits of `signal`, most significant first: a dividend for [`divmod`].
pub fn bits_msb_first(m: &Module, signal: SignalId) -> Vec<Expr> {
    (0..m.sig(signal).width)
        .rev()
        .map(|i| bit(signal, i))
        .collect()
}

/// `(k x) mod modulus` for a signal `x < modulus` of `bits_for(modulus)` bits and a constant
/// k with `k mod modulus != 0`, by double-and-add over the bits of `k mod modulus`, most
/// significant first. Each step is an internal signal `{prefix}_{i}`.
pub fn mul_mod(m: &mut Module, prefix: &str, x: SignalId, k: u64, modulus: u64) -> Expr {
    let r = bits_for(modulus);
    assert_eq!(m.sig(x).width, r, "mul_mod operand of the modulus' width");
    let k = k % modulus;
    assert!(k != 0, "a product by 0 does not read its operand");
    let mut acc = Expr::from(x);
    let mut step = 0;
    let mut wide = |m: &mut Module, value: Expr, doc: &str| {
        let t = m.internal(
            &format!("{prefix}_{step}"),
            r + 1,
            &format!("times {k} modulo {modulus}, step {step}: {doc}"),
        );
        step += 1;
        m.assign(
            t,
            value,
            "Below twice the modulus: one conditional subtraction reduces it.",
        );
        reduce(m, t, modulus).1
    };
    for i in (0..63 - k.leading_zeros()).rev() {
        acc = wide(
            m,
            Expr::concat(vec![acc, Expr::bit(false)]),
            "the product so far doubled",
        );
        if k >> i & 1 == 1 {
            acc = wide(
                m,
                Expr::concat(vec![Expr::bit(false), acc]) + extend(x.into(), r, r + 1),
                "the operand added",
            );
        }
    }
    acc
}

/// `(a - b) mod modulus` for `a, b < modulus`, both `r = bits_for(modulus)` bits: the
/// difference modulo 2^r, plus the modulus when b > a (unless the modulus is 2^r). Each
/// operand is used twice, so callers pass signals or small expressions.
pub fn sub_mod(a: Expr, b: Expr, modulus: u64, r: u32) -> Expr {
    let difference = a.clone() - b.clone();
    if modulus == 1 << r {
        // Arithmetic modulo 2^r is already arithmetic modulo the modulus.
        return difference;
    }
    Expr::mux(
        a.lt(b),
        difference.clone() + low_bits(modulus, r),
        difference,
    )
}

/// `(a + b) mod modulus` for `a, b < modulus`, both `bits_for(modulus)` bits; the sum is
/// the internal signal `name`.
pub fn add_mod(m: &mut Module, name: &str, a: Expr, b: Expr, modulus: u64) -> Expr {
    let r = bits_for(modulus);
    let t = m.internal(
        name,
        r + 1,
        &format!("sum of two residues modulo {modulus}, below twice the modulus"),
    );
    m.assign(
        t,
        extend(a, r, r + 1) + extend(b, r, r + 1),
        "One extra bit: the sum of two residues needs it.",
    );
    reduce(m, t, modulus).1
}
