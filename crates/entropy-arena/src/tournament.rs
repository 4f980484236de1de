//! A match: every deal played twice with roles swapped on the same chips, games in parallel,
//! each record handed back as soon as its game ends.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use entropy_core::Size;

use crate::deal::shuffled_bag;
use crate::derive_seed;
use crate::game::play_game;
use crate::record::{GameRecord, MatchKey};

/// What to play: the match settings, the number of deals and how many games at once.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Players, seed, clock and board size.
    pub key: MatchKey,
    /// Number of deals; each is played twice.
    pub deals: u32,
    /// Games played at the same time.
    pub jobs: usize,
}

/// One game of a match: the deal and which player is Order (0: A, 1: B).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Task {
    /// Deal number.
    pub deal: u32,
    /// 0 when A is Order, 1 when B is Order.
    pub game: u8,
}

impl MatchConfig {
    /// The games still to play, given those already recorded.
    pub fn tasks(&self, done: &HashSet<Task>) -> Vec<Task> {
        (0..self.deals)
            .flat_map(|deal| [0, 1].map(|game| Task { deal, game }))
            .filter(|task| !done.contains(task))
            .collect()
    }

    /// Plays one game of the match.
    pub fn play(&self, task: Task) -> GameRecord {
        let key = &self.key;
        let size = Size::new(key.size as usize).expect("a validated size");
        let deal_seed = derive_seed(key.seed, &[task.deal as u64]);
        let deal = shuffled_bag(size, deal_seed);
        let seed = |part: u64| derive_seed(key.seed, &[task.deal as u64, task.game as u64, part]);
        let [a, b] = &key.players;
        let (order_spec, chaos_spec) = if task.game == 0 { (a, b) } else { (b, a) };
        let mut order = order_spec.instantiate(seed(0)).expect("a validated player");
        let mut chaos = chaos_spec.instantiate(seed(1)).expect("a validated player");
        // Clocks go with the players: A's clock is Order's in game 0 and Chaos's in game 1.
        let [clock_a, clock_b] = key.clocks();
        let clocks = if task.game == 0 {
            [clock_a, clock_b]
        } else {
            [clock_b, clock_a]
        };
        let outcome = play_game(size, &deal, clocks, seed(2), order.as_mut(), chaos.as_mut());
        GameRecord::new(key, task.deal, task.game, deal_seed, &outcome)
    }

    /// Plays the tasks on `jobs` threads, calling `on_record` on this thread for each game as it
    /// ends (in order of completion). When `on_record` breaks, no further game is started; the
    /// games already under way finish and are handed over too, so none is lost.
    pub fn run(&self, tasks: &[Task], mut on_record: impl FnMut(GameRecord) -> ControlFlow<()>) {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        // A rendezvous channel: a thread hands its game over before it starts another, so a
        // break stops the match within a game or so per thread even when games take microseconds.
        let (sender, receiver) = mpsc::sync_channel(0);
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.clamp(1, tasks.len().max(1)) {
                let sender = sender.clone();
                let (next, stop) = (&next, &stop);
                scope.spawn(move || loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&task) = tasks.get(i) else { break };
                    if sender.send(self.play(task)).is_err() {
                        break;
                    }
                });
            }
            drop(sender);
            for record in receiver {
                if on_record(record).is_break() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::PlayerSpec;

    fn config(jobs: usize) -> MatchConfig {
        MatchConfig {
            key: MatchKey {
                players: [
                    PlayerSpec::Builtin("greedy".into()),
                    PlayerSpec::Builtin("random".into()),
                ],
                seed: 42,
                clock_ms: 30_000,
                clock_b_ms: None,
                size: 5,
                luck: None,
            },
            deals: 3,
            jobs,
        }
    }

    #[test]
    fn results_do_not_depend_on_parallelism_or_order() {
        let serial = config(1);
        let mut one = Vec::new();
        serial.run(&serial.tasks(&HashSet::new()), |r| {
            one.push(r);
            ControlFlow::Continue(())
        });
        let parallel = config(4);
        let mut many = Vec::new();
        parallel.run(&parallel.tasks(&HashSet::new()), |r| {
            many.push(r);
            ControlFlow::Continue(())
        });
        let key = |r: &GameRecord| (r.deal, r.game);
        one.sort_by_key(key);
        many.sort_by_key(key);
        assert_eq!(one.len(), 6);
        let strip = |r: &GameRecord| (r.deal, r.game, r.moves.clone(), r.score);
        assert_eq!(
            one.iter().map(strip).collect::<Vec<_>>(),
            many.iter().map(strip).collect::<Vec<_>>()
        );
        // Both games of a deal draw the same chips.
        let chips = |r: &GameRecord| {
            r.moves
                .iter()
                .step_by(2)
                .map(|m| m[..1].to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(chips(&one[0]), chips(&one[1]));
    }

    #[test]
    fn a_break_starts_no_further_game_and_loses_none_under_way() {
        let config = MatchConfig {
            deals: 20,
            ..config(2)
        };
        let tasks = config.tasks(&HashSet::new());
        let mut seen = Vec::new();
        config.run(&tasks, |r| {
            seen.push(r);
            ControlFlow::Break(())
        });
        // The first game breaks. The other thread's game under way then is handed over too, and
        // a thread may start one more game before it sees the flag (the flag is not a lock), so
        // a few games follow, not the 39 left.
        assert!((1..=8).contains(&seen.len()), "{}", seen.len());
        let mut tasks_seen: Vec<_> = seen.iter().map(|r| (r.deal, r.game)).collect();
        tasks_seen.sort();
        tasks_seen.dedup();
        assert_eq!(tasks_seen.len(), seen.len(), "no game is played twice");
    }

    #[test]
    fn a_match_that_measures_luck_records_it_for_every_game() {
        let mut config = config(1);
        config.key = config.key.with_luck(Some(1));
        let record = config.play(Task { deal: 0, game: 0 });
        let moves = crate::record::parse_moves(&record.moves).unwrap();
        let luck = crate::luck::game_luck(entropy_core::Size::FIVE, &moves, 1);
        let luck = (luck * 1e4).round() / 1e4;
        assert_eq!(record.luck, Some(luck));
        assert_eq!(record.skill_score(), record.score as f64 - luck);
        // As played where the match does not measure it (and in records from before).
        let plain = super::tests::config(1).play(Task { deal: 0, game: 0 });
        assert_eq!(
            (plain.luck, plain.skill_score()),
            (None, plain.score as f64)
        );
        assert_eq!(config.key.clone().with_luck(Some(0)).luck, None);
    }

    #[test]
    fn recorded_games_are_skipped() {
        let config = config(1);
        let done = HashSet::from([Task { deal: 0, game: 1 }, Task { deal: 2, game: 0 }]);
        let tasks = config.tasks(&done);
        assert_eq!(tasks.len(), 4);
        assert!(!tasks.contains(&Task { deal: 0, game: 1 }));
    }
}
