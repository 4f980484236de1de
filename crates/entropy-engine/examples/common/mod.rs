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

/// Plays one game of `ours` as `role` against `other`, the chips drawn from `seed`, and calls
/// `after` with our bot and the position it decided in after each of its decisions (before
/// its move is played); returns the full board.
pub fn play_against(
    ours: &mut entropy_engine::bots::SearchBot,
    role: entropy_core::Role,
    other: &mut dyn entropy_engine::Bot,
    seed: u64,
    mut after: impl FnMut(&entropy_engine::bots::SearchBot, &entropy_core::Position),
) -> entropy_core::Position {
    use entropy_engine::{Bot as _, Budget};
    use rand::SeedableRng;
    let size = entropy_core::Size::SEVEN;
    ours.new_game(size, role);
    other.new_game(size, role.opponent());
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut position = entropy_core::Position::new(size);
    while !position.is_over() {
        let mv = match position.to_move() {
            None => entropy_engine::playout::random_move(&position, &mut rng),
            Some(r) if r == role => {
                let mv = ours.choose(&position, Budget::UNLIMITED);
                after(ours, &position);
                mv
            }
            Some(_) => other.choose(&position, Budget::UNLIMITED),
        };
        position.play_unchecked(mv);
    }
    position
}
