//! The results page: one row per test, generated from the results store.
//!
//! The store is a folder (`results/` in the repository) holding the game records of every test
//! and an index, `index.toml`, that says what each test was: its date, the commit tested, the
//! change in one line, the test (a ladder rung, a screen, a match), its record and, for a
//! change that failed, the commit to revive it from. Every figure on the page (the margin and
//! its 95% interval, the deals, the SPRT's verdict, the mean scores as Order) is computed here
//! from the records, so none is typed by hand and the page can be checked against its sources.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::record::{read_match, GameRecord};
use crate::sprt::Hypothesis;
use crate::stats::{compare, summarize, MeanCi};

/// The index of a results store: its tests, in any order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Index {
    /// The tests.
    #[serde(rename = "test", default)]
    pub tests: Vec<Entry>,
}

/// One test as the index describes it. Everything here is a fact about the test, not a
/// measurement: the measurements come from the record.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// When the test was run (its last game), `YYYY-MM-DD`.
    pub date: String,
    /// The commit tested (`A vs B` where two builds played).
    pub commit: String,
    /// The change or the question, in one line.
    pub change: String,
    /// The test: a ladder rung (`stc`, `ltc`, `nonreg`), a screen, a match and its clock.
    pub test: String,
    /// The record, relative to the store (`matches/NAME.jsonl.gz`); none where none was kept.
    #[serde(default)]
    pub record: Option<String>,
    /// Another record to compare with on the same deals: the row's result is then this
    /// record's paired margin less that one's, deal by deal.
    #[serde(default)]
    pub against: Option<Against>,
    /// Where a failed change can be revived from: the last commit that had it.
    #[serde(default)]
    pub revive: Option<String>,
}

/// The other match of a comparison on the same deals.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Against {
    /// Its record, relative to the store.
    pub record: String,
    /// What played it, as the row names it (`fd0c3c1`).
    pub name: String,
}

/// What a row shows, computed from its records.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The result: the margin per deal with its 95% interval, and the SPRT's verdict.
    pub result: String,
    /// Player A's and player B's mean score as Order, where a record was kept.
    pub as_order: Option<(f64, f64)>,
    /// The complete deals the result counts.
    pub deals: Option<usize>,
}

impl Index {
    /// Every record the tests name (their own and those compared with), by compressed name.
    pub fn records_named(&self) -> std::collections::BTreeSet<String> {
        self.tests
            .iter()
            .flat_map(|t| t.record.iter().chain(t.against.iter().map(|a| &a.record)))
            .map(|r| r.strip_suffix(".gz").unwrap_or(r).to_owned() + ".gz")
            .collect()
    }
}

/// Reads a store's index.
pub fn read_index(store: &Path) -> Result<Index, String> {
    let path = store.join("index.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let index: Index = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    for entry in &index.tests {
        entry
            .check()
            .map_err(|e| format!("{}: test {:?}: {e}", path.display(), entry.change))?;
    }
    Ok(index)
}

impl Entry {
    fn check(&self) -> Result<(), String> {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let parts: Vec<&str> = self.date.split('-').collect();
        if parts.len() != 3 || !parts.iter().all(|p| digits(p)) || parts[0].len() != 4 {
            return Err(format!("date {:?} is not YYYY-MM-DD", self.date));
        }
        for (name, text) in [
            ("change", &self.change),
            ("test", &self.test),
            ("commit", &self.commit),
        ] {
            if text.trim().is_empty() || text.contains('\n') {
                return Err(format!("{name} must be one line of text"));
            }
        }
        if self.change.chars().count() > 200 {
            return Err("change is over 200 characters: say it in one line".into());
        }
        if self.against.is_some() && self.record.is_none() {
            return Err("against needs a record to compare".into());
        }
        Ok(())
    }
}

fn load(store: &Path, name: &str) -> Result<Vec<GameRecord>, String> {
    let (records, problems) = read_match(&store.join(name))?;
    match problems.first() {
        Some(problem) => Err(format!("unreadable record: {problem}")),
        None => Ok(records),
    }
}

fn signed(ci: &MeanCi) -> String {
    if ci.n < 2 {
        format!("{:+.1}", ci.mean)
    } else {
        format!("{:+.1} ± {:.1}", ci.mean, ci.half_width)
    }
}

/// Computes what a test's row shows from its records.
pub fn outcome(store: &Path, entry: &Entry) -> Result<Outcome, String> {
    let Some(record) = &entry.record else {
        return Ok(Outcome {
            result: "no record kept".into(),
            as_order: None,
            deals: None,
        });
    };
    let records = load(store, record)?;
    let summary = summarize(&records);
    let as_order = match (&summary.players[0].as_order, &summary.players[1].as_order) {
        (Some(a), Some(b)) => Some((a.mean, b.mean)),
        _ => None,
    };
    if let Some(against) = &entry.against {
        let theirs = load(store, &against.record)?;
        let comparison = compare(&records, &theirs).map_err(|e| format!("{record}: {e}"))?;
        let mut result = format!(
            "{} above {}'s margin on the same deals",
            signed(&comparison.difference),
            against.name
        );
        if let Some(adjusted) = &comparison.difference_adjusted {
            write!(result, " (less luck {})", signed(adjusted)).unwrap();
        }
        write!(result, "; own margin {}", signed(&comparison.first)).unwrap();
        return Ok(Outcome {
            result,
            as_order,
            deals: Some(comparison.shared),
        });
    }
    let Some(paired) = &summary.paired else {
        return Err(format!("{record}: no complete deal"));
    };
    let mut result = String::new();
    if let Some(status) = records.iter().rev().find_map(|r| r.sprt) {
        result.push_str(match status.decision {
            Some(Hypothesis::H1) => "**H1** (passed): ",
            Some(Hypothesis::H0) => "**H0** (failed): ",
            None => "undecided: ",
        });
    }
    result.push_str(&signed(paired));
    if let Some(adjusted) = &summary.adjusted {
        write!(result, " (less luck {})", signed(adjusted)).unwrap();
    }
    Ok(Outcome {
        result,
        as_order,
        deals: Some(paired.n),
    })
}

/// Escapes what would break a markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn link(base: &str, record: &str) -> String {
    let name = Path::new(record)
        .file_name()
        .map_or(record.into(), |n| n.to_string_lossy().into_owned());
    format!("[`{name}`]({base}{record})")
}

/// The results page, newest test first (tests of the same date in the index's order), with
/// links to the records made from `link_base` (the store as seen from the page's folder,
/// ending in `/`).
pub fn render(store: &Path, index: &Index, link_base: &str) -> Result<String, String> {
    let mut entries: Vec<&Entry> = index.tests.iter().collect();
    entries.sort_by(|a, b| b.date.cmp(&a.date));
    let mut page = String::from(
        "# Results\n\n\
         Every test of the project, newest first: one row per test, made by `entropy results` from\n\
         the records in [results/](../results) and the index that names them\n\
         ([results/index.toml](../results/index.toml)). Do not edit this page: a test regenerates\n\
         it and fails where it differs. [testing.md](testing.md) says how the tests work.\n\n\
         - **result**: player A's paired margin per deal (A's score as Order less B's on the same\n  \
           chips), with its 95% interval; *less luck* takes out each game's luck in the draws where\n  \
           the record measured it. For a ladder rung, the SPRT's verdict: **H1** passed, **H0**\n  \
           failed. A row *above* another match compares the two on the deals both played.\n\
         - **as Order**: A's and B's mean final score as Order.\n\
         - **revive**: for a change that failed, the commit to take it back from.\n\n\
         | date | commit | change | test | result per deal (95% CI) | as Order | deals | record | revive |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for entry in entries {
        let outcome = outcome(store, entry).map_err(|e| format!("{}: {e}", entry.change))?;
        let as_order = outcome
            .as_order
            .map_or("-".into(), |(a, b)| format!("{a:.1} vs {b:.1}"));
        let deals = outcome.deals.map_or("-".into(), |n| n.to_string());
        let record = entry
            .record
            .as_deref()
            .map_or("-".into(), |r| link(link_base, r));
        writeln!(
            page,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            entry.date,
            cell(&entry.commit),
            cell(&entry.change),
            cell(&entry.test),
            cell(&outcome.result),
            as_order,
            deals,
            record,
            entry.revive.as_deref().unwrap_or("-"),
        )
        .unwrap();
    }
    Ok(page)
}

/// The store as a relative link from the folder of `page`: `../results/` for
/// `docs/results.md` and `results`.
pub fn link_base(page: &Path, store: &Path) -> String {
    if store.is_absolute() {
        return format!("{}/", store.display());
    }
    let depth = page.parent().map_or(0, |p| {
        p.components().filter(|c| c.as_os_str() != ".").count()
    });
    let mut base = "../".repeat(depth);
    base.push_str(&store.to_string_lossy());
    if !base.ends_with('/') {
        base.push('/');
    }
    base
}

/// Every record file under the store's folder, relative to it, by its compressed name.
pub fn records_in(store: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if let Some(name) = path.to_str() {
                let name = name.strip_suffix(".gz").unwrap_or(name);
                if name.ends_with(".jsonl") {
                    let sealed = PathBuf::from(format!("{name}.gz"));
                    out.push(sealed.strip_prefix(base).unwrap_or(&sealed).to_path_buf());
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(store, store, &mut out);
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_reach_the_store_from_the_page() {
        assert_eq!(
            link_base(Path::new("docs/results.md"), Path::new("results")),
            "../results/"
        );
        assert_eq!(
            link_base(Path::new("r.md"), Path::new("results")),
            "results/"
        );
    }

    #[test]
    fn an_entry_must_be_one_line_with_a_date() {
        let entry = |date: &str, change: &str| Entry {
            date: date.into(),
            commit: "abc1234".into(),
            change: change.into(),
            test: "stc".into(),
            record: None,
            against: None,
            revive: None,
        };
        assert!(entry("2026-12-06", "a change").check().is_ok());
        assert!(entry("6 Dec", "a change").check().is_err());
        assert!(entry("2026-12-06", "two\nlines").check().is_err());
        assert!(entry("2026-12-06", &"x".repeat(201)).check().is_err());
    }
}
