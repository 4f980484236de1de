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
pub mod train;
pub mod train_net;
pub mod train_tables;
pub mod tune;

use anyhow::{bail, Context, Result};
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
