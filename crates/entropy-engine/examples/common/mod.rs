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

/// Prints `message` as the example `name`'s error and exits with status 2, as the CLI does for
/// bad arguments.
pub fn fail(name: &str, message: &str) -> ! {
    eprintln!("{name}: {message}");
    std::process::exit(2)
}

/// The `index`-th command-line argument (1 the first) as a whole number, `default` where it is
/// missing; one that does not parse ends the example `name` with an error naming it.
pub fn whole_arg(name: &str, index: usize, default: u64) -> u64 {
    std::env::args().nth(index).map_or(default, |s| {
        s.parse().unwrap_or_else(|_| {
            fail(
                name,
                &format!("argument {index} ({s:?}) is not a whole number"),
            )
        })
    })
}
