//! One module per subcommand. Each has `Args` (clap) and `run(Args) -> Result<ExitCode>`.

pub mod analyse;
pub mod bench;
pub mod bots;
pub mod calibrate;
pub mod codecup;
pub mod course;
pub mod ladder;
pub mod matches;
pub mod perft;
pub mod play;
pub mod policy_data;
pub mod records;
pub mod results;
pub mod score;
pub mod serve;
pub mod teacher_data;
pub mod train;
pub mod train_net;
pub mod train_tables;
pub mod tune;

use std::path::Path;

use anyhow::{bail, Context, Result};
use entropy_arena::record::GameRecord;
use entropy_arena::recorded::{play_recorded, MatchEvent};
use entropy_arena::sprt::{SprtConfig, SprtStatus};
use entropy_arena::tournament::MatchConfig;
use entropy_core::Size;
use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar over `total` `items` (a label such as "games", which may carry more of
/// indicatif's template after it), starting at `done`; hidden when `quiet`. Its message, if any,
/// goes at the end of the line.
pub fn progress_bar(quiet: bool, total: u64, done: u64, items: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {items}  {{elapsed_precise}} elapsed, ~{{eta}} left{{msg}}"
        ))
        .expect("a valid template"),
    );
    bar.set_position(done);
    bar
}

/// Reads a board side given on the command line.
pub fn parse_size(side: usize) -> Result<Size> {
    match Size::new(side) {
        Some(size) => Ok(size),
        None => bail!("board size {side} is not supported: use 7 (the game) or 5 (Entropy(5))"),
    }
}

/// Writes a file through a temporary name, so an interruption never leaves half a model.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, bytes)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Makes the folder a file is to be written in, if it does not exist yet; the error names the
/// file.
pub fn make_folder_of(path: &std::path::Path) -> Result<()> {
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// `--jobs` if given, else the number of CPUs; at least 1.
pub fn jobs_or_cpus(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The searcher's limits per decision from `--nodes` and `--time` (seconds, which win).
pub fn search_limits(nodes: u64, time: Option<f64>) -> Result<entropy_engine::search::Limits> {
    use entropy_engine::search::Limits;
    Ok(match time {
        Some(s) if s.is_finite() && s > 0.0 => Limits::time(std::time::Duration::from_secs_f64(s)),
        Some(s) => bail!("--time must be a positive number of seconds, not {s}"),
        None if nodes == 0 => bail!("--nodes must be at least 1"),
        None => Limits::nodes(nodes),
    })
}

/// Plays the games of a match missing from its record with a progress bar (hidden when
/// `quiet`), saying on standard error what it resumed and any forfeit; returns every record and
/// the SPRT's final status.
pub fn play_with_progress(
    config: &MatchConfig,
    path: &Path,
    sprt: Option<SprtConfig>,
    quiet: bool,
) -> Result<(Vec<GameRecord>, Option<SprtStatus>)> {
    let bar = progress_bar(quiet, config.deals as u64 * 2, 0, "games");
    let shown = path.display();
    play_recorded(config, path, sprt, |event| match event {
        MatchEvent::Dropped(problem) => {
            bar.suspend(|| eprintln!("warning: dropping unreadable {problem}"))
        }
        MatchEvent::AlreadyDecided => {
            bar.suspend(|| eprintln!("{shown}: the SPRT had already decided; no game to play"))
        }
        MatchEvent::Resumed { recorded, to_play } => {
            bar.set_position(recorded as u64);
            bar.suspend(|| {
                eprintln!("resuming from {shown}: {recorded} games recorded, {to_play} to play")
            });
        }
        MatchEvent::Played(record) => {
            for f in &record.forfeits {
                let player = if f.role == "order" {
                    &record.order
                } else {
                    &record.chaos
                };
                bar.suspend(|| {
                    eprintln!(
                        "deal {} game {}: {} ({}) forfeits on turn {}: {}: {}",
                        record.deal, record.game, player.name, f.role, f.turn, f.reason, f.detail
                    )
                });
            }
            bar.inc(1);
            if let Some(status) = record.sprt {
                bar.set_message(format!(
                    "  SPRT LLR {:+.2} ({:.2}, {:.2}) after {} deals",
                    status.llr, status.lower, status.upper, status.deals
                ));
            }
        }
    })
    .map_err(anyhow::Error::msg)
    .inspect(|_| bar.finish_and_clear())
}
