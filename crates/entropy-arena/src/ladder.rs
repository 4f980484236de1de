//! The bot ladder's table: every record in a folder of matches against one reference, a row
//! each, weakest first (`entropy ladder`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::player::PlayerSpec;
use crate::record::{read_records, GameRecord};
use crate::stats::{format_ci, summarize};

/// The markdown table of every match record in `dir` played against `reference` (by its
/// player A), weakest first, with the paired deals' `seed` in its note.
pub fn table(dir: &Path, reference: &PlayerSpec, seed: u64) -> Result<String, String> {
    let mut rows: Vec<(f64, String)> = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            // Each record once, by its compressed name, whichever of its parts is there.
            let name = p.to_string_lossy().into_owned();
            if name.ends_with(".jsonl.gz") {
                Some(p)
            } else {
                name.ends_with(".jsonl")
                    .then(|| PathBuf::from(format!("{name}.gz")))
            }
        })
        .collect();
    entries.sort();
    entries.dedup();
    for path in entries {
        let file =
            read_records(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records: Vec<GameRecord> = file
            .records
            .into_iter()
            .filter(|r| &r.key.players[1] == reference)
            .collect();
        let Some(first) = records.first() else {
            continue;
        };
        let clock = first.key.clock_ms as f64 / 1000.0;
        let summary = summarize(&records);
        let player = &summary.players[0];
        let forfeits = player.forfeits_text("0");
        let margin = summary
            .paired
            .as_ref()
            .map_or(f64::NEG_INFINITY, |c| c.mean);
        let paired = match &summary.paired {
            Some(ci) if ci.n >= 2 => format!("{:+.1} ± {:.1}", ci.mean, ci.half_width),
            Some(ci) => format!("{:+.1}", ci.mean),
            None => "-".to_owned(),
        };
        let deals = summary.paired.as_ref().map_or(0, |c| c.n);
        rows.push((
            margin,
            format!(
                "| {} | {} | {} | {} | {} | {:.1} | {} | {:.2} |\n",
                player.name,
                format_ci(&player.as_order),
                format_ci(&player.as_chaos),
                paired,
                deals,
                clock,
                forfeits,
                player.mean_seconds
            ),
        ));
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| player | S as Order | S conceded as Chaos | paired margin vs {} | deals | clock s | forfeits | s/game |",
        reference.short_label()
    );
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    for (_, row) in rows {
        out.push_str(&row);
    }
    let _ = writeln!(
        out,
        "\nEvery row plays {} on the same paired deals (seed {}): each deal twice, roles swapped, \
         same chips. S as Order: the row's mean score as Order; S conceded: {}'s mean score \
         against the row as Chaos; paired margin: per deal, the row's S as Order minus {}'s, \
         with its 95% confidence interval.",
        reference.short_label(),
        seed,
        reference.short_label(),
        reference.short_label()
    );
    Ok(out)
}
