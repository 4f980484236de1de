//! What the examples share: their command-line arguments.
#![allow(dead_code)]

/// The `index`-th command-line argument parsed, or `default` where it is missing or does not
/// parse.
pub fn arg<T: std::str::FromStr>(index: usize, default: T) -> T {
    std::env::args()
        .nth(index)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}
