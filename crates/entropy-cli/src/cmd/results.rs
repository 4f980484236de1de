//! `entropy results`: the results page, generated from the results store.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use entropy_arena::results::{link_base, read_index, records_in, render};

/// Write the results page (one row per test, newest first) from the results store.
///
/// The store holds every test's game records and an index, `index.toml`, that names each test:
/// its date, the commit tested, the change in one line, the test, its record, and for a change
/// that failed the commit to revive it from. Every figure on the page (margins with their 95%
/// intervals, deals, SPRT verdicts, mean scores as Order) is computed from the records.
///
/// To add a test: run it with its records under the store (`scripts/sprt.sh` and
/// `scripts/gauntlet.sh` write there), add its entry to the index, and run this command.
#[derive(clap::Args)]
pub struct Args {
    /// The results store: index.toml and the records it names.
    #[arg(long, default_value = "results")]
    store: PathBuf,
    /// The page to write.
    #[arg(long, default_value = "docs/results.md")]
    out: PathBuf,
    /// Write nothing; fail if the page is not what the records make, or if the store holds a
    /// record that no test in the index names.
    #[arg(long)]
    check: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let index = read_index(&args.store).map_err(anyhow::Error::msg)?;
    let page = render(&args.store, &index, &link_base(&args.out, &args.store))
        .map_err(anyhow::Error::msg)?;
    let named = index.records_named();
    let unnamed: Vec<String> = records_in(&args.store)
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| !named.contains(p))
        .collect();
    for record in &unnamed {
        eprintln!(
            "warning: {}/{record} is named by no test in the index",
            args.store.display()
        );
    }
    if args.check {
        let written = std::fs::read_to_string(&args.out)
            .with_context(|| format!("cannot read {}", args.out.display()))?;
        if written != page {
            bail!(
                "{} is not what the records make: run `entropy results` and commit the page",
                args.out.display()
            );
        }
        if !unnamed.is_empty() {
            bail!(
                "{} records are named by no test: add them to the index",
                unnamed.len()
            );
        }
        println!("{}: up to date", args.out.display());
    } else {
        super::write_atomically(&args.out, page.as_bytes())?;
        println!("wrote {}", args.out.display());
    }
    Ok(ExitCode::SUCCESS)
}
