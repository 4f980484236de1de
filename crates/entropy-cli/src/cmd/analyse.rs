//! `entropy analyse`: reviews recorded games move by move with the searcher.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use entropy_arena::record::parse_moves;
use entropy_core::{Move, Position, Role, Size};
use entropy_engine::learned::BotEval;
use entropy_engine::search::analysis::Decision;
use entropy_engine::search::{Limits, Searcher};
use indicatif::ProgressBar;
use serde_json::{json, Value};

/// Review recorded games: for every decision, the best move by the searcher, its expected final
/// score, the expected final score of the move played and what the difference cost.
///
/// Reads `entropy match` records and the web page's downloads (JSON lines, one game per line),
/// and CodeCup transcripts or plain move lists (one game per file: `> 6Fe`, `< FeFe` lines as
/// the CodeCup tests write them, or moves as `entropy match` records them: `3Bc`, `BcBg`, `pass`).
/// Prints a table per game and a summary of each player's and role's expected points lost and
/// largest mistakes; `--json` writes JSON lines instead. Values are Order's expected final
/// score; a loss is what the move gave away to the opponent in expected points.
#[derive(clap::Args)]
pub struct Args {
    /// Game files to review.
    #[arg(required = true, value_name = "RECORD")]
    records: Vec<PathBuf>,
    /// Positions the searcher may visit per decision (reproducible).
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    nodes: u64,
    /// Seconds per decision instead of a node budget (not reproducible).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Write JSON lines (one per decision, one per unreadable game, a summary last).
    #[arg(long)]
    json: bool,
    /// Print only the summary, not every decision.
    #[arg(long)]
    summary_only: bool,
    /// Largest mistakes listed per player and role.
    #[arg(long, default_value_t = 3, value_name = "K")]
    mistakes: usize,
    /// Games analysed at the same time [default: the number of CPUs].
    #[arg(short, long)]
    jobs: Option<usize>,
}

/// A game to review.
pub(crate) struct Game {
    /// Where it came from: `FILE` or `FILE:LINE`.
    pub(crate) source: String,
    pub(crate) size: Size,
    order: String,
    chaos: String,
    pub(crate) moves: Vec<Move>,
}

/// What reviewing one game gave.
struct Reviewed {
    decisions: Vec<Decision>,
    /// A move that could not be played, and where.
    problem: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let limits = limits(args.nodes, args.time)?;
    let (games, unreadable) = read_all(&args.records)?;
    for problem in &unreadable {
        if args.json {
            println!("{}", json!({"type": "error", "problem": problem}));
        } else {
            eprintln!("entropy: skipped {problem}");
        }
    }
    let jobs = jobs(args.jobs, games.len());
    let bar = super::progress_bar(args.json, decisions_in(&games), 0, "decisions");
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut failed = 0;
    in_game_order(
        &games,
        jobs,
        &BotEval::shipped(),
        |searcher, game| review(searcher, game, limits, &bar),
        |index, reviewed| {
            let game = &games[index];
            bar.suspend(|| print_game(&args, index, game, &reviewed));
            failed += usize::from(reviewed.problem.is_some());
            summary.add(index, game, &reviewed.decisions);
        },
    );
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    if args.json {
        println!("{}", summary.json(elapsed));
    } else {
        print!("{}", summary.text(args.mistakes, elapsed, jobs));
    }
    Ok(if failed + unreadable.len() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The searcher's limits per decision from `--nodes` and `--time`.
pub(crate) fn limits(nodes: u64, time: Option<f64>) -> Result<Limits> {
    Ok(match time {
        Some(s) if s.is_finite() && s > 0.0 => Limits::time(Duration::from_secs_f64(s)),
        Some(s) => bail!("--time must be a positive number of seconds, not {s}"),
        None if nodes == 0 => bail!("--nodes must be at least 1"),
        None => Limits::nodes(nodes),
    })
}

/// The games of every file, and a problem for each game that cannot be read; an error if no
/// game can be.
pub(crate) fn read_all(records: &[PathBuf]) -> Result<(Vec<Game>, Vec<String>)> {
    let mut games = Vec::new();
    let mut unreadable = Vec::new();
    for path in records {
        let (read, problems) = read_games(path)?;
        games.extend(read);
        unreadable.extend(problems);
    }
    if games.is_empty() {
        let why = unreadable
            .first()
            .map_or(String::new(), |first| format!(" ({first})"));
        bail!("no game to review in {}{why}", paths_text(records));
    }
    Ok((games, unreadable))
}

/// `--jobs`, or the number of CPUs, at most one per game.
pub(crate) fn jobs(asked: Option<usize>, games: usize) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, games.max(1))
}

/// The decisions (placements and slides) of the games: a progress bar's length.
pub(crate) fn decisions_in(games: &[Game]) -> u64 {
    games
        .iter()
        .flat_map(|g| &g.moves)
        .filter(|m| !matches!(m, Move::Draw(_)))
        .count() as u64
}

/// Runs `work` on every game on `jobs` threads, each with its own searcher over `eval`, and
/// hands the results to `done` in game order as they finish.
pub(crate) fn in_game_order<R: Send>(
    games: &[Game],
    jobs: usize,
    eval: &BotEval,
    work: impl Fn(&mut Searcher<BotEval>, &Game) -> R + Sync,
    mut done: impl FnMut(usize, R),
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(usize, R)>();
        for _ in 0..jobs {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                let mut searcher = Searcher::new(eval.clone(), 16);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(index) else { break };
                    if sender.send((index, work(&mut searcher, game))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut handed = 0;
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&handed) {
                done(handed, result);
                handed += 1;
            }
        }
    });
}

fn paths_text(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

fn review(
    searcher: &mut Searcher<BotEval>,
    game: &Game,
    limits: Limits,
    bar: &ProgressBar,
) -> Reviewed {
    // Each decision from a clean state (Searcher::review), so the figures do not depend on
    // which worker took the game.
    let review = searcher.review(&Position::new(game.size), &game.moves, limits, |_| {
        bar.inc(1)
    });
    Reviewed {
        decisions: review.decisions,
        // The legal part is reviewed; say where it went wrong.
        problem: review.bad_move.map(|bad| {
            format!(
                "{}: move {} ({}) is illegal: {}; reviewed up to it",
                game.source,
                bad.index + 1,
                bad.mv,
                bad.problem
            )
        }),
    }
}

fn player(game: &Game, role: Role) -> &str {
    match role {
        Role::Order => &game.order,
        Role::Chaos => &game.chaos,
    }
}

fn print_game(args: &Args, index: usize, game: &Game, reviewed: &Reviewed) {
    if args.json {
        for d in &reviewed.decisions {
            println!(
                "{}",
                json!({
                    "type": "decision", "game": index + 1, "source": game.source,
                    "turn": d.turn, "role": d.role.name(), "player": player(game, d.role),
                    "played": d.played.mv.to_string(), "played_value": round(d.played.value),
                    "best": d.best.mv.to_string(), "best_value": round(d.best.value),
                    "loss": round(d.loss), "depth": d.depth, "nodes": d.nodes,
                    "calibration": round(d.offset),
                })
            );
        }
        if let Some(problem) = &reviewed.problem {
            println!(
                "{}",
                json!({"type": "error", "game": index + 1, "problem": problem})
            );
        }
        return;
    }
    if let Some(problem) = &reviewed.problem {
        eprintln!("entropy: {problem}");
    }
    if args.summary_only {
        return;
    }
    let mut text = format!(
        "game {}: {} ({} as Order, {} as Chaos)\n turn  role   played  value   best    value    loss\n",
        index + 1,
        game.source,
        game.order,
        game.chaos
    );
    for d in &reviewed.decisions {
        let mark = if d.loss >= 5.0 {
            "  ??"
        } else if d.loss >= 2.0 {
            "  ?"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            " {:>4}  {:<5}  {:<6} {:>6.1}   {:<6} {:>6.1}  {:>6.1}{mark}",
            d.turn,
            d.role.name(),
            d.played.mv.to_string(),
            d.played.value,
            d.best.mv.to_string(),
            d.best.value,
            d.loss
        );
    }
    println!("{text}");
}

fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// Expected points lost per player and role, and the largest mistakes.
#[derive(Default)]
struct Summary {
    sides: BTreeMap<(String, &'static str), Side>,
    decisions: usize,
    games: usize,
}

#[derive(Default)]
struct Side {
    decisions: usize,
    games: usize,
    lost: f64,
    /// (loss, game number, decision)
    mistakes: Vec<(f64, usize, Decision)>,
}

impl Summary {
    fn add(&mut self, index: usize, game: &Game, decisions: &[Decision]) {
        self.games += 1;
        self.decisions += decisions.len();
        for role in [Role::Order, Role::Chaos] {
            let side = self
                .sides
                .entry((player(game, role).to_string(), role.name()))
                .or_default();
            side.games += 1;
            for d in decisions.iter().filter(|d| d.role == role) {
                side.decisions += 1;
                side.lost += d.loss;
                side.mistakes.push((d.loss, index + 1, *d));
            }
            // Largest first; equal losses in game order.
            side.mistakes
                .sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            side.mistakes.truncate(20);
        }
    }

    fn text(&self, mistakes: usize, elapsed: Duration, jobs: usize) -> String {
        let mut text = format!(
            "summary: {} game{}, {} decisions in {:.1} s ({:.1} ms per decision on {jobs} core{})\n",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.decisions,
            elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1000.0 * jobs as f64 / self.decisions.max(1) as f64,
            if jobs == 1 { "" } else { "s" }
        );
        text += "player                role   decisions  points lost  per game  largest mistakes\n";
        for ((name, role), side) in &self.sides {
            let largest: Vec<String> = side
                .mistakes
                .iter()
                .take(mistakes)
                .filter(|m| m.0 > 0.0)
                .map(|(loss, game, d)| {
                    format!(
                        "game {game} turn {}: {} not {} (-{loss:.1})",
                        d.turn, d.played.mv, d.best.mv
                    )
                })
                .collect();
            let _ = writeln!(
                text,
                "{:<21} {:<5}  {:>9}  {:>11.1}  {:>8.1}  {}",
                name,
                role,
                side.decisions,
                side.lost,
                side.lost / side.games.max(1) as f64,
                largest.join("; ")
            );
        }
        text
    }

    fn json(&self, elapsed: Duration) -> Value {
        let sides: Vec<Value> = self
            .sides
            .iter()
            .map(|((name, role), side)| {
                let mistakes: Vec<Value> = side
                    .mistakes
                    .iter()
                    .filter(|m| m.0 > 0.0)
                    .take(10)
                    .map(|(loss, game, d)| {
                        json!({"game": game, "turn": d.turn, "played": d.played.mv.to_string(),
                               "best": d.best.mv.to_string(), "loss": round(*loss)})
                    })
                    .collect();
                json!({"player": name, "role": role, "games": side.games,
                       "decisions": side.decisions, "points_lost": round(side.lost),
                       "per_game": round(side.lost / side.games.max(1) as f64),
                       "mistakes": mistakes})
            })
            .collect();
        json!({"type": "summary", "games": self.games, "decisions": self.decisions,
               "seconds": round(elapsed.as_secs_f64()), "sides": sides})
    }
}

/// Reads the games of a file: JSON lines (one game per line) or one CodeCup transcript or move
/// list. Returns the games and a problem for each line that is not a readable game.
fn read_games(path: &Path) -> Result<(Vec<Game>, Vec<String>)> {
    let text = entropy_arena::store::read_text(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let name = path.display().to_string();
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    if first.is_some_and(|l| l.starts_with('{')) {
        let mut games = Vec::new();
        let mut problems = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let source = format!("{name}:{}", i + 1);
            match game_of_json(line) {
                Ok((size, order, chaos, moves)) => games.push(Game {
                    source,
                    size,
                    order,
                    chaos,
                    moves,
                }),
                Err(e) => problems.push(format!("{source}: {e:#}")),
            }
        }
        return Ok((games, problems));
    }
    match moves_of_transcript(&text) {
        Ok(moves) => Ok((
            vec![Game {
                source: name,
                size: Size::SEVEN,
                order: "order".into(),
                chaos: "chaos".into(),
                moves,
            }],
            Vec::new(),
        )),
        Err(e) => Ok((Vec::new(), vec![format!("{name}: {e:#}")])),
    }
}

/// A game from a JSON line: `entropy match`'s records or the web page's downloads.
fn game_of_json(line: &str) -> Result<(Size, String, String, Vec<Move>)> {
    let value: Value = serde_json::from_str(line).context("not a JSON object")?;
    let entries: Vec<String> =
        serde_json::from_value(value["moves"].clone()).context("no \"moves\" list of strings")?;
    let moves = parse_moves(&entries).context("a move that cannot be read")?;
    let side = match value["match"]["size"].as_u64() {
        Some(side) => side as usize,
        // The web page's download: the final board's rows.
        None => value["board"]
            .as_str()
            .map_or(7, |board| board.split('/').count()),
    };
    let size = super::parse_size(side)?;
    let name = |role: &str| value[role]["name"].as_str().unwrap_or(role).to_string();
    Ok((size, name("order"), name("chaos"), moves))
}

/// The moves of a CodeCup transcript (`> 6Fe`, `< FeFe`, a colour then a cell, `Start`,
/// `Quit`) or of a list of recorded moves, with the draws.
fn moves_of_transcript(text: &str) -> Result<Vec<Move>> {
    let mut entries = Vec::new();
    let mut colour: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line
            .strip_prefix('>')
            .or_else(|| line.strip_prefix('<'))
            .unwrap_or(line);
        for token in line.split_whitespace() {
            match token {
                "Start" | "Quit" => {}
                t if t.len() == 1 => colour = Some(t.to_string()),
                t if t.len() == 2 => match colour.take() {
                    Some(c) => entries.push(format!("{c}{t}")),
                    None => bail!(
                        "line {}: a cell ({t}) with no colour drawn before it",
                        i + 1
                    ),
                },
                t => entries.push(t.to_string()),
            }
        }
    }
    if entries.is_empty() {
        bail!("no moves (expected JSON lines, a CodeCup transcript or recorded moves)");
    }
    parse_moves(&entries).context("a move that cannot be read")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_and_move_lists_give_the_same_moves() {
        let transcript = "# a comment\n> Start\n> 6\n< Fe\n> FeFe\n> 2Fa\n< FaFb\n> Quit\n";
        let list = "6Fe pass 2Fa FaFb";
        let a = moves_of_transcript(transcript).unwrap();
        let b = moves_of_transcript(list).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 6);
        assert!(moves_of_transcript("> Fe").is_err());
        assert!(moves_of_transcript("").is_err());
    }

    #[test]
    fn web_downloads_read_their_size_from_the_board() {
        let line = r#"{"moves":["3Cc","CcCa"],"board":"....././....././.....","order":{"name":"you"},"chaos":{"name":"greedy"}}"#;
        let (size, order, chaos, moves) = game_of_json(line).unwrap();
        assert_eq!(size, Size::FIVE);
        assert_eq!((order.as_str(), chaos.as_str()), ("you", "greedy"));
        assert_eq!(moves.len(), 3);
        assert!(game_of_json(r#"{"moves": 3}"#).is_err());
        assert!(game_of_json("{not json").is_err());
    }
}
