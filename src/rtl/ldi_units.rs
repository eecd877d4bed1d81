//! Hardware units for LDI(M,S) (Melhem's LDI paper; see docs/papers.md): next-hop units for
//! Theorem 3 routing (and its two-hop case) and for shortest routing at any M, the switch
//! settings that realise LDI(M,S) on S crossbars (as logic or as a ROM), and a crossbar that
//! applies them.
//!
//! In: an [`LdiUnitParams`] (which unit, M, S, whether the outputs are registered).
//! Out: a [`Design`] whose top is a function of its inputs, checked against the golden
//! models of `crate::routing::ldi` and `crate::topology::ldi` by
//! `crate::sim::units::ldi::LdiUnit`.
//!
//! All arithmetic is modulo or divided by constants (`crate::rtl::const_arith`): digit
//! extraction is long division by S, `S^j n mod M` is repeated double-and-add, and modular
//! differences are a subtraction and a conditional correction. Ports and the arithmetic
//! of each unit are described in docs/ldi-units.md.

use crate::bits::bits_for;
use crate::choice::{Choice, choice};
use crate::routing::ldi::{RouteError, Theorem3};
use crate::rtl::const_arith::{add_mod, bits_msb_first, divmod, extend, mul_mod, sub_mod};
use crate::rtl::ir::{Connections, Design, Expr, Module, SignalId, Timing, port_struct, ports};
use crate::topology::ldi::{Ldi, LdiError, SwitchMethod, Switches};
use std::collections::BTreeMap;
use thiserror::Error;

/// Largest M S a switch-setting ROM is generated for: one case arm per (switch, node).
pub const MAX_ROM_ENTRIES: usize = 4096;
/// Largest M of a crossbar: it has M data inputs, M data outputs and M^2 crosspoints.
pub const MAX_CROSSBAR_NODES: usize = 64;
/// Largest crossbar data width.
pub const MAX_DATA_BITS: u32 = 64;
/// Data width of a crossbar unless asked otherwise.
pub const DEFAULT_DATA_BITS: u32 = 4;

choice! {
    /// Which LDI unit to generate; its name is also the default top module's after `ldi_`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum LdiUnitKind {
        Theorem3 = "theorem3":
            "Next-hop unit of Theorem 3: the link at hop `hop` of the h-hop route, M = S^(h-1) G",
        TwoHop = "two-hop": "The same unit for the two-hop case (Theorems 1 and 2), M = S G",
        Shortest = "shortest":
            "Next-hop unit of shortest routing for any M; takes a one-hop link where there is \
            one",
        SwitchLogic = "switch-logic":
            "Switch settings computed by logic: node n's link and target in switch y",
        SwitchRom = "switch-rom":
            "Switch settings read from a ROM (a case table) of all (switch, node) pairs",
        Crossbar = "crossbar":
            "A crossbar that applies switch setting y: output `perm[y][n]` carries input n",
    }
}

impl LdiUnitKind {
    /// The top module's name unless asked otherwise: `ldi_` and the name, dashes as
    /// underscores.
    pub fn default_top(self) -> String {
        format!("ldi_{}", self.name().replace('-', "_"))
    }
}

/// Why a unit cannot be generated for the parameters given; each message fits on one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LdiUnitError {
    #[error(transparent)]
    Ldi(#[from] LdiError),
    #[error(transparent)]
    Route(#[from] RouteError),
    #[error(
        "a switch ROM for {ldi} would have {entries} entries, more than {MAX_ROM_ENTRIES}; use switch-logic",
        entries = ldi.m() * ldi.s()
    )]
    RomTooLarge { ldi: Ldi },
    #[error(
        "a crossbar for {ldi} would have {m} data ports each way, more than {MAX_CROSSBAR_NODES}",
        m = ldi.m()
    )]
    CrossbarTooLarge { ldi: Ldi },
    #[error("crossbar data width must be 1 to {MAX_DATA_BITS} bits, got {0}")]
    DataBits(u32),
    #[error(
        "the fault digits-reversed changes the Theorem 3 unit of a route of h >= 3 hops; the {kind} unit of {ldi} has none to reverse"
    )]
    FaultWithoutEffect { kind: &'static str, ldi: Ldi },
}

choice! {
    /// A deliberate fault of an LDI unit, built in to show that verification catches it.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum LdiFault {
        DigitsReversed = "digits-reversed":
            "The Theorem 3 unit takes the base-S digits of dst in the wrong order at hops 1 to \
            h-1 (digit i-1 instead of h-1-i)",
    }
}

/// The size and form of one LDI unit, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LdiUnitParams {
    kind: LdiUnitKind,
    ldi: Ldi,
    registered: bool,
    data_bits: u32,
    top: String,
    /// The Theorem 3 route, for the next-hop units of Theorem 3 and two-hop routing.
    theorem3: Option<Theorem3>,
    /// The switch settings, for the switch units and the crossbar.
    switches: Option<Switches>,
    fault: Option<LdiFault>,
}

impl LdiUnitParams {
    /// A combinational unit of `kind` for LDI(m,s), its top named `ldi_<kind>` (dashes as
    /// underscores), with [`DEFAULT_DATA_BITS`] of crossbar data.
    pub fn new(kind: LdiUnitKind, m: u64, s: u64) -> Result<Self, LdiUnitError> {
        let ldi = Ldi::new(m, s)?;
        let theorem3 = match kind {
            LdiUnitKind::Theorem3 => Some(Theorem3::new(ldi)?),
            LdiUnitKind::TwoHop => Some(Theorem3::two_hop(ldi)?),
            _ => None,
        };
        let switches = match kind {
            LdiUnitKind::SwitchRom if ldi.m() * ldi.s() > MAX_ROM_ENTRIES => {
                return Err(LdiUnitError::RomTooLarge { ldi });
            }
            LdiUnitKind::Crossbar if ldi.m() > MAX_CROSSBAR_NODES => {
                return Err(LdiUnitError::CrossbarTooLarge { ldi });
            }
            LdiUnitKind::SwitchLogic | LdiUnitKind::SwitchRom | LdiUnitKind::Crossbar => {
                Some(ldi.switches()?)
            }
            _ => None,
        };
        Ok(LdiUnitParams {
            kind,
            ldi,
            registered: false,
            data_bits: DEFAULT_DATA_BITS,
            top: kind.default_top(),
            theorem3,
            switches,
            fault: None,
        })
    }

    /// The same unit with `fault` built in (or none); the fault must change it.
    pub fn with_fault(mut self, fault: Option<LdiFault>) -> Result<Self, LdiUnitError> {
        let reversible = self.kind == LdiUnitKind::Theorem3
            && self.theorem3.as_ref().is_some_and(|t3| t3.h() >= 3);
        if fault.is_some() && !reversible {
            return Err(LdiUnitError::FaultWithoutEffect {
                kind: self.kind.name(),
                ldi: self.ldi,
            });
        }
        self.fault = fault;
        Ok(self)
    }

    pub fn fault(&self) -> Option<LdiFault> {
        self.fault
    }

    /// The same unit with its outputs registered (latency 1) or not (latency 0).
    pub fn registered(mut self, registered: bool) -> Self {
        self.registered = registered;
        self
    }

    /// The same unit with `bits` of data per crossbar port (only the crossbar has data).
    pub fn with_data_bits(mut self, bits: u32) -> Result<Self, LdiUnitError> {
        if !(1..=MAX_DATA_BITS).contains(&bits) {
            return Err(LdiUnitError::DataBits(bits));
        }
        self.data_bits = bits;
        Ok(self)
    }

    /// The same unit with its top module named `top`.
    pub fn with_top(mut self, top: &str) -> Self {
        self.top = top.to_string();
        self
    }

    pub fn kind(&self) -> LdiUnitKind {
        self.kind
    }

    pub fn ldi(&self) -> &Ldi {
        &self.ldi
    }

    pub fn is_registered(&self) -> bool {
        self.registered
    }

    pub fn data_bits(&self) -> u32 {
        self.data_bits
    }

    pub fn top(&self) -> &str {
        &self.top
    }

    /// Clock edges from inputs to outputs: 1 when registered, else 0.
    pub fn latency(&self) -> u32 {
        self.registered as u32
    }

    /// The Theorem 3 route of the theorem3 and two-hop units.
    pub fn theorem3(&self) -> Option<&Theorem3> {
        self.theorem3.as_ref()
    }

    /// The switch settings of the switch units and the crossbar.
    pub fn switches(&self) -> Option<&Switches> {
        self.switches.as_ref()
    }

    /// Bits of a node number: enough for `0..M`.
    pub fn node_bits(&self) -> u32 {
        bits_for(self.ldi.m() as u64)
    }

    /// Bits of a link or switch number: enough for `0..S`.
    pub fn link_bits(&self) -> u32 {
        bits_for(self.ldi.s() as u64)
    }

    /// Bits of the hop index of the Theorem 3 units: enough for `0..h`.
    pub fn hop_bits(&self) -> u32 {
        bits_for(self.ldi.h() as u64)
    }

    /// Whether the Theorem 3 unit has a `current` input: its first link,
    /// `(dst div S^(h-1) - S current) mod G`, does not depend on `current` when G divides S.
    pub fn reads_current(&self) -> bool {
        self.theorem3
            .is_none_or(|t3| !self.ldi.s().is_multiple_of(t3.g()))
    }
}

/// The unit's hardware.
pub fn design(params: &LdiUnitParams) -> Design {
    let ldi = params.ldi;
    let mut modules = Vec::new();
    let (top, summary) = match params.kind {
        LdiUnitKind::Theorem3 => (
            theorem3_unit(params),
            format!("Theorem 3 next-hop unit of {ldi}"),
        ),
        // The same hardware: two-hop routing is Theorem 3 with h = 2.
        LdiUnitKind::TwoHop => (
            theorem3_unit(params),
            format!("two-hop next-hop unit of {ldi} (Theorem 3 with h = 2)"),
        ),
        LdiUnitKind::Shortest => (
            shortest_unit(params),
            format!("shortest-route next-hop unit of {ldi}"),
        ),
        LdiUnitKind::SwitchLogic => (
            switch_logic(params, &params.top, true, params.registered).0,
            format!("switch settings of {ldi}, computed by logic"),
        ),
        LdiUnitKind::SwitchRom => (
            switch_rom(params),
            format!("switch settings of {ldi}, read from a ROM"),
        ),
        LdiUnitKind::Crossbar => {
            let setting = switch_logic(params, &format!("{}_setting", params.top), false, false);
            let top = crossbar(params, &setting);
            modules.push(setting.0);
            (
                top,
                format!("crossbar applying the switch settings of {ldi}"),
            )
        }
    };
    modules.push(top);
    let mut design_params = BTreeMap::from([
        ("m".to_string(), ldi.m() as u64),
        ("s".to_string(), ldi.s() as u64),
        ("latency".to_string(), params.latency() as u64),
    ]);
    if params.kind == LdiUnitKind::Crossbar {
        design_params.insert("data_bits".to_string(), params.data_bits as u64);
    }
    Design {
        modules,
        params: design_params,
        summary,
        timing: Timing::Synchronous,
    }
}

/// The module's outputs: driven with `values` directly, or through registers that reset to
/// 0 when the unit is registered (then `clk` and `rst` are the first ports).
struct Outputs {
    registered: bool,
}

impl Outputs {
    fn new(m: &mut Module, registered: bool) -> Self {
        if registered {
            m.clocked();
        }
        Outputs { registered }
    }

    fn drive(&self, m: &mut Module, output: SignalId, value: Expr, doc: &str) {
        if self.registered {
            m.register(
                output,
                0,
                value,
                &format!("{doc} Registered: one clock of latency."),
            );
        } else {
            m.assign(output, value, doc);
        }
    }

    /// The signal a case table drives: the output itself, or the value its register loads.
    fn case_target(&self, m: &mut Module, output: SignalId, name: &str) -> SignalId {
        if self.registered {
            let width = m.sig(output).width;
            let doc = format!("value {} takes at the next clock edge", m.sig(output).name);
            m.internal(name, width, &doc)
        } else {
            output
        }
    }
}

fn theorem3_unit(params: &LdiUnitParams) -> Module {
    let t3 = params.theorem3.expect("theorem3 units carry their route");
    let (m_nodes, s, h, g) = (
        params.ldi.m() as u64,
        params.ldi.s() as u64,
        t3.h(),
        t3.g() as u64,
    );
    let (n, b, gb) = (params.node_bits(), params.link_bits(), bits_for(g));
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!(
                "next-hop unit of {} for Theorem 3 of Melhem's LDI paper: M = S^(h-1) G with h = {h}, G = {g}.",
                params.ldi
            ),
            "At hop 0 the link is (dst div S^(h-1) - S current) mod G (eq. 10.a, smallest solution);",
            "at hop i >= 1 it is digit h-1-i of dst in base S (eq. 10.b).",
        ],
    );
    let outputs = Outputs::new(&mut m, params.registered);
    let current = params.reads_current().then(|| {
        m.input(
            "current",
            n,
            "node the packet is at, 0 to M-1 (absent when G divides S)",
        )
    });
    let dst = m.input("dst", n, "destination node, 0 to M-1");
    let hop = m.input("hop", params.hop_bits(), "hops taken so far, 0 to h-1");
    let link = m.output(
        "link",
        b,
        "link to take: (S current + link) mod M is the next node",
    );
    let (digits, quotient) = dst_digits(&mut m, dst, (m_nodes, s, h), b);
    let first_value = first_link_value(&mut m, current, quotient, (s, g), gb);
    let first = m.internal("first_link", gb, "link of hop 0, below G");
    m.assign(
        first,
        first_value,
        "Eq. (10.a): (S current + L) mod G = dst div S^(h-1), smallest L.",
    );
    let target = outputs.case_target(&mut m, link, "link_next");
    let hop_bits = params.hop_bits();
    let mut arms = vec![(Expr::konst(hop_bits, 0), extend(first.into(), gb, b))];
    for i in 1..h {
        let digit = match params.fault {
            Some(LdiFault::DigitsReversed) => digits[i - 1],
            None => digits[h - 1 - i],
        };
        arms.push((Expr::konst(hop_bits, i as u64), digit.into()));
    }
    m.case(
        target,
        hop,
        arms,
        Expr::zero(b),
        "Hop 0 takes the first link, hop i the digit h-1-i of dst; hops from h on give link 0.",
    );
    if target != link {
        outputs.drive(&mut m, link, target.into(), "The link chosen.");
    }
    m
}

/// The base-S digits of dst, least significant first (`digit_<i>`, for i below h-1),
/// each from the quotient of the one before: `dst_div_<i>` = dst div S^i. Returns the
/// digits and dst div S^(h-1).
fn dst_digits(
    m: &mut Module,
    dst: SignalId,
    (m_nodes, s, h): (u64, u64, usize),
    b: u32,
) -> (Vec<SignalId>, SignalId) {
    let mut quotient = dst;
    let mut digits = Vec::new();
    for i in 0..h - 1 {
        let above = m_nodes.div_ceil(s.pow(i as u32 + 1));
        let width = bits_for(above);
        let dividend = bits_msb_first(m, quotient);
        let (q, r) = divmod(m, &format!("digit_{i}_step"), dividend, s, width);
        let digit = m.internal(
            &format!("digit_{i}"),
            b,
            &format!("base-S digit {i} of dst"),
        );
        m.assign(digit, r, "Remainder of the division by S.");
        let next = m.internal(
            &format!("dst_div_{}", i + 1),
            width,
            &format!("dst div S^{}, below {above}", i + 1),
        );
        m.assign(
            next,
            q.expect("quotient bits asked for"),
            "Quotient of the division by S.",
        );
        digits.push(digit);
        quotient = next;
    }
    (digits, quotient)
}

/// Eq. (10.a)'s smallest link: `quotient` (dst div S^(h-1), below G) minus S current,
/// modulo G; `quotient` itself when no `current` is read (G divides S).
fn first_link_value(
    m: &mut Module,
    current: Option<SignalId>,
    quotient: SignalId,
    (s, g): (u64, u64),
    gb: u32,
) -> Expr {
    match current {
        None => Expr::from(quotient),
        Some(current) => {
            let dividend = bits_msb_first(m, current);
            let (_, r) = divmod(m, "current_mod_g_step", dividend, g, 0);
            let current_mod_g = m.internal(
                "current_mod_g",
                gb,
                &format!("current mod G = current mod {g}"),
            );
            m.assign(current_mod_g, r, "Remainder of the division by G.");
            let product = mul_mod(m, "s_current_step", current_mod_g, s, g);
            let s_current = m.internal("s_current_mod_g", gb, "(S current) mod G");
            m.assign(
                s_current,
                product,
                "(S mod G)(current mod G) mod G, by double-and-add.",
            );
            sub_mod(quotient.into(), s_current.into(), g, gb)
        }
    }
}

fn shortest_unit(params: &LdiUnitParams) -> Module {
    let ldi = params.ldi;
    let (m_nodes, s, h) = (ldi.m() as u64, ldi.s() as u64, ldi.h());
    let (n, b) = (params.node_bits(), params.link_bits());
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!(
                "shortest-route next-hop unit of {ldi} (Melhem's LDI paper), diameter h = {h}."
            ),
            "The nodes j hops away form the window of S^j nodes from start_j = S^j current mod M;",
            "the first j whose window holds dst gives offset x = (dst - start_j) mod M, and the",
            "link is x div S^(j-1): the first digit of the smallest link sequence (a direct link first).",
        ],
    );
    let outputs = Outputs::new(&mut m, params.registered);
    let current = m.input("current", n, "node the packet is at, 0 to M-1");
    let dst = m.input("dst", n, "destination node, 0 to M-1");
    let link = m.output("link", b, "link to take; 0 when arrived");
    let arrived = m.output("arrived", 1, "current = dst: no link to take");
    let mut start = current;
    // (hit_j, link_j) for j = 1..h; the window of h hops always holds dst.
    let mut candidates = Vec::new();
    for j in 1..=h {
        let product = mul_mod(&mut m, &format!("start_{j}_step"), start, s, m_nodes);
        let next = m.internal(
            &format!("start_{j}"),
            n,
            &format!("S^{j} current mod M: first node of the {j}-hop window"),
        );
        m.assign(
            next,
            product,
            "S times the previous window start, modulo M.",
        );
        start = next;
        let offset = m.internal(
            &format!("offset_{j}"),
            n,
            &format!("(dst - start_{j}) mod M: where dst lies in the {j}-hop window"),
        );
        m.assign(
            offset,
            sub_mod(dst.into(), start.into(), m_nodes, n),
            "Modular difference.",
        );
        let width = s.pow(j as u32);
        let hit = (j < h).then(|| Expr::from(offset).lt(Expr::konst(n, width)));
        let first_digit = if j == 1 {
            Expr::Slice {
                signal: offset,
                lo: 0,
                width: b,
            }
        } else {
            let dividend = bits_msb_first(&m, offset);
            let divisor = s.pow(j as u32 - 1);
            let (q, _) = divmod(&mut m, &format!("offset_{j}_step"), dividend, divisor, b);
            q.expect("quotient bits asked for")
        };
        let digit = m.internal(
            &format!("link_{j}"),
            b,
            &format!(
                "offset_{j} div S^{}: the first link if dst is {j} hops away",
                j - 1
            ),
        );
        m.assign(
            digit,
            first_digit,
            "Most significant base-S digit of the offset (meaningful only inside the window).",
        );
        candidates.push((hit, digit));
    }
    let here = m.internal("here", 1, "current = dst");
    m.assign(
        here,
        Expr::from(current).eq(dst.into()),
        "The 0-hop window is current alone.",
    );
    let mut choice = Expr::zero(b);
    for (hit, digit) in candidates.into_iter().rev() {
        choice = match hit {
            Some(hit) => Expr::mux(hit, digit.into(), choice),
            None => digit.into(),
        };
    }
    outputs.drive(
        &mut m,
        link,
        Expr::mux(here.into(), Expr::zero(b), choice),
        "The link of the smallest window holding dst, the fewest hops.",
    );
    outputs.drive(
        &mut m,
        arrived,
        here.into(),
        "The packet is at its destination.",
    );
    m
}

port_struct!(
    /// The ports of [`switch_logic`] that the crossbar binds: all of those without the
    /// link port and unregistered.
    struct SwitchLogicPorts { node, switch_index, target }
);

/// Switch y gives node n its link `(y - class(n)) mod S`; the class of n is `n div S mod S`
/// (the paper's eq. (3)) or `n div (M/gcd(M,S))` (the gcd classes), as `Ldi::switches`
/// chose. The node reached is `(S n + link) mod M`. With `link_port` the link is an output
/// too; the crossbar's settings module leaves it out, as it only routes to targets.
fn switch_logic(
    params: &LdiUnitParams,
    name: &str,
    link_port: bool,
    registered: bool,
) -> (Module, SwitchLogicPorts) {
    let switches = params
        .switches
        .as_ref()
        .expect("switch units carry their settings");
    let ldi = params.ldi;
    let (m_nodes, s) = (ldi.m() as u64, ldi.s() as u64);
    let (n, b) = (params.node_bits(), params.link_bits());
    let mut m = Module::new(
        name,
        &[
            &format!(
                "switch settings of {ldi} (Section 3 of Melhem's LDI paper) by {}: {}.",
                switches.method.name(),
                switches.method.formula()
            ),
            "Switch y connects node n to (S n + L) mod M; every switch is a permutation of the nodes,",
            "and over the S switches every link of every node is set exactly once.",
        ],
    );
    let outputs = Outputs::new(&mut m, registered);
    let node = m.input("node", n, "node n, 0 to M-1");
    let switch = m.input("switch_index", b, "switch y, 0 to S-1");
    let link = link_port.then(|| m.output("link", b, "which link L of node n switch y carries"));
    let target = m.output(
        "target",
        n,
        "node (S n + L) mod M that switch y connects n to",
    );
    let class = node_class(&mut m, switches.method, node, (m_nodes, s), b);
    let link_value = carried_link(&mut m, class, switch, s, b);
    let window = mul_mod(&mut m, "window_step", node, s, m_nodes);
    let window_start = m.internal("window_start", n, "S n mod M: the target of link 0 of n");
    m.assign(window_start, window, "S n modulo M, by double-and-add.");
    let sum = add_mod(
        &mut m,
        "target_sum",
        window_start.into(),
        extend(link_value.into(), b, n),
        m_nodes,
    );
    outputs.drive(&mut m, target, sum, "(S n + L) mod M.");
    if let Some(link) = link {
        outputs.drive(
            &mut m,
            link,
            link_value.into(),
            "The link switch y carries.",
        );
    }
    let ports = ports!(
        m,
        SwitchLogicPorts {
            node, switch_index = switch, target,
        }
    );
    (m, ports)
}

/// The class of node n under `method`, below S; `None` when every node is in class 0
/// (gcd(M,S) = 1), so node n takes link y in switch y.
fn node_class(
    m: &mut Module,
    method: SwitchMethod,
    node: SignalId,
    (m_nodes, s): (u64, u64),
    b: u32,
) -> Option<Expr> {
    match method {
        SwitchMethod::PaperEq3 => {
            let width = bits_for(m_nodes.div_ceil(s));
            let dividend = bits_msb_first(m, node);
            let (q, _) = divmod(m, "node_div_s_step", dividend, s, width);
            let node_div_s = m.internal("node_div_s", width, "n div S");
            m.assign(
                node_div_s,
                q.expect("quotient bits asked for"),
                "Quotient of n by S.",
            );
            // n div S is already below S when M <= S^2; otherwise reduce it mod S.
            Some(if m_nodes.div_ceil(s) <= s {
                extend(node_div_s.into(), width, b)
            } else {
                let dividend = bits_msb_first(m, node_div_s);
                divmod(m, "class_step", dividend, s, 0).1
            })
        }
        SwitchMethod::GcdClasses => {
            let g = gcd(m_nodes, s);
            (g > 1).then(|| {
                let dividend = bits_msb_first(m, node);
                let width = bits_for(g);
                let (q, _) = divmod(m, "class_step", dividend, m_nodes / g, width);
                extend(q.expect("quotient bits asked for"), width, b)
            })
        }
    }
}

/// `link_value`, the link switch y carries: (y - class) mod S, y itself with no class.
fn carried_link(m: &mut Module, class: Option<Expr>, switch: SignalId, s: u64, b: u32) -> SignalId {
    let link_value = m.internal(
        "link_value",
        b,
        "(y - class) mod S: the link switch y carries",
    );
    match class {
        Some(class) => {
            let class_signal = m.internal(
                "class",
                b,
                "the class of n, below S: switch y carries link (y - class) mod S",
            );
            m.assign(
                class_signal,
                class,
                "The node's class under the chosen method.",
            );
            m.assign(
                link_value,
                sub_mod(switch.into(), class_signal.into(), s, b),
                "Switch y takes the link y places after the class's own.",
            );
        }
        None => m.assign(
            link_value,
            switch.into(),
            "gcd(M,S) = 1: one class, and switch y carries every node's link y.",
        ),
    }
    link_value
}

fn switch_rom(params: &LdiUnitParams) -> Module {
    let switches = params
        .switches
        .as_ref()
        .expect("switch units carry their settings");
    let ldi = params.ldi;
    let (n, b) = (params.node_bits(), params.link_bits());
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!(
                "switch settings of {ldi} (Section 3 of Melhem's LDI paper) by {}: {}, as a ROM.",
                switches.method.name(),
                switches.method.formula()
            ),
            "One entry per (switch y, node n): the link L of n that switch y carries and its target",
            "(S n + L) mod M. Addresses outside the table read 0.",
        ],
    );
    let outputs = Outputs::new(&mut m, params.registered);
    let node = m.input("node", n, "node n, 0 to M-1");
    let switch = m.input("switch_index", b, "switch y, 0 to S-1");
    let link = m.output("link", b, "which link L of node n switch y carries");
    let target = m.output(
        "target",
        n,
        "node (S n + L) mod M that switch y connects n to",
    );
    let address = m.internal("address", b + n, "ROM address: switch y above node n");
    m.assign(
        address,
        Expr::concat(vec![switch.into(), node.into()]),
        "Switch y selects a row, node n an entry.",
    );
    let entry = m.internal("entry", b + n, "ROM entry: link L above target");
    let mut arms = Vec::new();
    for (y, (links, targets)) in switches.links.iter().zip(&switches.perms).enumerate() {
        for (node_n, (&l, &t)) in links.iter().zip(targets).enumerate() {
            let label = ((y as u64) << n) | node_n as u64;
            let value = ((l as u64) << n) | t as u64;
            arms.push((Expr::konst(b + n, label), Expr::konst(b + n, value)));
        }
    }
    m.case(
        entry,
        address,
        arms,
        Expr::zero(b + n),
        "The table of all switch settings.",
    );
    outputs.drive(
        &mut m,
        link,
        Expr::Slice {
            signal: entry,
            lo: n,
            width: b,
        },
        "The link field of the entry.",
    );
    outputs.drive(
        &mut m,
        target,
        Expr::Slice {
            signal: entry,
            lo: 0,
            width: n,
        },
        "The target field of the entry.",
    );
    m
}

/// M instances of the settings logic, one per input with its node number wired in, close
/// crosspoint (n, t) when input n's target is t. Output t is the OR of the inputs whose
/// crosspoint in column t is closed, and `permutation` checks in hardware that every column
/// has exactly one closed crosspoint.
fn crossbar(params: &LdiUnitParams, (setting, p): &(Module, SwitchLogicPorts)) -> Module {
    let ldi = params.ldi;
    let m_nodes = ldi.m();
    let (n, b, w) = (params.node_bits(), params.link_bits(), params.data_bits);
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!("crossbar of {ldi} (Section 3 of Melhem's LDI paper) set to switch y: output"),
            "perm[y][n] carries input n. Each input's target comes from the settings logic; output t",
            "is the OR of the inputs whose target is t, and permutation says every output has exactly one.",
        ],
    );
    let outputs = Outputs::new(&mut m, params.registered);
    let switch = m.input("switch_index", b, "switch setting y, 0 to S-1");
    let inputs: Vec<SignalId> = (0..m_nodes)
        .map(|i| m.input(&format!("in_{i}"), w, &format!("data from node {i}")))
        .collect();
    let outs: Vec<SignalId> = (0..m_nodes)
        .map(|t| m.output(&format!("out_{t}"), w, &format!("data to node {t}")))
        .collect();
    let permutation = m.output(
        "permutation",
        1,
        "every output is reached by exactly one input: setting y is a permutation",
    );
    let targets: Vec<SignalId> = (0..m_nodes)
        .map(|i| {
            let target = m.internal(
                &format!("target_{i}"),
                n,
                &format!("node that input {i} is switched to"),
            );
            let connections = Connections::of(setting)
                .bind(&p.node, Expr::konst(n, i as u64))
                .bind(&p.switch_index, switch)
                .bind(&p.target, target);
            m.instance(
                &format!("setting_{i}"),
                connections,
                &format!("The settings logic for node {i}."),
            );
            target
        })
        .collect();
    let mut column_ok = Vec::new();
    for (t, &out) in outs.iter().enumerate() {
        let column = m.internal(
            &format!("column_{t}"),
            m_nodes as u32,
            &format!("closed crosspoints of output {t}, bit i for input i"),
        );
        let closed: Vec<Expr> = targets
            .iter()
            .rev()
            .map(|&target| Expr::from(target).eq(Expr::konst(n, t as u64)))
            .collect();
        m.assign(
            column,
            Expr::concat(closed),
            "Crosspoint (i, t) is closed when input i's target is t.",
        );
        let gated = inputs.iter().enumerate().map(|(i, &input)| {
            let bit = crate::rtl::const_arith::bit(column, i as u32);
            Expr::mux(bit, input.into(), Expr::zero(w))
        });
        let value = gated.reduce(Expr::or).expect("M > S >= 2 inputs");
        outputs.drive(
            &mut m,
            out,
            value,
            "The inputs switched to this output, ORed.",
        );
        // Exactly one bit set: some bit, and clearing the lowest set bit leaves none.
        let width = m_nodes as u32;
        column_ok.push(Expr::and(
            Expr::from(column).any(),
            Expr::from(column)
                .and(Expr::from(column) - Expr::konst(width, 1))
                .eq(Expr::zero(width)),
        ));
    }
    outputs.drive(
        &mut m,
        permutation,
        Expr::and_all(column_ok),
        "Every column has exactly one closed crosspoint.",
    );
    m
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(kind: LdiUnitKind, m: u64, s: u64) -> String {
        LdiUnitParams::new(kind, m, s).unwrap_err().to_string()
    }

    #[test]
    fn parameters_a_unit_cannot_take_say_why() {
        assert_eq!(
            error(LdiUnitKind::Theorem3, 20, 4),
            "theorem 3 routing needs M = S^(h-1) G with 1 < G <= S; LDI(20,4) has h = 3 and 20 is not a multiple of 4^2 = 16"
        );
        assert_eq!(
            error(LdiUnitKind::TwoHop, 18, 3),
            "two-hop routing needs M = S G with 1 < G <= S; LDI(18,3) has M = 18 > S^2 = 9"
        );
        assert_eq!(
            error(LdiUnitKind::Shortest, 3, 3),
            "LDI(M,S) needs S < M <= 4294967296 (the paper's S^(h-1) < M <= S^h with h > 1), got M = 3 and S = 3"
        );
        assert_eq!(
            error(LdiUnitKind::SwitchRom, 1025, 4),
            "a switch ROM for LDI(1025,4) would have 4100 entries, more than 4096; use switch-logic"
        );
        assert_eq!(
            error(LdiUnitKind::Crossbar, 65, 2),
            "a crossbar for LDI(65,2) would have 65 data ports each way, more than 64"
        );
        let params = LdiUnitParams::new(LdiUnitKind::Crossbar, 9, 3).unwrap();
        assert_eq!(
            params.with_data_bits(0).unwrap_err().to_string(),
            "crossbar data width must be 1 to 64 bits, got 0"
        );
        // LDI(12,4) is S^(h-1) G with h = 2: one digit, nothing to reverse.
        let fault = Some(LdiFault::DigitsReversed);
        let short = LdiUnitParams::new(LdiUnitKind::Theorem3, 12, 4).unwrap();
        assert_eq!(
            short.with_fault(fault).unwrap_err().to_string(),
            "the fault digits-reversed changes the Theorem 3 unit of a route of h >= 3 hops; the theorem3 unit of LDI(12,4) has none to reverse"
        );
        let long = LdiUnitParams::new(LdiUnitKind::Theorem3, 18, 3).unwrap();
        assert_eq!(long.with_fault(fault).unwrap().fault(), fault);
    }

    #[test]
    fn ports_follow_the_parameters() {
        let ports = |params: &LdiUnitParams| -> Vec<(String, u32)> {
            design(params)
                .top()
                .ports()
                .map(|(_, p)| (p.name.clone(), p.width))
                .collect()
        };
        let own = |list: &[(&str, u32)]| -> Vec<(String, u32)> {
            list.iter().map(|&(n, w)| (n.to_string(), w)).collect()
        };
        // LDI(18,3): h = 3, G = 2 does not divide 3, so the first link reads current.
        let t3 = LdiUnitParams::new(LdiUnitKind::Theorem3, 18, 3).unwrap();
        assert_eq!(
            ports(&t3),
            own(&[("current", 5), ("dst", 5), ("hop", 2), ("link", 2)])
        );
        // LDI(16,2) is de Bruijn: G = S, the route does not depend on current.
        let de_bruijn = LdiUnitParams::new(LdiUnitKind::Theorem3, 16, 2).unwrap();
        assert_eq!(
            ports(&de_bruijn),
            own(&[("dst", 4), ("hop", 2), ("link", 1)])
        );
        let shortest = LdiUnitParams::new(LdiUnitKind::Shortest, 20, 4)
            .unwrap()
            .registered(true);
        assert_eq!(
            ports(&shortest),
            own(&[
                ("clk", 1),
                ("rst", 1),
                ("current", 5),
                ("dst", 5),
                ("link", 2),
                ("arrived", 1)
            ])
        );
        let crossbar = LdiUnitParams::new(LdiUnitKind::Crossbar, 7, 2)
            .unwrap()
            .with_data_bits(8)
            .unwrap();
        let names: Vec<String> = ports(&crossbar).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names.len(), 1 + 7 + 7 + 1);
        assert_eq!(
            (
                names[0].as_str(),
                names[1].as_str(),
                names[8].as_str(),
                names[15].as_str()
            ),
            ("switch_index", "in_0", "out_0", "permutation")
        );
        for &kind in LdiUnitKind::ALL {
            let size = match kind {
                LdiUnitKind::Theorem3 | LdiUnitKind::TwoHop => (12, 4),
                _ => (20, 4),
            };
            let params = LdiUnitParams::new(kind, size.0, size.1).unwrap();
            assert_eq!(design(&params).validate(), Ok(()), "{}", kind.name());
        }
    }
}
