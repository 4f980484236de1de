//! What the examples share: their command-line arguments.
#![allow(dead_code)]

use entropy_engine::search::Shape;

/// The `index`-th command-line argument parsed, or `default` where it is missing or does not
/// parse.
pub fn arg<T: std::str::FromStr>(index: usize, default: T) -> T {
    std::env::args()
        .nth(index)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

/// A search shape (`ORDER_FULL,CHAOS_FULL,AMOUNT,MIN_DEPTH[,EVAL_ORDER]`) from the `index`-th
/// argument, the default shape where it is missing; a bad one ends the program with its error.
pub fn shape_arg(index: usize) -> Shape {
    match std::env::args().nth(index) {
        Some(spec) => spec.parse().unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        }),
        None => Shape::default(),
    }
}
