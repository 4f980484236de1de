//! One game under the clocks: chips come from the deal, each player's time is measured and
//! enforced, answers are checked, and a player at fault is replaced by a random jury player.

use std::time::{Duration, Instant};

use entropy_core::{Colour, Move, Position, Role, Size};
use entropy_engine::bots::random_move;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::player::{Fault, FaultKind, Player};

/// A player's forfeit: who, why, and on which turn (the chip number, 1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The role of the player at fault.
    pub role: Role,
    /// What it did wrong.
    pub fault: Fault,
    /// The turn on which it happened (chip number, 1-based).
    pub turn: usize,
}

/// How a game went: every move (chance included), the final position, time used and forfeits.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// Every move in order, chance draws included.
    pub moves: Vec<Move>,
    /// The final position (the board is full).
    pub position: Position,
    /// Time each role's player used: index 0 Order, 1 Chaos.
    pub time_used: [Duration; 2],
    /// The players that forfeited, in the order they did.
    pub forfeits: Vec<Forfeit>,
}

impl GameOutcome {
    /// Order's score S.
    pub fn score(&self) -> u32 {
        self.position.score()
    }

    /// Whether the player of this role forfeited.
    pub fn forfeited(&self, role: Role) -> bool {
        self.forfeits.iter().any(|f| f.role == role)
    }
}

/// What a protocol allows beyond the rules every game shares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Whether Order may pass: every protocol but the course's, which has no word for it (a
    /// slide always exists while a cell is empty). Without it a pass is an illegal answer and
    /// the jury never passes.
    pub order_may_pass: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            order_may_pass: true,
        }
    }
}

/// Plays one game of Entropy(size) with chips in the order of `deal` (the whole bag) and each
/// role's clock (`clocks[0]` Order's, `clocks[1]` Chaos's; unequal clocks give time odds). A
/// player that faults forfeits: it is told the game is over and a random jury player seeded by
/// `jury_seed` makes its remaining moves.
pub fn play_game(
    size: Size,
    deal: &[Colour],
    clocks: [Duration; 2],
    jury_seed: u64,
    order: &mut dyn Player,
    chaos: &mut dyn Player,
) -> GameOutcome {
    play_game_with(
        Rules::default(),
        size,
        deal,
        clocks,
        jury_seed,
        order,
        chaos,
    )
}

/// [`play_game`] under a protocol's [`Rules`].
pub fn play_game_with(
    rules: Rules,
    size: Size,
    deal: &[Colour],
    clocks: [Duration; 2],
    jury_seed: u64,
    order: &mut dyn Player,
    chaos: &mut dyn Player,
) -> GameOutcome {
    assert_eq!(deal.len(), size.cells(), "a deal holds the whole bag");
    let mut referee = Referee {
        rules,
        position: Position::new(size),
        moves: Vec::with_capacity(3 * size.cells()),
        clocks,
        time_used: [Duration::ZERO; 2],
        active: [true; 2],
        forfeits: Vec::new(),
        jury: Xoshiro256PlusPlus::seed_from_u64(jury_seed),
    };
    let players: [&mut dyn Player; 2] = [order, chaos];
    for role in [Role::Order, Role::Chaos] {
        if let Err(fault) = players[role.index()].start(size, role) {
            referee.forfeit(role, fault, &mut *players[role.index()]);
        }
    }
    for &chip in deal {
        referee.record(Move::Draw(chip));
        referee.turn(Role::Chaos, &mut *players[1]);
        if referee.position.is_over() {
            break;
        }
        referee.turn(Role::Order, &mut *players[0]);
    }
    for role in [Role::Order, Role::Chaos] {
        if referee.active[role.index()] {
            players[role.index()].finish();
        }
    }
    GameOutcome {
        moves: referee.moves,
        position: referee.position,
        time_used: referee.time_used,
        forfeits: referee.forfeits,
    }
}

struct Referee {
    rules: Rules,
    position: Position,
    moves: Vec<Move>,
    clocks: [Duration; 2],
    time_used: [Duration; 2],
    active: [bool; 2],
    forfeits: Vec<Forfeit>,
    jury: Xoshiro256PlusPlus,
}

impl Referee {
    fn record(&mut self, mv: Move) {
        self.position
            .play(mv)
            .expect("the referee plays only legal moves");
        self.moves.push(mv);
    }

    fn forfeit(&mut self, role: Role, fault: Fault, player: &mut dyn Player) {
        let i = role.index();
        self.active[i] = false;
        self.forfeits.push(Forfeit {
            role,
            fault,
            turn: self.position.placed() + usize::from(role == Role::Chaos),
        });
        player.finish();
    }

    /// Gets the move of the player to move (or of the jury in its place) and plays it.
    fn turn(&mut self, role: Role, player: &mut dyn Player) {
        let i = role.index();
        if self.active[i] {
            match self.ask(role, player) {
                Ok(mv) => return self.record(mv),
                Err(fault) => self.forfeit(role, fault, player),
            }
        }
        let mv = loop {
            let mv = random_move(&self.position, &mut self.jury);
            if mv != Move::Pass || self.rules.order_may_pass {
                break mv;
            }
        };
        self.record(mv);
    }

    fn ask(&mut self, role: Role, player: &mut dyn Player) -> Result<Move, Fault> {
        let i = role.index();
        let left = self.clocks[i].saturating_sub(self.time_used[i]);
        let started = Instant::now();
        let answer = player.request(&self.position, &self.moves, left);
        let took = started.elapsed();
        self.time_used[i] += took;
        let mv = answer?;
        if took > left {
            let detail = format!(
                "answered {mv} after {:.3} s with {:.3} s left on its clock",
                took.as_secs_f64(),
                left.as_secs_f64()
            );
            return Err(Fault::new(FaultKind::Timeout, detail));
        }
        if mv.role() != Some(role) {
            return Err(Fault::new(
                FaultKind::Illegal,
                format!("{mv} is not a move for {role}"),
            ));
        }
        if mv == Move::Pass && !self.rules.order_may_pass {
            return Err(Fault::new(
                FaultKind::Illegal,
                "a pass, which this protocol does not allow: Order must move a chip",
            ));
        }
        self.position
            .check(mv)
            .map_err(|e| Fault::new(FaultKind::Illegal, format!("{mv}: {e}")))?;
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::shuffled_bag;
    use crate::player::BuiltinPlayer;

    #[test]
    fn built_in_bots_play_a_whole_game() {
        let deal = shuffled_bag(Size::SEVEN, 1);
        let mut order = BuiltinPlayer::new("greedy", 1).unwrap();
        let mut chaos = BuiltinPlayer::new("random", 2).unwrap();
        let clock = Duration::from_secs(30);
        let outcome = play_game(Size::SEVEN, &deal, [clock; 2], 3, &mut order, &mut chaos);
        assert!(outcome.position.is_over());
        assert!(outcome.forfeits.is_empty());
        assert_eq!(outcome.moves.len(), 3 * 49 - 1);
        let drawn: Vec<Colour> = outcome
            .moves
            .iter()
            .filter_map(|m| match m {
                Move::Draw(c) => Some(*c),
                _ => None,
            })
            .collect();
        assert_eq!(drawn, deal);
    }

    /// A player that answers with whatever it was built with.
    struct Scripted(Result<Move, Fault>);

    impl Player for Scripted {
        fn start(&mut self, _: Size, _: Role) -> Result<(), Fault> {
            Ok(())
        }
        fn request(&mut self, _: &Position, _: &[Move], _: Duration) -> Result<Move, Fault> {
            self.0.clone()
        }
        fn finish(&mut self) {}
    }

    #[test]
    fn a_faulty_player_forfeits_and_the_jury_finishes() {
        let deal = shuffled_bag(Size::FIVE, 4);
        let mut order = Scripted(Ok(Move::Draw(Colour::Red)));
        let mut chaos = BuiltinPlayer::new("greedy", 2).unwrap();
        let clock = Duration::from_secs(30);
        let outcome = play_game(Size::FIVE, &deal, [clock; 2], 3, &mut order, &mut chaos);
        assert!(outcome.position.is_over());
        assert_eq!(outcome.forfeits.len(), 1);
        let forfeit = &outcome.forfeits[0];
        assert_eq!(
            (forfeit.role, forfeit.fault.kind, forfeit.turn),
            (Role::Order, FaultKind::Illegal, 1)
        );
        assert!(outcome.forfeited(Role::Order) && !outcome.forfeited(Role::Chaos));
    }

    #[test]
    fn a_slow_player_times_out() {
        struct Slow;
        impl Player for Slow {
            fn start(&mut self, _: Size, _: Role) -> Result<(), Fault> {
                Ok(())
            }
            fn request(&mut self, p: &Position, _: &[Move], _: Duration) -> Result<Move, Fault> {
                std::thread::sleep(Duration::from_millis(30));
                Ok(p.legal_moves()[0])
            }
            fn finish(&mut self) {}
        }
        let deal = shuffled_bag(Size::FIVE, 4);
        let mut chaos = BuiltinPlayer::new("random", 2).unwrap();
        let clock = Duration::from_millis(100);
        let outcome = play_game(Size::FIVE, &deal, [clock; 2], 3, &mut Slow, &mut chaos);
        assert_eq!(outcome.forfeits.len(), 1);
        assert_eq!(outcome.forfeits[0].fault.kind, FaultKind::Timeout);
        assert!(outcome.forfeits[0].turn > 1);
        // Time odds: the same player with ten times the clock finishes the game.
        let long = Duration::from_secs(1);
        let outcome = play_game(Size::FIVE, &deal, [long, clock], 3, &mut Slow, &mut chaos);
        assert!(outcome.forfeits.is_empty(), "{:?}", outcome.forfeits);
    }
}
