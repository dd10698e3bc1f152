//! UI
pub fn start() {}
