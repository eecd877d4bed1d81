//! A unit wrapped so that every design it builds is reset in another style than the
//! default ([`Restyled`]; docs/design.md, "Reset"), as the simulation families see it:
//! a function, stream or sequence unit whose design is restyled. The command line's wrapper
//! of a whole unit is in [`super::reset`].

use crate::emit::names::Language;
use crate::rtl::ir::{Design, ResetStyle};
use crate::sim::bits::Bits;
use crate::sim::function::FunctionUnit;
use crate::sim::sequence::{Handshake, Item, Refused, SequenceUnit};
use crate::sim::stream::{Cycle, StreamUnit};
use crate::sim::words::Words;
use std::path::PathBuf;

/// `inner` with every design it builds reset in `style`, which it takes (checked by
/// [`Restyled::unit`]).
pub struct Restyled<T> {
    pub inner: T,
    pub style: ResetStyle,
}

impl<T> Restyled<T> {
    /// `design` in this style; a unit's design was checked to take it when the unit was
    /// wrapped.
    pub(crate) fn restyle(&self, design: Design) -> Design {
        design
            .with_reset(self.style)
            .expect("checked when the unit was wrapped")
    }
}

impl FunctionUnit for Restyled<Box<dyn FunctionUnit>> {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn design(&self) -> Design {
        self.restyle(self.inner.design())
    }

    fn latency(&self) -> u32 {
        self.inner.latency()
    }

    fn vector_count(&self) -> u64 {
        self.inner.vector_count()
    }

    fn vector(&self, index: u64) -> Vec<u64> {
        self.inner.vector(index)
    }

    fn expected(&self, inputs: &[u64]) -> Vec<u64> {
        self.inner.expected(inputs)
    }
}

impl StreamUnit for Restyled<Box<dyn StreamUnit>> {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn design(&self) -> Design {
        self.restyle(self.inner.design())
    }

    fn cycles(&self) -> Vec<Cycle> {
        self.inner.cycles()
    }
}

impl SequenceUnit for Restyled<Box<dyn SequenceUnit>> {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn design(&self) -> Design {
        self.restyle(self.inner.design())
    }

    fn handshake(&self) -> Handshake {
        self.inner.handshake()
    }

    fn cycle_bound(&self) -> u64 {
        self.inner.cycle_bound()
    }

    fn vector_count(&self) -> u64 {
        self.inner.vector_count()
    }

    fn most_items(&self) -> usize {
        self.inner.most_items()
    }

    fn vector(&self, index: u64) -> Vec<Bits> {
        self.inner.vector(index)
    }

    fn expected(&self, inputs: &[Bits]) -> Result<Vec<Item>, Refused> {
        self.inner.expected(inputs)
    }

    fn sequence_name(&self) -> &'static str {
        self.inner.sequence_name()
    }

    fn files(&self, language: Language) -> Option<Vec<PathBuf>> {
        self.inner.files(language)
    }

    fn words(&self) -> Option<Words> {
        self.inner.words()
    }

    fn show_inputs(&self, inputs: &[Bits]) -> Option<String> {
        self.inner.show_inputs(inputs)
    }

    fn show_item(&self, item: &Item) -> Option<String> {
        self.inner.show_item(item)
    }
}
