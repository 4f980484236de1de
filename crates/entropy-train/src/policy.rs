//! Teacher data for the policy network (`pnet`): the searcher plays itself, a node limit per
//! move, and every decision of one role becomes a training example: the position's input
//! planes ([`placement_planes`] for Chaos, [`slide_planes`] for Order) and the move the
//! teacher chose (a cell, one byte, for Chaos; a [`slide_index`], two little-endian bytes, for
//! Order). Games run on several threads and come back in game order, so the data depend on
//! the deals and the node limit only.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use entropy_core::{Colour, Move, Phase, Position, Role, Size};
use entropy_engine::eval::Evaluator;
use entropy_engine::learned::planes::{
    placement_planes, slide_index, slide_planes, PLACEMENT_PLANES, SLIDE_PLANES,
};
use entropy_engine::search::{Limits, Searcher};
use entropy_engine::{Bot, Budget};

/// The planes per cell of one example of `role`'s decisions.
pub fn policy_planes(role: Role) -> usize {
    match role {
        Role::Chaos => PLACEMENT_PLANES,
        Role::Order => SLIDE_PLANES,
    }
}

/// The bytes of one label of `role`'s decisions.
pub fn label_bytes(role: Role) -> usize {
    match role {
        Role::Chaos => 1,
        Role::Order => 2,
    }
}

/// One game's examples of one role.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolicyGame {
    /// The input planes of each decision, one after another.
    pub planes: Vec<f32>,
    /// The teacher's move of each decision, [`label_bytes`] bytes each.
    pub labels: Vec<u8>,
    /// The decisions.
    pub decisions: usize,
}

impl PolicyGame {
    /// The planes as little-endian bytes, as the data file holds them.
    pub fn plane_bytes(&self) -> Vec<u8> {
        self.planes.iter().flat_map(|v| v.to_le_bytes()).collect()
    }
}

/// A student's or an opponent's move that the rules do not allow: the game stops there.
#[derive(Clone, Debug, PartialEq)]
pub struct IllegalStudentMove {
    /// Whose seat: "teacher", "student" or "opponent".
    pub seat: &'static str,
    /// The bot's name.
    pub student: String,
    /// Its move.
    pub mv: Move,
    /// Why the rules refuse it.
    pub problem: String,
}

impl std::fmt::Display for IllegalStudentMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} {} played {:?}, which is illegal: {}",
            self.seat, self.student, self.mv, self.problem
        )
    }
}

impl std::error::Error for IllegalStudentMove {}

/// Bots that take the teacher's seat in a game of [`policy_game`]; the teacher plays
/// wherever none is given.
#[derive(Default)]
pub struct Seats<'a> {
    /// Chooses the label of each of the role's decisions (and plays it where no student is
    /// given) instead of the searcher: a bot that plays the role better in some setting, such
    /// as `spoiler` against a greedy Order. The searcher still plays the other role.
    pub teacher: Option<&'a mut dyn Bot>,
    /// Plays the role whose decisions are recorded, every one of them labelled with the move
    /// the teacher would have played there (DAgger: examples from the positions the student's
    /// own play reaches, where its mistakes lead).
    pub student: Option<&'a mut dyn Bot>,
    /// Plays the other role (the teacher does not search its decisions): examples from games
    /// against another kind of player, such as greedy.
    pub opponent: Option<&'a mut dyn Bot>,
}

/// The bots of one game of [`policy_games`], each owned (made afresh for the game).
#[derive(Default)]
pub struct GameBots {
    /// See [`Seats::teacher`].
    pub teacher: Option<Box<dyn Bot>>,
    /// See [`Seats::student`].
    pub student: Option<Box<dyn Bot>>,
    /// See [`Seats::opponent`].
    pub opponent: Option<Box<dyn Bot>>,
}

impl GameBots {
    /// The seats of a game, borrowed from these bots.
    pub fn seats(&mut self) -> Seats<'_> {
        fn seat(bot: &mut Option<Box<dyn Bot>>) -> Option<&mut dyn Bot> {
            bot.as_deref_mut().map(|b| b as &mut dyn Bot)
        }
        Seats {
            teacher: seat(&mut self.teacher),
            student: seat(&mut self.student),
            opponent: seat(&mut self.opponent),
        }
    }
}

/// Who chose a move.
enum Seat {
    Teacher,
    Student,
    Opponent,
}

/// Plays one game of the teacher against itself on a board of `size` with the chips of
/// `deal` (drawn in its order, one per cell) and returns `role`'s decisions. The searcher's
/// table is cleared first, so a game depends on its deal and `nodes` alone (and on the
/// searcher's opponent model, which the caller sets: to label decisions against a greedy
/// opponent as the searcher plays once it has read one, say).
///
/// `seats` puts a teacher bot or a student in `role` or an opponent in the other role; an
/// illegal move of any of them ends the game with an error.
pub fn policy_game<E: Evaluator>(
    searcher: &mut Searcher<E>,
    size: Size,
    deal: &[Colour],
    nodes: u64,
    role: Role,
    seats: Seats<'_>,
) -> Result<PolicyGame, IllegalStudentMove> {
    let cells = size.cells();
    let Seats {
        mut teacher,
        mut student,
        mut opponent,
    } = seats;
    let mut position = Position::new(size);
    let mut game = PolicyGame::default();
    let mut drawn = deal.iter().copied();
    searcher.clear();
    for bot in [teacher.as_deref_mut(), student.as_deref_mut()]
        .into_iter()
        .flatten()
    {
        bot.new_game(size, role);
    }
    if let Some(opponent) = opponent.as_deref_mut() {
        opponent.new_game(size, role.opponent());
    }
    while !position.is_over() {
        let ours = position.phase().role() == Some(role);
        let (mv, player) = match position.phase() {
            Phase::Draw => (
                Move::Draw(drawn.next().expect("a chip for every cell")),
                Seat::Teacher,
            ),
            Phase::Place(_) | Phase::Slide if !ours && opponent.is_some() => {
                let opponent = opponent.as_deref_mut().expect("checked");
                (
                    opponent.choose(&position, Budget::UNLIMITED),
                    Seat::Opponent,
                )
            }
            Phase::Place(_) | Phase::Slide => {
                let mv = match teacher.as_deref_mut() {
                    Some(teacher) if ours => {
                        let mv = teacher.choose(&position, Budget::UNLIMITED);
                        // Checked before it becomes a label, not only when played.
                        if let Err(error) = position.check(mv) {
                            return Err(IllegalStudentMove {
                                seat: "teacher",
                                student: teacher.name().to_owned(),
                                mv,
                                problem: error.to_string(),
                            });
                        }
                        mv
                    }
                    _ => searcher.search(&position, Limits::nodes(nodes)).best,
                };
                if !ours {
                    (mv, Seat::Teacher)
                } else {
                    record(&position, mv, role, cells, &mut game);
                    match student.as_deref_mut() {
                        Some(student) => {
                            (student.choose(&position, Budget::UNLIMITED), Seat::Student)
                        }
                        None => (mv, Seat::Teacher),
                    }
                }
            }
            Phase::Over => unreachable!("the loop stops"),
        };
        if let Err(error) = position.play(mv) {
            // The searcher's, a teacher bot's (checked above) and the deal's moves are legal:
            // only a student's or an opponent's can be refused.
            let (seat, bot) = match player {
                Seat::Student => ("student", student.as_deref()),
                Seat::Opponent => ("opponent", opponent.as_deref()),
                Seat::Teacher => ("teacher", teacher.as_deref()),
            };
            return Err(IllegalStudentMove {
                seat,
                student: bot.map_or_else(String::new, |b| b.name().to_owned()),
                mv,
                problem: error.to_string(),
            });
        }
    }
    Ok(game)
}

/// Appends one decision's planes and label.
fn record(position: &Position, mv: Move, role: Role, cells: usize, game: &mut PolicyGame) {
    let start = game.planes.len();
    game.planes.resize(start + policy_planes(role) * cells, 0.0);
    let out = &mut game.planes[start..];
    match (role, mv) {
        (Role::Chaos, Move::Place { cell, .. }) => {
            placement_planes(position, out);
            let side = position.size().side();
            game.labels.push((cell.row() * side + cell.column()) as u8);
        }
        (Role::Order, _) => {
            slide_planes(position, out);
            let index = slide_index(position.size().side(), mv).expect("Order slides or passes");
            game.labels.extend((index as u16).to_le_bytes());
        }
        (Role::Chaos, _) => unreachable!("Chaos places"),
    }
    game.decisions += 1;
}

/// What [`policy_games`] plays.
#[derive(Clone, Copy, Debug)]
pub struct PolicyDataConfig {
    /// The board.
    pub size: Size,
    /// Games in all.
    pub games: usize,
    /// Threads.
    pub jobs: usize,
    /// Positions each of the teacher's searches visits.
    pub nodes: u64,
    /// Whose decisions become examples.
    pub role: Role,
}

/// Plays games `0..games` on `jobs` threads (each with its own searcher made by `teacher`;
/// game `i` on the chips of `deal(i)`, with the bots `bots(i)`: made per game, so that a bot's
/// random choices depend on the game, not on the thread) and hands each to `write` in game
/// order, as soon as it and every game before it are done. Stops at the first error `write`
/// returns or the first illegal move of a bot.
pub fn policy_games<E: Evaluator, W: From<IllegalStudentMove>>(
    config: PolicyDataConfig,
    teacher: impl Fn() -> Searcher<E> + Sync,
    bots: impl Fn(usize) -> GameBots + Sync,
    deal: impl Fn(usize) -> Vec<Colour> + Sync,
    mut write: impl FnMut(usize, PolicyGame) -> Result<(), W>,
) -> Result<(), W> {
    let PolicyDataConfig {
        size,
        games,
        jobs,
        nodes,
        role,
    } = config;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (send, receive) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, games.max(1)) {
            let send = send.clone();
            let (next, stop, teacher, deal) = (&next, &stop, &teacher, &deal);
            let bots = &bots;
            scope.spawn(move || {
                let mut searcher = teacher();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let mut bots = bots(i);
                    let seats = bots.seats();
                    let game = policy_game(&mut searcher, size, &deal(i), nodes, role, seats);
                    if send.send((i, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Games finish out of order; each waits here until those before it are written.
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (i, game) in receive {
            waiting.insert(i, game);
            while let Some(game) = waiting.remove(&due) {
                if let Err(error) = game.map_err(W::from).and_then(|game| write(due, game)) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(error);
                }
                due += 1;
            }
        }
        Ok(())
    })
}

/// The decisions of each game already in a policy-data log (`PREFIX.games`: a settings line,
/// then `SEED DECISIONS` a game), after checking that it was written with the same `settings`
/// and that its games follow each other from `first_seed`. A last line cut short by an
/// interruption is cut off the log (its game is played again).
pub fn resume_log(log: &Path, settings: &str, first_seed: u64) -> Result<Vec<usize>, String> {
    let text = match std::fs::read_to_string(log) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(format!("cannot read {}: {error}", log.display())),
    };
    let mut done = Vec::new();
    let mut whole = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let at = || format!("{} line {}", log.display(), n + 1);
        if !line.ends_with('\n') {
            break;
        }
        whole += line.len();
        let line = line.trim_end();
        if n == 0 {
            if line != settings {
                return Err(format!(
                    "{} holds data made as `{}`, not `{}`: choose another --out or the same settings",
                    log.display(),
                    line.trim_start_matches("# "),
                    settings.trim_start_matches("# ")
                ));
            }
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parsed = match fields[..] {
            [seed, decisions] => seed
                .parse::<u64>()
                .ok()
                .zip(decisions.parse::<usize>().ok()),
            _ => None,
        };
        let Some((seed, decisions)) = parsed else {
            return Err(format!(
                "{}: expected `SEED DECISIONS`, found {line:?}",
                at()
            ));
        };
        let due = first_seed + done.len() as u64;
        if seed != due {
            return Err(format!(
                "{}: game of seed {seed} where seed {due} was due",
                at()
            ));
        }
        done.push(decisions);
    }
    if whole < text.len() {
        open_at(log, whole as u64)?;
    }
    Ok(done)
}

/// Opens a data file for appending after its first `length` bytes, cutting off what an
/// interrupted run wrote beyond them; a file shorter than that is an error (the data and the
/// log disagree).
pub fn open_at(path: &Path, length: u64) -> Result<File, String> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let have = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    if have < length {
        return Err(format!(
            "{} holds {have} bytes where its log counts {length}: the files do not belong together",
            path.display()
        ));
    }
    file.set_len(length)
        .map_err(|e| format!("cannot cut {} to its whole games: {e}", path.display()))?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_engine::eval::LinearEval;

    /// Chaos's game on deal 5 at 200 nodes a decision, with these seats.
    fn chaos_game(
        searcher: &mut Searcher<LinearEval>,
        seats: Seats<'_>,
    ) -> Result<PolicyGame, IllegalStudentMove> {
        policy_game(searcher, Size::SEVEN, &deal(5), 200, Role::Chaos, seats)
    }

    fn deal(seed: usize) -> Vec<Colour> {
        // A fixed order that differs by seed: enough for these tests.
        let size = Size::SEVEN;
        let mut chips: Vec<Colour> = size
            .game_colours()
            .flat_map(|c| std::iter::repeat_n(c, size.side()))
            .collect();
        let n = chips.len();
        chips.rotate_left(seed % n);
        chips
    }

    /// What a test's writer can fail with.
    #[derive(Debug, PartialEq)]
    enum Failure {
        Disk(&'static str),
        Student(IllegalStudentMove),
    }

    impl From<IllegalStudentMove> for Failure {
        fn from(error: IllegalStudentMove) -> Failure {
            Failure::Student(error)
        }
    }

    /// A student that passes where it must place.
    struct Passer;

    impl Bot for Passer {
        fn name(&self) -> &str {
            "passer"
        }
        fn new_game(&mut self, _size: Size, _role: Role) {}
        fn choose(&mut self, _position: &Position, _budget: Budget) -> Move {
            Move::Pass
        }
        fn expected_score(&self) -> Option<f64> {
            None
        }
    }

    fn config(games: usize, jobs: usize) -> PolicyDataConfig {
        PolicyDataConfig {
            size: Size::SEVEN,
            games,
            jobs,
            nodes: 100,
            role: Role::Chaos,
        }
    }

    #[test]
    fn a_student_plays_its_role_and_the_teacher_labels_it() {
        let mut searcher = Searcher::new(LinearEval::trained(), 1);
        let mut student = entropy_engine::make_bot("greedy", 1).unwrap();
        let taught = chaos_game(&mut searcher, Seats::default()).unwrap();
        let dagger = chaos_game(
            &mut searcher,
            Seats {
                student: Some(student.as_mut()),
                ..Seats::default()
            },
        )
        .unwrap();
        assert_eq!(dagger.decisions, 49);
        // The first position is the same, so is its label; then greedy's play departs.
        assert_eq!(dagger.labels[0], taught.labels[0]);
        assert_ne!(dagger.planes, taught.planes);
    }

    #[test]
    fn a_teacher_bot_labels_and_plays_the_role_and_an_illegal_label_is_an_error() {
        let mut searcher = Searcher::new(LinearEval::trained(), 1);
        let mut game = |teacher: bool, student: bool| {
            let (mut t, mut s) = (
                entropy_engine::make_bot("greedy", 1).unwrap(),
                entropy_engine::make_bot("greedy", 1).unwrap(),
            );
            let seats = Seats {
                teacher: teacher.then_some(t.as_mut()),
                student: student.then_some(s.as_mut()),
                ..Seats::default()
            };
            chaos_game(&mut searcher, seats).unwrap()
        };
        // Greedy teaches and plays; a greedy student plays the same moves.
        let taught = game(true, false);
        let both = game(true, true);
        assert_eq!(
            (&both.planes, &both.labels),
            (&taught.planes, &taught.labels)
        );
        // Where the searcher labels greedy's play instead, the labels are its own.
        let searched = game(false, true);
        assert_ne!(searched.labels, taught.labels);
        let mut passer = Passer;
        let error = chaos_game(
            &mut searcher,
            Seats {
                teacher: Some(&mut passer),
                ..Seats::default()
            },
        )
        .unwrap_err();
        assert_eq!((error.seat, error.mv), ("teacher", Move::Pass));
    }

    #[test]
    fn every_decision_of_the_role_is_an_example_of_its_layout() {
        let mut searcher = Searcher::new(LinearEval::trained(), 1);
        let chaos = policy_game(
            &mut searcher,
            Size::SEVEN,
            &deal(3),
            200,
            Role::Chaos,
            Seats::default(),
        )
        .unwrap();
        assert_eq!(chaos.decisions, 49);
        assert_eq!(chaos.labels.len(), 49);
        assert_eq!(chaos.planes.len(), 49 * PLACEMENT_PLANES * 49);
        assert!(chaos.labels.iter().all(|&cell| cell < 49));
        let order = policy_game(
            &mut searcher,
            Size::SEVEN,
            &deal(3),
            200,
            Role::Order,
            Seats::default(),
        )
        .unwrap();
        assert_eq!(order.decisions, 48);
        assert_eq!(order.labels.len(), 2 * 48);
        assert_eq!(order.planes.len(), 48 * SLIDE_PLANES * 49);
    }

    #[test]
    fn games_come_back_in_order_whatever_the_threads() {
        let run = |jobs| {
            let mut out = Vec::new();
            policy_games(
                config(5, jobs),
                || Searcher::new(LinearEval::trained(), 1),
                |_| GameBots::default(),
                deal,
                |i, game| {
                    out.push((i, game));
                    Ok::<(), Failure>(())
                },
            )
            .unwrap();
            out
        };
        let one = run(1);
        assert_eq!(one.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        assert_eq!(one, run(3));
    }

    #[test]
    fn an_error_from_the_writer_stops_the_games() {
        let mut written = 0;
        let result = policy_games(
            config(50, 2),
            || Searcher::new(LinearEval::trained(), 1),
            |_| GameBots::default(),
            deal,
            |i, _| {
                written += 1;
                if i == 1 {
                    Err(Failure::Disk("disk full"))
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err(Failure::Disk("disk full")));
        assert_eq!(written, 2);
    }

    #[test]
    fn an_illegal_move_of_the_student_is_an_error_not_a_panic() {
        let mut written = 0;
        let result = policy_games(
            config(3, 2),
            || Searcher::new(LinearEval::trained(), 1),
            |_| GameBots {
                student: Some(Box::new(Passer)),
                ..GameBots::default()
            },
            deal,
            |_, _| {
                written += 1;
                Ok(())
            },
        );
        let Err(Failure::Student(error)) = result else {
            panic!("expected the student's illegal move, got {result:?}");
        };
        assert_eq!(error.mv, Move::Pass);
        assert!(
            error.to_string().contains("the student passer played Pass"),
            "{error}"
        );
        assert_eq!(written, 0);
    }
}
