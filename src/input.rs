//! Errors in what the user asked for (a parameter, a node word, a file name), which the
//! binary answers with exit status 2; every layer that validates input makes them, the
//! command line reports them.

use std::fmt;

/// An error in what the user asked for.
#[derive(Debug)]
pub struct InputError(pub anyhow::Error);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for InputError {}

/// "a", "a and b", "a, b and c": names listed in a message.
pub fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `message` (a text or a typed error) as the user's input being wrong.
pub fn input_error(message: impl fmt::Display + fmt::Debug + Send + Sync + 'static) -> InputError {
    InputError(anyhow::Error::msg(message))
}
