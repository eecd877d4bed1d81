//! A closed set of named choices: an enum whose variants each have a name (as on the command
//! line and in reports) and a line of help. Models and generators declare their options and
//! deliberate faults with [`choice!`], in plain Rust; only the command-line layers (`cli`
//! and `units`) turn a [`Choice`] into a command-line argument.

/// An enum of named variants: every variant in [`Choice::ALL`], each with a distinct name.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every variant, in declaration order.
    const ALL: &'static [Self];

    /// The variant's name, as on the command line.
    fn name(self) -> &'static str;

    /// One line saying what the variant is.
    fn help(self) -> &'static str;

    /// The variant named `name` exactly, if there is one.
    fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.name() == name)
    }

    /// Every variant's name, in declaration order.
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|c| c.name()).collect()
    }
}

// Exported at the crate's root under a name nobody types, so that it can be re-exported
// here, beside the trait it implements, as `choice`.
#[doc(hidden)]
#[macro_export]
macro_rules! __choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $enum:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = $name:literal : $help:literal
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $enum {
            $(
                #[doc = $help]
                $(#[$variant_meta])*
                $variant,
            )+
        }

        impl $crate::choice::Choice for $enum {
            const ALL: &'static [Self] = &[$($enum::$variant),+];

            fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name),+
                }
            }

            fn help(self) -> &'static str {
                match self {
                    $($enum::$variant => $help),+
                }
            }
        }
    };
}

/// Declares an enum and its [`Choice`] impl together, each variant written once as
/// `Variant = "name": "help"`; the help becomes the variant's doc comment. Attributes before
/// a variant (such as `#[default]`) and before the enum (derives, docs) are kept.
pub use crate::__choice as choice;

#[cfg(test)]
mod tests {
    use super::{Choice, choice};

    choice! {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        enum Colour {
            #[default]
            Red = "red": "The default",
            DarkBlue = "dark-blue": "Two words",
        }
    }

    #[test]
    fn names_help_and_default() {
        assert_eq!(Colour::ALL, [Colour::Red, Colour::DarkBlue]);
        assert_eq!(Colour::names(), ["red", "dark-blue"]);
        assert_eq!(Colour::DarkBlue.help(), "Two words");
        assert_eq!(Colour::default(), Colour::Red);
    }

    #[test]
    fn parses_exact_names_only() {
        for &colour in Colour::ALL {
            assert_eq!(Colour::parse(colour.name()), Some(colour));
        }
        assert_eq!(Colour::parse("Red"), None);
        assert_eq!(Colour::parse("blue"), None);
    }
}
