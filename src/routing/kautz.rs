//! Placeholder: the Kautz routing golden models.
