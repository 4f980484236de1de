//! Teacher data for one policy network for both roles: the searcher's decisions in games of
//! its own, each with its best moves' values (a soft target over the moves, not only the one
//! chosen), the position's value and the game's final score.
//!
//! The searcher plays itself or another bot (then only its own role's decisions are recorded);
//! with exploration, the move played is now and then another of its best moves or a random
//! one, so that the positions are not all the searcher's own line (the positions a network
//! that plays a little differently reaches). Against another bot the teacher watches it as the
//! `policy` agent does ([`GreedyWatch`]) and records the reading with each decision; as Chaos,
//! once Order reads as greedy, it searches as the default bot then does (Order assumed greedy
//! below the root, the hand weights at the leaves), so a network over the read observation
//! learns what to do against greedy from the same teacher. A game depends on its number, its deal and the
//! settings alone, so the data are the same on any number of threads, and they are kept with
//! [`crate::saved`] as the games end, so a long run resumes.

use entropy_core::notation::text::{format_position, parse_position};
use entropy_core::{Colour, Move, Phase, Position, Role, Size};
use entropy_engine::bots::{random_move, HandWeights};
use entropy_engine::learned::actions::{action_of, move_of};
use entropy_engine::learned::BotEval;
use entropy_engine::search::model::OpponentModel;
use entropy_engine::search::{GreedyWatch, Limits, Searcher};
use entropy_engine::{Bot, Budget};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::saved::SavedLine;
use crate::td::game_seed;

/// How the teacher plays and what it records.
#[derive(Clone, Debug)]
pub struct TeacherConfig {
    /// The board.
    pub size: Size,
    /// Seed of the exploration (the deals are the caller's).
    pub seed: u64,
    /// Positions each analysis may visit.
    pub nodes: u64,
    /// The best moves valued at each decision.
    pub top: usize,
    /// The chance that the move played at one of the teacher's decisions is a random legal move.
    pub explore: f64,
    /// Points: the move played is drawn among the best moves, each weighted by
    /// `exp(-(points it loses against the best) / temperature)` (0: always the best).
    pub temperature: f64,
}

impl Default for TeacherConfig {
    fn default() -> TeacherConfig {
        TeacherConfig {
            size: Size::SEVEN,
            seed: 1,
            nodes: 20_000,
            top: 8,
            explore: 0.05,
            temperature: 1.0,
        }
    }
}

/// One of the teacher's decisions.
#[derive(Clone, Debug, PartialEq)]
pub struct TeacherDecision {
    /// The game it came from.
    pub game: usize,
    /// The position (a player to move).
    pub position: Position,
    /// The best moves found, best first, each with Order's expected final score after it (as
    /// the analysis shows it: calibrated).
    pub moves: Vec<(Move, f64)>,
    /// The move played: the best, another of `moves`, or a random one where the game explored.
    pub played: Move,
    /// The game's final score.
    pub final_score: u32,
    /// Whether the teacher read its opponent as greedy at this decision (what the `policy`
    /// agent's watcher would have read there).
    pub greedy: bool,
}

impl TeacherDecision {
    /// Order's expected final score in the position: the best move's value.
    pub fn value(&self) -> f64 {
        self.moves[0].1
    }
}

impl SavedLine for TeacherDecision {
    fn game(&self) -> usize {
        self.game
    }

    /// `GAME FINAL PLAYED ACTION:VALUE,...[ greedy] | POSITION`: moves as the learning
    /// environment's action numbers (`learned::actions`), values in points to two decimals,
    /// `greedy` where the opponent read as greedy, the position in the text notation.
    fn to_line(&self) -> String {
        let size = self.position.size();
        let action = |mv: Move| action_of(size, mv).expect("a player's move has an action");
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|&(mv, value)| format!("{}:{value:.2}", action(mv)))
            .collect();
        format!(
            "{} {} {} {}{} | {}",
            self.game,
            self.final_score,
            action(self.played),
            moves.join(","),
            if self.greedy { " greedy" } else { "" },
            format_position(&self.position)
        )
    }

    fn from_line(line: &str) -> Result<TeacherDecision, String> {
        let bad = |what: &str| format!("{what} in teacher line {line:?}");
        let (head, position) = line.split_once(" | ").ok_or_else(|| bad("no ` | `"))?;
        let position = parse_position(position).map_err(|e| bad(&e.to_string()))?;
        if !matches!(position.phase(), Phase::Slide | Phase::Place(_)) {
            return Err(bad("no player to move"));
        }
        let fields: Vec<&str> = head.split(' ').collect();
        let (game, final_score, played, moves, greedy) = match fields[..] {
            [game, final_score, played, moves] => (game, final_score, played, moves, false),
            [game, final_score, played, moves, "greedy"] => {
                (game, final_score, played, moves, true)
            }
            _ => return Err(bad("not four fields (and `greedy`) before the position")),
        };
        let legal = |action: &str| -> Result<Move, String> {
            let action: usize = action.parse().map_err(|_| bad("an action not a number"))?;
            move_of(&position, action).ok_or_else(|| bad("an illegal action"))
        };
        let moves = moves
            .split(',')
            .map(|pair| {
                let (action, value) = pair.split_once(':').ok_or_else(|| bad("a move's value"))?;
                let value: f64 = value.parse().map_err(|_| bad("a value not a number"))?;
                Ok((legal(action)?, value))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(TeacherDecision {
            game: game.parse().map_err(|_| bad("the game not a number"))?,
            final_score: final_score
                .parse()
                .map_err(|_| bad("the final score not a number"))?,
            played: legal(played)?,
            moves,
            position,
            greedy,
        })
    }
}

/// Who plays the game besides the teacher.
pub enum Opponent<'a> {
    /// The teacher plays both roles; every decision is recorded.
    SelfPlay,
    /// This bot plays the other role; only the teacher's decisions as `Role` are recorded.
    Bot(&'a mut dyn Bot, Role),
}

/// What the teacher's searcher assumes of a greedy Order and values its leaves with while it
/// reads one: as the default bot does (`bots::SearchBot`), so that the data teach what it plays.
fn search_against_greedy(searcher: &mut Searcher<BotEval>, hand: &mut HandWeights, on: bool) {
    searcher.set_model(OpponentModel {
        greedy_order: on,
        ..OpponentModel::default()
    });
    hand.set(searcher, on);
}

/// Plays game `game` on the chips of `deal` (drawn in its order), the teacher's decisions
/// analysed by `searcher` (its table cleared first), and returns the teacher's decisions. An
/// error names an opponent's illegal move.
pub fn teacher_game(
    searcher: &mut Searcher<BotEval>,
    config: &TeacherConfig,
    game: usize,
    deal: &[Colour],
    mut opponent: Opponent<'_>,
) -> Result<Vec<TeacherDecision>, String> {
    let mut position = Position::new(config.size);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed(config.seed, game));
    let mut drawn = deal.iter().copied();
    let mut decisions = Vec::new();
    searcher.clear();
    let mut watch = GreedyWatch::new();
    let mut hand = HandWeights::new();
    if let Opponent::Bot(bot, teacher) = &mut opponent {
        bot.new_game(position.size(), teacher.opponent());
    }
    let watching = matches!(opponent, Opponent::Bot(..));
    while !position.is_over() {
        let role = position.phase().role();
        let mv = match (&mut opponent, role) {
            (_, None) => Move::Draw(drawn.next().ok_or("a deal shorter than the board")?),
            (Opponent::Bot(bot, teacher), Some(role)) if role != *teacher => {
                let mv = bot.choose(&position, Budget::UNLIMITED);
                if let Err(e) = position.check(mv) {
                    return Err(format!(
                        "{} played {mv:?}, which is illegal: {e}",
                        bot.name()
                    ));
                }
                mv
            }
            _ => {
                if watching {
                    watch.observe(&position);
                }
                let greedy = watching && watch.is_greedy();
                let chaos = matches!(position.phase(), Phase::Place(_));
                search_against_greedy(searcher, &mut hand, greedy && chaos);
                let analysis =
                    searcher.analyse(&position, Limits::nodes(config.nodes), config.top, None);
                let moves: Vec<(Move, f64)> =
                    analysis.moves.iter().map(|m| (m.mv, m.value)).collect();
                let played = explore(&position, &moves, config, &mut rng);
                if watching {
                    watch.played(&position, played);
                }
                decisions.push(TeacherDecision {
                    game,
                    position,
                    moves,
                    played,
                    final_score: 0,
                    greedy,
                });
                played
            }
        };
        position.play_unchecked(mv);
    }
    search_against_greedy(searcher, &mut hand, false);
    let score = position.score();
    for decision in &mut decisions {
        decision.final_score = score;
    }
    Ok(decisions)
}

/// The move the teacher plays: a random legal one with probability `explore`, else one of
/// `moves` (best first) drawn with weights falling by `e` every `temperature` points lost.
fn explore(
    position: &Position,
    moves: &[(Move, f64)],
    config: &TeacherConfig,
    rng: &mut Xoshiro256PlusPlus,
) -> Move {
    if rng.random::<f64>() < config.explore {
        return random_move(position, rng);
    }
    if config.temperature <= 0.0 || moves.len() == 1 {
        return moves[0].0;
    }
    let best = moves[0].1;
    let weights: Vec<f64> = moves
        .iter()
        .map(|&(_, value)| (-(best - value).abs() / config.temperature).exp())
        .collect();
    let mut pick = rng.random::<f64>() * weights.iter().sum::<f64>();
    for (&(mv, _), weight) in moves.iter().zip(&weights) {
        if pick < *weight {
            return mv;
        }
        pick -= weight;
    }
    moves[moves.len() - 1].0
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_engine::eval::{Evaluator, LinearEval};

    fn deal(seed: u64) -> Vec<Colour> {
        entropy_arena::deal::shuffled_bag(Size::SEVEN, seed)
    }

    fn config() -> TeacherConfig {
        TeacherConfig {
            nodes: 300,
            top: 3,
            explore: 0.2,
            temperature: 2.0,
            ..TeacherConfig::default()
        }
    }

    #[test]
    fn a_self_play_game_records_every_decision_and_reads_back() {
        let mut searcher = Searcher::new(BotEval::Linear(LinearEval::trained()), 1);
        let game = teacher_game(&mut searcher, &config(), 3, &deal(3), Opponent::SelfPlay).unwrap();
        // Every placement and every slide but after the last chip (the board is full).
        assert_eq!(game.len(), 2 * Size::SEVEN.cells() - 1);
        let final_score = game[0].final_score;
        for decision in &game {
            assert_eq!(decision.final_score, final_score);
            assert!(!decision.moves.is_empty() && decision.moves.len() <= 3);
            let line = decision.to_line();
            let back = TeacherDecision::from_line(&line).unwrap();
            assert_eq!(back.to_line(), line);
            assert_eq!(back.played, decision.played);
        }
        // Exploration plays moves other than the best, and the same game again is the same.
        assert!(game.iter().any(|d| d.played != d.moves[0].0));
        let again =
            teacher_game(&mut searcher, &config(), 3, &deal(3), Opponent::SelfPlay).unwrap();
        assert_eq!(again, game);
    }

    #[test]
    fn against_a_bot_only_the_teachers_role_is_recorded() {
        let mut searcher = Searcher::new(BotEval::Linear(LinearEval::trained()), 1);
        let mut greedy = entropy_engine::make_bot("greedy", 1).unwrap();
        let opponent = Opponent::Bot(greedy.as_mut(), Role::Chaos);
        let game = teacher_game(&mut searcher, &config(), 0, &deal(0), opponent).unwrap();
        assert_eq!(game.len(), Size::SEVEN.cells());
        assert!(game
            .iter()
            .all(|d| matches!(d.position.phase(), Phase::Place(_))));
    }

    #[test]
    fn as_chaos_the_teacher_reads_a_greedy_order_and_records_it() {
        let mut searcher = Searcher::new(BotEval::Linear(LinearEval::trained()), 1);
        let mut greedy = entropy_engine::make_bot("greedy", 2).unwrap();
        let opponent = Opponent::Bot(greedy.as_mut(), Role::Chaos);
        let game = teacher_game(&mut searcher, &config(), 2, &deal(2), opponent).unwrap();
        // Not before a few of Order's moves are watched, and then for most of the game.
        assert!(!game[0].greedy);
        let read = game.iter().filter(|d| d.greedy).count();
        assert!(
            read >= game.len() / 2,
            "read greedy at {read} of {}",
            game.len()
        );
        for decision in game.iter().filter(|d| d.greedy) {
            let line = decision.to_line();
            assert!(line.contains(" greedy | "), "{line}");
            let back = TeacherDecision::from_line(&line).unwrap();
            assert!(back.greedy);
            assert_eq!(back.to_line(), line);
        }
        // The searcher is left as it was found: its own evaluation, no model.
        assert_eq!(searcher.model(), OpponentModel::default());
        let position = game[game.len() / 2].position;
        let own = LinearEval::trained().evaluate(&position);
        assert_eq!(searcher.eval().evaluate(&position), own);
    }

    #[test]
    fn bad_lines_are_errors_naming_what_is_wrong() {
        let mut searcher = Searcher::new(BotEval::Linear(LinearEval::trained()), 1);
        let game = teacher_game(&mut searcher, &config(), 1, &deal(1), Opponent::SelfPlay).unwrap();
        let line = game[5].to_line();
        for (bad, says) in [
            (line.replace(" | ", " "), "no ` | `"),
            (line.replacen(' ', " x ", 1), "not four fields"),
            (line.replace(" | ", " greed | "), "not four fields"),
            (format!("x{line}"), "the game not a number"),
            (line.replace(':', ";"), "a move's value"),
        ] {
            let error = TeacherDecision::from_line(&bad).unwrap_err();
            assert!(error.contains(says), "{error}");
        }
    }
}
