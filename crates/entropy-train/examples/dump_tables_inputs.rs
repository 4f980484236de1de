//! Writes the samples of a `train-tables` data file as the tables read them, for fitting other
//! model classes to the same targets outside Rust (issue 87: is a richer evaluation than the
//! line-pattern tables worth its cost?).
//!
//! `cargo run --release -p entropy-train --example dump_tables_inputs -- DATA MODEL OUT`
//!
//! DATA is a `--data` file of `entropy train-tables`, MODEL a tables file (its feature means and
//! scales standardise the linear inputs; its value of each sample is written for reference), OUT
//! the records: per sample little-endian `f32`s: game, target, outcome, bucket, phase (0 after
//! Order's move, 1 after Chaos's placement), anchor, t (the stage as [`Stage`] has it), chips
//! placed, the base linear evaluation, MODEL's value, then each of the 14 lines' index within an
//! anchor (class x patterns + pattern), the 15 linear inputs, the 49 cells' colour numbers (0
//! empty, row by row), the bag's 7 counts and the drawn colour's number (0 if none): 96 in all.

use std::io::{BufRead, BufReader, BufWriter, Write};

use entropy_core::{Cell, Colour, Phase};
use entropy_engine::learned::load_model;
use entropy_engine::learned::ntuple::{line_patterns, Stage};
use entropy_train::Sample;

/// Values per sample.
const COLUMNS: usize = 39 + 49 + 7 + 1;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: dump_tables_inputs DATA MODEL OUT");
        std::process::exit(2);
    }
    let model = load_model(&args[2]).unwrap_or_else(|e| {
        eprintln!("dump_tables_inputs: {e}");
        std::process::exit(2);
    });
    let stride = 4 * line_patterns(7).count();
    let data = std::fs::File::open(&args[1]).unwrap_or_else(|e| {
        eprintln!("dump_tables_inputs: cannot read {}: {e}", args[1]);
        std::process::exit(2);
    });
    let out = std::fs::File::create(&args[3]).unwrap_or_else(|e| {
        eprintln!("dump_tables_inputs: cannot write {}: {e}", args[3]);
        std::process::exit(2);
    });
    let mut out = BufWriter::new(out);
    let mut pending: Vec<Vec<f32>> = Vec::new();
    let mut count = 0usize;
    for (n, line) in BufReader::new(data).lines().enumerate() {
        let line = line.expect("readable data");
        if line.starts_with('#') {
            continue;
        }
        // A game's samples count once its `end` line is there (a cut-off game is dropped).
        if line.starts_with("end") {
            for record in pending.drain(..) {
                for value in &record {
                    out.write_all(&f32::to_le_bytes(*value)).expect("writable");
                }
                count += 1;
            }
            continue;
        }
        let sample = Sample::from_line(&line).unwrap_or_else(|e| {
            eprintln!("dump_tables_inputs: line {}: {e}", n + 1);
            std::process::exit(2);
        });
        let inputs = model.inputs_with(&sample.position, &sample.features);
        let Stage { phase, anchor, t } = inputs.stage;
        let mut record = vec![
            sample.game as f32,
            sample.target as f32,
            sample.outcome as f32,
            sample.bucket.0 as f32,
            phase as f32,
            anchor as f32,
            t,
            sample.position.placed() as f32,
            inputs.base,
            model.value_of(&inputs),
        ];
        record.extend(
            inputs.lines[..inputs.line_count]
                .iter()
                .map(|&i| (i as usize % stride) as f32),
        );
        record.extend(inputs.linear);
        // The board cell by cell (colour numbers, 0 empty), the bag's counts, the drawn colour.
        let position = &sample.position;
        for row in 0..7 {
            for column in 0..7 {
                let cell = Cell::new(row, column).expect("on the board");
                record.push(
                    position
                        .board()
                        .get(cell)
                        .map_or(0.0, |c| f32::from(c.number())),
                );
            }
        }
        for colour in Colour::ALL {
            record.push(f32::from(position.bag().count(colour)));
        }
        record.push(match position.phase() {
            Phase::Place(colour) => f32::from(colour.number()),
            _ => 0.0,
        });
        assert_eq!(record.len(), COLUMNS);
        pending.push(record);
    }
    out.flush().expect("writable");
    eprintln!("{count} samples written to {}", args[3]);
}
