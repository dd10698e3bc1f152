//! The deterministic simulator (under construction).
pub mod scenario;
