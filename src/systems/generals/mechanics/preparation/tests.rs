//! Tests of the mechanic.
