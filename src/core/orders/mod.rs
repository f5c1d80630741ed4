//! The order-language core, shared by every rule system's grammar: reading words,
//! strings and numbers ([`text`]) and the mail envelope with its sections
//! ([`mail`]), and what a check of an order file finds ([`check`]). A rule system's
//! order language is a [`mail::Grammar`].

pub mod check;
pub mod mail;
pub mod text;
